import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule } from '../../shared/permissions';
import { createPermissionEngine } from './engine';
import { initShellParser } from '../shell/analyzeCommand';
import { command } from '../../../test/support/permissionQueries';

// Where a command's redirection writes and what it reads is judged where the kernel opens it: through
// each symbolic link, a dangling one included (a file created through it lands where it points), with
// a `..` after a link climbing from the link's target, and a loop leading nowhere inside. Through the
// real shell analysis, with a real workspace and real links.

let base = '';
let root = '';
beforeAll(async () => {
  await initShellParser();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-engine-links-')));
  root = path.join(base, 'project');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(base, 'outside'));
  fs.writeFileSync(path.join(base, 'outside', 'x'), 'secret\n');
  // Dangling, to a place outside: absolute and relative.
  fs.symlinkSync(path.join(base, 'outside', 'not-yet'), path.join(root, 'dangling-out'));
  fs.symlinkSync('../../outside/also-not-yet', path.join(root, 'src', 'dangling-rel'));
  // A chain that ends dangling outside.
  fs.symlinkSync(path.join(root, 'dangling-out'), path.join(root, 'chain'));
  // To a folder outside: `outdir/../x` is beside the folder, outside.
  fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'outdir'));
  // A loop, and a dangling link that stays inside.
  fs.symlinkSync(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
  fs.symlinkSync(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
  fs.symlinkSync(path.join(root, 'src', 'new.txt'), path.join(root, 'dangling-in'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

// The program is allowed by a rule, so what decides is where its redirection writes.
const ECHO: PermissionRule[] = [{ pattern: 'run_command(echo *)', action: 'allow', source: 'user' }];

function decide(mode: PermissionMode, line: string, rules: PermissionRule[] = []) {
  const engine = createPermissionEngine({
    workspaceRoot: root,
    home: path.join(base, 'home'),
    mode,
    outsideContent: 'ask',
    projectTrusted: false,
    rules,
  });
  return engine.evaluate(command(line));
}

describe('a redirection through a symbolic link', () => {
  // With echo allowed, auto-edit lets a redirection inside the workspace run on its own, and asks for one outside it.
  it.each([
    ['echo x > dangling-out', 'an absolute link to a missing file outside'],
    ['echo x > src/dangling-rel', 'a relative link to a missing file outside'],
    ['echo x >> chain', 'a link to a link that dangles outside'],
    ['echo x > outdir/../x', 'a `..` after a link to a folder outside'],
    ['echo x > outdir/new', 'a file in a linked folder outside'],
    ['echo x > loop-a', 'a link loop'],
  ])('%s asks in auto-edit mode: %s is not an edit inside the workspace', (line) => {
    const verdict = decide('auto-edit', line, ECHO);
    expect(verdict.action).toBe('ask');
    expect(verdict.reason).toMatch(/the redirection that writes/i);
  });

  it.each(['echo x > src/plain.txt', 'echo x > dangling-in', 'echo x > src/../src/plain.txt'])(
    '%s runs in auto-edit mode: it writes inside',
    (line) => {
      expect(decide('auto-edit', line, ECHO).action).toBe('allow');
    },
  );

  it('offers no prefix for a redirection that leads out', () => {
    const verdict = decide('auto-edit', 'echo x > dangling-out');
    expect(verdict.allowAlways).not.toEqual({ rule: 'run_command(echo *)' });
  });
});

describe('a read through a symbolic link', () => {
  it.each(['cat outdir/../x', 'cat outdir/x', 'cat loop-a', 'cat src/dangling-rel'])(
    '%s asks: it reads outside the workspace (or nowhere inside)',
    (line) => {
      const verdict = decide('ask', line);
      expect(verdict.action).toBe('ask');
      expect(verdict.readsOutside).toBeDefined();
    },
  );

  it('cat src/../src/a runs: a `..` that stays inside', () => {
    expect(decide('ask', 'cat src/../src/a').action).toBe('allow');
  });
});
