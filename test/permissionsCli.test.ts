import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/main/store/store';
import { assertCliBuilt, runCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createSessionPermissions } from '../src/main/permissions/sessionPermissions';
import { initShellParser } from '../src/main/shell/parser';
import type { AnyTool } from '../src/main/tools/defineTool';
import { runCommand } from '../src/main/tools/runCommand';

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
    const allowed = await runCli(
      [
        'permissions',
        'explain',
        '--tool',
        'run_command',
        '--args',
        '{"command":"timeout 60 npm test -- --watch"}',
        '--rules',
        rules,
        '--cwd',
        cwd,
        '--json',
      ],
      env,
    );
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toEqual({
      decision: 'allow',
      reason: expect.any(String),
      rule: 'run_command(npm test *)',
      source: 'cli',
      commands: [['npm', 'test', '--', '--watch']],
    });
    const denied = await runCli(
      [
        'permissions',
        'explain',
        '--tool',
        'run_command',
        '--args',
        '{"command":"npm test && rm -rf build"}',
        '--rules',
        rules,
        '--cwd',
        cwd,
        '--json',
      ],
      env,
    );
    expect(JSON.parse(denied.stdout)).toMatchObject({
      decision: 'deny',
      rule: 'run_command(rm *)',
      source: 'cli',
      commands: [
        ['npm', 'test'],
        ['rm', '-rf', 'build'],
      ],
    });
    const unpinned = await runCli(
      [
        'permissions',
        'explain',
        '--tool',
        'run_command',
        '--args',
        '{"command":"eval \\"$X\\""}',
        '--rules',
        rules,
        '--cwd',
        cwd,
        '--json',
      ],
      env,
    );
    // With a run_command deny rule in force, a line whose program is known only when it runs could be rm.
    expect(JSON.parse(unpinned.stdout)).toMatchObject({ decision: 'deny', rule: 'run_command(rm *)', commands: null });
    const unpinnedNoDeny = await runCli(
      ['permissions', 'explain', '--tool', 'run_command', '--args', '{"command":"eval \\"$X\\""}', '--cwd', cwd, '--json'],
      env,
    );
    expect(JSON.parse(unpinnedNoDeny.stdout)).toMatchObject({ decision: 'ask', commands: null });
  });

  it('asks for a networked command once the session is tainted, even when a rule allows it', async () => {
    const cwd = tempDir();
    const rules = path.join(cwd, 'rules.json');
    writeFileSync(rules, JSON.stringify({ allow: ['run_command(curl *)'] }));
    const args = [
      'permissions',
      'explain',
      '--tool',
      'run_command',
      '--args',
      '{"command":"curl https://example.com"}',
      '--rules',
      rules,
      '--cwd',
      cwd,
      '--json',
    ];
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
      {
        tool: 'fetch_url',
        args: { url: 'https://docs.example.com/x' },
        rules: { allow: ['fetch_url(domain:docs.example.com)'] },
        tainted: true,
      },
      { tool: 'mcp__github__create_issue', args: {}, rules: { allow: ['mcp__github__*'] } },
      { tool: 'no_such_tool', args: {} },
    ];
    const lines = [...requests.map((request) => JSON.stringify(request)), 'not json'];
    const results = (await explainStdin(lines, cwd, tempDir())).map((line) => JSON.parse(line) as { decision: string });
    expect(results.map((result) => result.decision)).toEqual(['allow', 'allow', 'deny', 'deny', 'allow', 'ask', 'allow', 'deny', 'deny']);
  });
});

/** What a session in `cwd` would decide for this call, through the engine sessions are built with. */
async function sessionDecision(home: string, cwd: string, command: string): Promise<string> {
  const store = openStore(home);
  try {
    const project = store.projects.ensure(cwd);
    const session = store.sessions.create({
      workspace: cwd,
      projectId: project.id,
      model: 'm',
      api: 'responses',
      baseUrl: 'http://127.0.0.1:1/v1',
      maxSteps: 5,
    });
    const permissions = await createSessionPermissions({
      store,
      dataDir: home,
      workspace: cwd,
      sessionId: session.id,
      mode: 'ask',
      outsideContent: 'ask',
    });
    // As the approval gate does before it checks a command: the engine reads it with the shell parser.
    await initShellParser();
    return permissions.engine.evaluate({ sessionId: session.id, callId: 'c', tool: runCommand as AnyTool, args: { command } }).action;
  } finally {
    store.close();
  }
}

