import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule } from '../../shared/permissions';
import { createPermissionEngine } from './engine';
import { initShellParser } from '../shell/analyzeCommand';
import { command } from '../../../test/support/permissionQueries';

// A deny rule holds in every mode, also for a line whose program is known only when it runs: such a
// line is denied whenever a run_command deny rule exists, and asks otherwise, unleashed included.
// Through the real shell analysis (tree-sitter-bash).

let root = '';
beforeAll(async () => {
  await initShellParser();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-unknown-programs-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const MODES: PermissionMode[] = ['ask', 'auto-edit', 'read-only', 'unleashed'];

function engine(mode: PermissionMode, rules: PermissionRule[]) {
  return createPermissionEngine({ workspaceRoot: root, mode, outsideContent: 'ask', projectTrusted: false, rules });
}

/** Ways to hide a program's name until the line runs. */
const HIDDEN: Array<(program: string) => string> = [
  (p) => `$(echo ${p}) -rf build`,
  (p) => `X=${p}; $X build`,
  (p) => `\`echo ${p}\` build`,
  (p) => `eval "${p} build"`,
  (p) => `"\${CMD:-${p}}" build`,
  (p) => `ls && $(printf %s ${p}) build`,
  (p) => `\${!NAME} build # ${p}`,
];

describe('a line whose program is known only when it runs', () => {
  it.each(HIDDEN.map((hide) => [hide('rm')]))('%s is denied in every mode when a run_command deny rule exists', (line) => {
    for (const mode of MODES) {
      const verdict = engine(mode, [{ pattern: 'run_command(rm *)', action: 'deny', source: 'user' }]).evaluate(command(line));
      expect(verdict.action, `${mode}: ${line}`).toBe('deny');
      // Read-only mode denies every command anyway; elsewhere the rule is what denies it (read through
      // an eval string where the analysis can, or as what the hidden program could be).
      if (mode !== 'read-only') expect(verdict.reason).toMatch(/run_command\(rm \*\) denies|could be what run_command\(rm \*\) denies/);
    }
  });

  it.each(HIDDEN.map((hide) => [hide('rm')]))(
    '%s asks without a deny rule, also in unleashed mode, and offers no "Allow always"',
    (line) => {
      for (const mode of ['ask', 'auto-edit', 'unleashed'] as const) {
        const verdict = engine(mode, [{ pattern: 'run_command(ls *)', action: 'allow', source: 'user' }]).evaluate(command(line));
        expect(verdict.action, `${mode}: ${line}`).toBe('ask');
        expect(verdict.allowAlways).toMatchObject({ refused: expect.stringContaining('no rule can cover it') });
      }
    },
  );

  it('no mode turns a deny into an allow, for any hidden program and any deny rule', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MODES),
        fc.constantFrom(...HIDDEN),
        fc.constantFrom('rm', 'curl', 'git', 'npm'),
        fc.boolean(),
        (mode, hide, program, broadDeny) => {
          const deny: PermissionRule = {
            pattern: broadDeny ? `run_command(${program})` : `run_command(${program} *)`,
            action: 'deny',
            source: 'project',
          };
          const verdict = engine(mode, [deny, { pattern: 'run_command', action: 'allow', source: 'user' }]).evaluate(
            command(hide(program)),
          );
          expect(verdict.action).toBe('deny');
        },
      ),
      { numRuns: 200, seed: 20261201 },
    );
  });

  it('leaves lines it can read alone: the deny rule decides by what they run', () => {
    const e = engine('unleashed', [{ pattern: 'run_command(rm *)', action: 'deny', source: 'user' }]);
    expect(e.evaluate(command('ls -la')).action).toBe('allow');
    expect(e.evaluate(command('rm -rf build')).action).toBe('deny');
    expect(e.evaluate(command('touch notes.txt')).action).toBe('allow');
  });
});
