import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/main/store/store';
import { assertCliBuilt, runCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';
import { writeFileSync } from 'node:fs';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/tether.js');

beforeAll(() => assertCliBuilt());
afterEach(() => removeTempDirs());

function explainStdin(lines: string[], cwd: string, home: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'permissions', 'explain', '--stdin', '--cwd', cwd], {
      env: { ...process.env, TETHER_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`exit ${code}: ${err}`))));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

describe('tether permissions explain', () => {
  it('prints one JSON object with the decision, the reason, the deciding rule and the commands found', async () => {
    const cwd = tempDir();
    const rules = path.join(cwd, 'rules.json');
    writeFileSync(rules, JSON.stringify({ allow: ['run_command(npm test *)'], deny: ['run_command(rm *)'] }));
    const env = { TETHER_HOME: tempDir() };
    const allowed = await runCli(['permissions', 'explain', '--tool', 'run_command', '--args', '{"command":"timeout 60 npm test -- --watch"}', '--rules', rules, '--cwd', cwd, '--json'], env);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toEqual({
      decision: 'allow',
      reason: expect.any(String),
      rule: 'run_command(npm test *)',
      commands: [['npm', 'test', '--', '--watch']],
    });
    const denied = await runCli(['permissions', 'explain', '--tool', 'run_command', '--args', '{"command":"npm test && rm -rf build"}', '--rules', rules, '--cwd', cwd, '--json'], env);
    expect(JSON.parse(denied.stdout)).toMatchObject({ decision: 'deny', rule: 'run_command(rm *)', commands: [['npm', 'test'], ['rm', '-rf', 'build']] });
    const unpinned = await runCli(['permissions', 'explain', '--tool', 'run_command', '--args', '{"command":"eval \\"$X\\""}', '--rules', rules, '--cwd', cwd, '--json'], env);
    // With a run_command deny rule in force, a line whose program is known only when it runs could be rm.
    expect(JSON.parse(unpinned.stdout)).toMatchObject({ decision: 'deny', rule: 'run_command(rm *)', commands: null });
    const unpinnedNoDeny = await runCli(['permissions', 'explain', '--tool', 'run_command', '--args', '{"command":"eval \\"$X\\""}', '--cwd', cwd, '--json'], env);
    expect(JSON.parse(unpinnedNoDeny.stdout)).toMatchObject({ decision: 'ask', commands: null });
  });

  it('asks for a networked command once the session is tainted, even when a rule allows it', async () => {
    const cwd = tempDir();
    const rules = path.join(cwd, 'rules.json');
    writeFileSync(rules, JSON.stringify({ allow: ['run_command(curl *)'] }));
    const args = ['permissions', 'explain', '--tool', 'run_command', '--args', '{"command":"curl https://example.com"}', '--rules', rules, '--cwd', cwd, '--json'];
    const clean = await runCli(args, { TETHER_HOME: tempDir() });
    expect(JSON.parse(clean.stdout).decision).toBe('allow');
    const tainted = await runCli([...args, '--tainted'], { TETHER_HOME: tempDir() });
    expect(JSON.parse(tainted.stdout).decision).toBe('ask');
  });

  it('answers many requests from stdin in order, one line each, a bad line included', async () => {
    const cwd = tempDir();
    const requests = [
      { tool: 'read_file', args: { path: 'README.md' } },
      { tool: 'edit_file', args: { path: 'a.ts', old_string: 'a', new_string: 'b' }, mode: 'auto-edit' },
      { tool: 'edit_file', args: { path: 'a.ts', old_string: 'a', new_string: 'b' }, mode: 'read-only' },
      { tool: 'run_command', args: { command: 'git push' }, rules: { deny: ['run_command(git push *)'] }, mode: 'unleashed' },
      { tool: 'fetch_url', args: { url: 'https://docs.example.com/x' }, rules: { allow: ['fetch_url(domain:docs.example.com)'] } },
      { tool: 'fetch_url', args: { url: 'https://docs.example.com/x' }, rules: { allow: ['fetch_url(domain:docs.example.com)'] }, tainted: true },
      { tool: 'mcp__github__create_issue', args: {}, rules: { allow: ['mcp__github__*'] } },
      { tool: 'no_such_tool', args: {} },
    ];
    const lines = [...requests.map((request) => JSON.stringify(request)), 'not json'];
    const results = (await explainStdin(lines, cwd, tempDir())).map((line) => JSON.parse(line) as { decision: string });
    expect(results.map((result) => result.decision)).toEqual(['allow', 'allow', 'deny', 'deny', 'allow', 'ask', 'allow', 'deny', 'deny']);
  });
});

describe('tether permissions list and revoke', () => {
  it('lists remembered rules and revokes one', async () => {
    const home = tempDir();
    const store = openStore(home);
    const rule = store.rules.add({ pattern: 'run_command(npm test *)', action: 'allow', scope: 'everywhere', source: 'approval' });
    store.close();
    const listed = await runCli(['permissions', 'list'], { TETHER_HOME: home });
    expect(listed.stdout).toContain(`${rule.id}  allow  run_command(npm test *)  [everywhere]`);
    const revoked = await runCli(['permissions', 'revoke', rule.id], { TETHER_HOME: home });
    expect(revoked.code).toBe(0);
    const after = await runCli(['permissions', 'list'], { TETHER_HOME: home });
    expect(after.stdout).toMatch(/No remembered rules/);
    const missing = await runCli(['permissions', 'revoke', 'nope'], { TETHER_HOME: home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no rule nope/);
  });
});
