import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../src/shared/events';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { assertCliBuilt, runCli } from './support/cli';
import { startPageServer } from './support/pageServer';
import { fixtureRepo, outsideTempDir, removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// Issue 3's headless contract, through the built CLI: every ask is a denial unless --unleashed;
// deny rules win even then.

let server: ScriptedModel | undefined;
let page: Awaited<ReturnType<typeof startPageServer>> | undefined;

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await server?.close();
  await page?.close();
  server = undefined;
  page = undefined;
  removeTempDirs();
});

function finishedOutcomes(events: StoredEvent[]): string[] {
  return events.flatMap((stored) => (stored.event.type === 'tool.finished' ? [`${stored.event.name}:${stored.event.outcome}`] : []));
}

async function editCommandFetch(settings?: object) {
  page = await startPageServer();
  const turns: Turn[] = [
    {
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' } },
        { name: 'run_command', arguments: { command: 'touch ran.txt' } },
        { name: 'fetch_url', arguments: { url: page.url } },
      ],
    },
    { text: 'Finished.' },
  ];
  server = await startScriptedModel({ turns });
  const repo = fixtureRepo('failing-test');
  const home = tempDir('tether-home-');
  if (settings) writeFileSync(path.join(home, 'settings.json'), JSON.stringify(settings));
  const flags = ['--cwd', repo, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json'];
  return { repo, home, flags, server, page };
}

describe('tether run with the permission engine', () => {
  it('denies an edit, a command and a fetch with default rules, and exits 0 when the model finishes', async () => {
    const { repo, home, flags, server, page } = await editCommandFetch();
    const result = await runCli(['run', 'fix and check', ...flags], { TETHER_HOME: home });
    expect(result.code).toBe(0);
    expect(finishedOutcomes(result.events)).toEqual(['edit_file:denied', 'run_command:denied', 'fetch_url:denied']);
    expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toContain('cents - cents * percent;');
    expect(existsSync(path.join(repo, 'ran.txt'))).toBe(false);
    expect(page.hits()).toBe(0);
    const told = allToolOutputs(server.requests[1]!);
    expect(told).toHaveLength(3);
    for (const text of told) expect(text).toMatch(/--unleashed/);
    const asked = result.events.flatMap((stored) => (stored.event.type === 'approval.asked' ? [stored.event] : []));
    expect(asked.map((event) => event.tool)).toEqual(['edit_file', 'run_command', 'fetch_url']);
    expect(asked[1]?.commands).toEqual([['touch', 'ran.txt']]);
  });

  it('runs all three with --unleashed, and the fetched page taints the session', async () => {
    const { repo, home, flags, page } = await editCommandFetch({ permissions: { allow: ['fetch_url(domain:127.0.0.1)'] } });
    const result = await runCli(['run', 'fix and check', '--unleashed', ...flags], { TETHER_HOME: home });
    expect(result.code).toBe(0);
    expect(finishedOutcomes(result.events)).toEqual(['edit_file:ok', 'run_command:ok', 'fetch_url:ok']);
    expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toContain('cents * percent / 100;');
    expect(existsSync(path.join(repo, 'ran.txt'))).toBe(true);
    expect(page.hits()).toBe(1);
    const tainted = result.events.find((stored) => stored.event.type === 'session.tainted');
    expect(tainted?.event).toMatchObject({ reason: expect.stringContaining(page.url) });
  });

  it('still denies what a deny rule names under --unleashed', async () => {
    const { repo, home, flags } = await editCommandFetch({ permissions: { allow: ['fetch_url(domain:127.0.0.1)'] } });
    const rules = path.join(tempDir(), 'rules.json');
    writeFileSync(rules, JSON.stringify({ deny: ['run_command(touch *)'] }));
    const result = await runCli(['run', 'fix and check', '--unleashed', '--rules', rules, ...flags], { TETHER_HOME: home });
    expect(result.code).toBe(0);
    expect(finishedOutcomes(result.events)).toEqual(['edit_file:ok', 'run_command:denied', 'fetch_url:ok']);
    expect(existsSync(path.join(repo, 'ran.txt'))).toBe(false);
    const denial = result.events.find((stored) => stored.event.type === 'tool.finished' && stored.event.name === 'run_command')?.event;
    expect(denial?.type === 'tool.finished' && denial.output).toMatch(/run_command\(touch \*\)/);
  });

  it('runs read-only commands without asking, even headless', async () => {
    server = await startScriptedModel({
      turns: [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'ls src | wc -l && git status --short 2>/dev/null; echo done' } }] },
        { text: 'ok' },
      ],
    });
    const repo = fixtureRepo('failing-test');
    const result = await runCli(['run', 'look', '--cwd', repo, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json'], {
      TETHER_HOME: tempDir('tether-home-'),
    });
    expect(result.code).toBe(0);
    expect(finishedOutcomes(result.events)).toEqual(['run_command:ok']);
    expect(result.events.some((stored) => stored.event.type === 'approval.asked')).toBe(false);
  });
});

describe('tether run and the fence', () => {
  async function writeOutside() {
    const outside = path.join(outsideTempDir(), 'planted.txt');
    server = await startScriptedModel({
      turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: `echo planted > ${outside}` } }] }, { text: 'Finished.' }],
    });
    const repo = fixtureRepo('failing-test');
    const home = tempDir('tether-home-');
    return { outside, home, flags: ['--cwd', repo, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json'] };
  }

  it('--unleashed answers the questions but never runs a command outside the sandbox', async () => {
    const { outside, home, flags } = await writeOutside();
    const result = await runCli(['run', 'plant it', '--unleashed', ...flags], { TETHER_HOME: home });
    expect(result.code).toBe(0);
    expect(existsSync(outside)).toBe(false);
    const told = allToolOutputs(server!.requests[1]!).join('\n');
    expect(told).toContain(`the write fence: ${outside}`);
    expect(told).toContain('Not run outside the sandbox');
    expect(result.stderr).not.toContain('--no-sandbox: commands in this run are not sandboxed');
  });

  it('--no-sandbox runs commands unsandboxed, warns on stderr, and keeps that on the session', async () => {
    const { outside, home, flags } = await writeOutside();
    const result = await runCli(['run', 'plant it', '--unleashed', '--no-sandbox', ...flags], { TETHER_HOME: home });
    expect(result.code).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('planted\n');
    expect(result.stderr).toMatch(/^tether: WARNING: --no-sandbox: commands in this run are not sandboxed\./m);
    expect(result.events.map((stored) => stored.event)).toContainEqual({ type: 'sandbox.turned_off', by: 'tether run --no-sandbox' });
    const sessionId = result.events[0]!.sessionId;
    const shown = await runCli(['sessions', 'show', sessionId], { TETHER_HOME: home });
    expect(shown.stdout + shown.stderr).toContain('no sandbox: commands in this run run with your full access (tether run --no-sandbox)');
  });

  it('--allow-host takes a host as Settings writes one, and refuses a URL before anything runs', async () => {
    const { home, flags } = await writeOutside();
    const result = await runCli(
      ['run', 'fetch it', '--allow-host', 'registry.npmjs.org', '--allow-host', 'https://evil.example/x', ...flags],
      {
        TETHER_HOME: home,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--allow-host takes a host as Settings → Sandbox writes it');
    expect(result.stderr).toContain('"https://evil.example/x"');
    expect(server!.requests).toEqual([]);
  });
});
