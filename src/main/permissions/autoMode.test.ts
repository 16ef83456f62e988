import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../shared/permissions';
import { createPermissionEngine } from './engine';
import { initShellParser } from '../shell/analyzeCommand';
import { command, mcpTool, query, testTools } from '../../../test/support/permissionQueries';

// Mode auto: what the sandbox holds runs on its own; what would leave it asks. Through the real shell
// analysis. Whether the sandbox holds the session's commands is the engine's `commandsFenced`.

let root = '';
beforeAll(async () => {
  await initShellParser();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-auto-')));
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function engine(fenced: boolean, rules: PermissionRule[] = [], fencedPlaces: readonly string[] = []) {
  return createPermissionEngine({
    workspaceRoot: root,
    home: path.join(root, 'home'),
    mode: 'auto',
    outsideContent: 'ask',
    projectTrusted: false,
    rules,
    commandsFenced: () => fenced,
    fencedPlaces: () => fencedPlaces,
  });
}

const rule = (pattern: string, action: PermissionRule['action']): PermissionRule => ({ pattern, action, source: 'user' });

describe('auto mode with a sandbox', () => {
  it.each([
    'python3 repro.py',
    "node -e 'console.log(1)'",
    'npm test',
    'make',
    'npx vitest run',
    'rm -rf build',
    'git add -A && git commit -m "fix"',
    'cat /etc/hosts',
    'eval "$SCRIPT"',
    'curl https://example.com',
  ])('runs `%s` on its own: the sandbox decides at run time what it may touch', (line) => {
    const verdict = engine(true).evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('allow');
  });

  it('runs edits inside the workspace on their own', () => {
    expect(engine(true).evaluate(query(testTools.write_file, { path: 'src/b.ts' })).action).toBe('allow');
    expect(engine(true).evaluate(query(testTools.edit_file, { path: 'src/a.ts' })).action).toBe('allow');
  });

  it.each([
    ['a redirection that writes outside the workspace', command('echo x > /tmp/tether-auto-out')],
    ['a fetch', query(testTools.fetch_url, { url: 'https://example.com/' })],
    ['an MCP tool not trusted as read-only', query(mcpTool('mcp__github__create_issue'), {})],
    ['an edit of .git', query(testTools.write_file, { path: '.git/hooks/pre-commit' })],
  ])('asks for %s, which the sandbox does not hold', (_what, call) => {
    expect(engine(true).evaluate(call).action).toBe('ask');
  });

  it('still denies what a deny rule names, also hidden from the analysis, and asks what an ask rule names', () => {
    const rules = [rule('run_command(rm *)', 'deny'), rule('run_command(git push *)', 'ask')];
    expect(engine(true, rules).evaluate(command('rm -rf build')).action).toBe('deny');
    expect(engine(true, rules).evaluate(command('eval "$X"')).action).toBe('deny');
    expect(engine(true, rules).evaluate(command('git push origin main')).action).toBe('ask');
  });

  it('asks for a command that can send data out once the session holds outside content', () => {
    const verdict = engine(true).evaluate(command('curl https://example.com', { taint: 'a fetched page' }));
    expect(verdict.action).toBe('ask');
    expect(verdict.reason).toMatch(/outside content/);
  });
});

describe('auto mode and the session’s own /tmp (issue 30)', () => {
  it.each([
    'echo x > /tmp/scratch.txt',
    'mkdir -p /tmp/build && cc -o /tmp/build/hello hello.c',
    'tar czf /tmp/src.tgz src',
    'f=$(mktemp) && echo x > "$f" && cat "$f"',
    'echo x > "$TMPDIR/notes"',
  ])('runs `%s` on its own where /tmp is the session’s: nothing there leaves the fence', (line) => {
    const verdict = engine(true, [], ['/tmp']).evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('allow');
    expect(verdict.writesOutside).toBeUndefined();
  });

  it('asks for a write to a known place outside the fence, and says which, so a person’s allow can run it outside at once', () => {
    const verdict = engine(true, [], ['/tmp']).evaluate(command('echo note >> /var/tmp/notes.txt'));
    expect(verdict.action).toBe('ask');
    expect(verdict.writesOutside).toEqual(['/var/tmp/notes.txt']);
  });

  it('asks for a write to a place only known when it runs while a deny or ask rule names write paths: the fence does not know the rule', () => {
    for (const [pattern, action] of [
      ['edit_file(src/keys/**)', 'deny'],
      ['edit_file(**/.env)', 'ask'],
    ] as const) {
      for (const line of ['echo x > "$D/src/keys/k"', 'f=$(mktemp) && echo x > "$f"']) {
        const verdict = engine(true, [rule(pattern, action)], ['/tmp']).evaluate(command(line));
        expect(verdict.action, `${pattern} ${action}: ${line}`).toBe('ask');
      }
    }
    // A rule on a command, not a path, leaves the sandbox to decide as before.
    expect(engine(true, [rule('run_command(rm *)', 'deny')], ['/tmp']).evaluate(command('echo x > "$D/notes"')).action).toBe('allow');
  });

  it('where /tmp is the real one (no sandbox, or macOS), a write to /tmp asks as before', () => {
    expect(engine(false, [], ['/tmp']).evaluate(command('echo x > /tmp/scratch.txt')).action).toBe('ask');
    expect(engine(true, [], []).evaluate(command('echo x > /tmp/scratch.txt')).action).toBe('ask');
  });
});

describe('auto mode without a sandbox works as ask, and says why', () => {
  it.each(['python3 repro.py', 'npm test', 'rm -rf build', 'eval "$SCRIPT"'])('asks for `%s`', (line) => {
    const verdict = engine(false).evaluate(command(line));
    expect(verdict.action).toBe('ask');
  });

  it('names the missing sandbox in the reason', () => {
    expect(engine(false).evaluate(command('npm test')).reason).toMatch(/no sandbox holds this session’s commands/);
  });

  it('still runs reads and edits inside the workspace on their own', () => {
    expect(engine(false).evaluate(command('cat src/a.ts')).action).toBe('allow');
    expect(engine(false).evaluate(query(testTools.write_file, { path: 'src/b.ts' })).action).toBe('allow');
  });
});