describe('tether permissions explain sees what a session would', () => {
  const explainCommand = async (home: string, cwd: string, command: string) => {
    const run = await runCli(
      ['permissions', 'explain', '--tool', 'run_command', '--args', JSON.stringify({ command }), '--cwd', cwd, '--json'],
      { TETHER_HOME: home },
    );
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as { decision: string; rule: string | null };
  };

  it("counts the grants Allow always stored for the folder's project and everywhere, not another session's or a revoked one", async () => {
    const home = tempDir();
    const cwd = realpathSync(tempDir());
    expect((await explainCommand(home, cwd, 'make build')).decision).toBe('ask');
    const store = openStore(home);
    const project = store.projects.ensure(cwd);
    const elsewhere = store.projects.ensure(realpathSync(tempDir()));
    const other = store.sessions.create({
      workspace: cwd,
      projectId: project.id,
      model: 'm',
      api: 'responses',
      baseUrl: 'http://127.0.0.1:1/v1',
      maxSteps: 5,
    });
    store.rules.add({ pattern: 'run_command(make build)', action: 'allow', scope: 'project', source: 'approval', projectId: project.id });
    store.rules.add({ pattern: 'run_command(make lint)', action: 'allow', scope: 'everywhere', source: 'approval' });
    store.rules.add({
      pattern: 'run_command(make docs)',
      action: 'allow',
      scope: 'session',
      source: 'approval',
      sessionId: other.id,
      projectId: project.id,
    });
    store.rules.add({ pattern: 'run_command(make dist)', action: 'allow', scope: 'project', source: 'approval', projectId: elsewhere.id });
    const revoked = store.rules.add({ pattern: 'run_command(make clean)', action: 'allow', scope: 'everywhere', source: 'approval' });
    store.rules.revoke(revoked.id);
    store.close();

    expect(await explainCommand(home, cwd, 'make build')).toMatchObject({ decision: 'allow', rule: 'run_command(make build)' });
    expect(await explainCommand(home, cwd, 'make lint')).toMatchObject({ decision: 'allow', rule: 'run_command(make lint)' });
    // Another session's own grant, another project's and a revoked one reach no new session here.
    for (const command of ['make docs', 'make dist', 'make clean'])
      expect((await explainCommand(home, cwd, command)).decision, command).toBe('ask');
    // And a session started in the folder decides each the same way.
    for (const command of ['make build', 'make lint', 'make docs', 'make dist', 'make clean']) {
      expect(await sessionDecision(home, cwd, command), command).toBe((await explainCommand(home, cwd, command)).decision);
    }
  });

  it("lets the project's own allow rules count once the project is trusted, as a session does", async () => {
    const home = tempDir();
    const cwd = realpathSync(tempDir());
    mkdirSync(path.join(cwd, '.tether'));
    writeFileSync(path.join(cwd, '.tether', 'settings.json'), JSON.stringify({ permissions: { allow: ['run_command(make build)'] } }));
    // No database yet, and then a project nobody trusts: the folder's allow rule does not count.
    expect((await explainCommand(home, cwd, 'make build')).decision).toBe('ask');
    const store = openStore(home);
    const project = store.projects.ensure(cwd);
    store.close();
    expect((await explainCommand(home, cwd, 'make build')).decision).toBe('ask');
    expect(await sessionDecision(home, cwd, 'make build')).toBe('ask');

    const trusting = openStore(home);
    trusting.projects.setTrusted(project.id, true);
    trusting.close();
    expect(await explainCommand(home, cwd, 'make build')).toMatchObject({ decision: 'allow', rule: 'run_command(make build)' });
    expect(await sessionDecision(home, cwd, 'make build')).toBe('allow');
    // Trust never lets the folder's rules allow more than they say.
    expect((await explainCommand(home, cwd, 'make deploy')).decision).toBe('ask');
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
