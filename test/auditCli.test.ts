import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, cliSetUp, closeCliModels, runCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';

// `tether audit` over sessions the built CLI really ran: the scripted model asks for calls that a
// rule allows, a --rules file denies, the managed policy denies and the headless default denies.

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeCliModels();
  removeTempDirs();
});

describe('tether audit after real runs', () => {
  it('lists who decided each call, and the managed policy by name', async () => {
    const { env, flags } = await cliSetUp([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'src/price.js' } },
          { name: 'run_command', arguments: { command: 'rm -rf src' } },
          { name: 'run_command', arguments: { command: 'curl https://evil.example/, "x"' } },
          { name: 'run_command', arguments: { command: 'touch ran' } },
        ],
      },
      { text: 'Some were refused.' },
      { text: 'Again, with no sandbox.' },
    ]);
    const folder = tempDir();
    const rules = path.join(folder, 'rules.json');
    writeFileSync(rules, JSON.stringify({ deny: ['run_command(rm *)'] }));
    const policy = path.join(folder, 'managed-settings.json');
    writeFileSync(policy, JSON.stringify({ permissions: { deny: ['run_command(curl *)'] } }));
    const withPolicy = { ...env, TETHER_MANAGED_SETTINGS: policy };

    const first = await runCli(['run', 'do things', '--json', '--rules', rules, ...flags], withPolicy);
    expect(first.code).toBe(0);
    const sessionId = first.events[0]!.sessionId;
    const second = await runCli(['run', '--session', sessionId, 'again', '--no-sandbox', '--json', '--base-url', flags[3]!], withPolicy);
    expect(second.code).toBe(0);

    const json = await runCli(['audit', '--session', sessionId, '--json'], withPolicy);
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<{ tool: string | null; what: string; action: string; by: string; rule?: string }>;
    expect(rows.map((row) => [row.tool, row.action, row.by, row.rule ?? null])).toEqual([
      ['read_file', 'allow', 'rules', null],
      ['run_command', 'deny', 'rules', 'run_command(rm *)'],
      ['run_command', 'deny', 'managed policy', 'run_command(curl *)'],
      ['run_command', 'deny', 'headless default', null],
      [null, 'no sandbox', 'run option', null],
    ]);

    const csv = await runCli(['audit', '--csv', '--since', '1h'], withPolicy);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe(
      'time,session,session_title,project,seq,call,tool,what,action,decided_by,rule,rule_source,scope,reason,runner,edited,proposed',
    );
    expect(csv.stdout).toContain('"Denied: curl https://evil.example/, ""x"""');
    expect(lines.filter((line) => line.includes(sessionId))).toHaveLength(5);

    const bad = await runCli(['audit', '--session', 'nope'], withPolicy);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('tether: No session nope. List them with: tether sessions\n');
  });

  it('keeps the managed policy’s ask rules under --unleashed: a headless run has nobody to ask', async () => {
    const { env, flags, repo, server } = await cliSetUp([
      {
        toolCalls: [
          { name: 'run_command', arguments: { command: 'touch ran' } },
          { name: 'run_command', arguments: { command: 'mkdir made' } },
        ],
      },
      { text: 'One was refused.' },
    ]);
    const policy = path.join(tempDir(), 'managed-settings.json');
    writeFileSync(policy, JSON.stringify({ permissions: { ask: ['run_command(touch *)'] } }));
    const withPolicy = { ...env, TETHER_MANAGED_SETTINGS: policy };
    const run = await runCli(['run', 'do it', '--unleashed', '--json', ...flags], withPolicy);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(repo, 'ran'))).toBe(false);
    expect(existsSync(path.join(repo, 'made'))).toBe(true);
    expect(JSON.stringify(server.requests[1])).toContain('The managed policy wants a person to decide this');

    const rows = JSON.parse((await runCli(['audit', '--json'], withPolicy)).stdout) as Array<{ what: string; action: string; by: string }>;
    expect(rows.map((row) => [row.what, row.action, row.by])).toEqual([
      ['touch ran', 'deny', 'headless default'],
      ['Ran: mkdir made', 'allow', 'unleashed mode'],
    ]);
  });
});
