import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule, RuleAction, RuleSource } from '../../shared/permissions';
import { validateAllowAlwaysRule } from './allowAlways';
import { createPermissionEngine } from './engine';
import { command } from '../../../test/support/permissionQueries';
import { createShellTestbed, type ShellTestbed } from '../../../test/support/shellTestbed';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-props-')));
// The real shell analysis, with programs found in a stand-in system folder (never this machine's PATH).
let testbed: ShellTestbed;
beforeAll(async () => {
  testbed = await createShellTestbed();
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  testbed.dispose();
});

function engine(rules: PermissionRule[], mode: PermissionMode = 'ask', projectTrusted = false) {
  return createPermissionEngine({ workspaceRoot: root, mode, outsideContent: 'ask', rules, projectTrusted, pathEnv: testbed.pathEnv });
}

const word = fc.constantFrom('git', 'npm', 'test', 'log', 'push', 'rm', '-rf', 'build', 'x', '--force', 'make', 'ls');
const argv = fc.array(word, { minLength: 1, maxLength: 4 });
const parts = fc.array(argv, { minLength: 1, maxLength: 5 });
const operator = fc.constantFrom(' && ', ' || ', ' ; ', ' | ');
const source = fc.constantFrom<RuleSource>('default', 'user', 'project', 'session', 'cli');
const mode = fc.constantFrom<PermissionMode>('ask', 'auto-edit', 'read-only', 'unleashed');

/** A run_command rule that matches this argv: exact, a prefix of it with *, a * in the middle, or bare. */
function ruleMatching(words: string[], shape: number, cut: number): string {
  switch (shape % 4) {
    case 0:
      return `run_command(${words.join(' ')})`;
    case 1:
      return `run_command(${words.slice(0, 1 + (cut % words.length)).join(' ')} *)`;
    case 2:
      return words.length > 1 ? `run_command(${words[0]} * ${words[words.length - 1]})` : `run_command(${words[0]} *)`;
    default:
      return 'run_command';
  }
}

const randomRule = fc.record({
  words: argv,
  shape: fc.nat(),
  cut: fc.nat(),
  action: fc.constantFrom<RuleAction>('allow', 'ask'),
  source,
});

function join(commands: string[][], ops: string[]): string {
  return commands.map((c, i) => (i === 0 ? '' : (ops[i % ops.length] as string)) + c.join(' ')).join('');
}

describe('engine properties', () => {
  it('a deny rule matching any part wins over any mix of allow and ask rules, sources and order', () => {
    fc.assert(
      fc.property(
        parts,
        fc.nat(),
        fc.array(operator, { minLength: 1 }),
        fc.array(randomRule, { maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        source,
        mode,
        fc.nat(),
        (cmds, pick, ops, others, shape, cut, denySource, m, at) => {
          const target = cmds[pick % cmds.length] as string[];
          const deny: PermissionRule = { pattern: ruleMatching(target, shape, cut), action: 'deny', source: denySource };
          const rules: PermissionRule[] = others.map((r) => ({
            pattern: ruleMatching(r.words, r.shape, r.cut),
            action: r.action,
            source: r.source,
          }));
          rules.splice(at % (rules.length + 1), 0, deny);
          const verdict = engine(rules, m, true).evaluate(command(join(cmds, ops)));
          expect(verdict.action).toBe('deny');
        },
      ),
      { numRuns: 250 },
    );
  });

  it('a command with any part that cannot be pinned down is never allowed (outside unleashed mode)', () => {
    const unpinnable = fc.constantFrom('eval "$X"', '$CMD --flag', 'source ./env.sh', 'exec foo', '`which tool` x', 'ls &&& rm x');
    fc.assert(
      fc.property(
        parts,
        unpinnable,
        fc.nat(),
        fc.array(operator, { minLength: 1 }),
        fc.array(randomRule, { maxLength: 8 }),
        fc.constantFrom<PermissionMode>('ask', 'auto-edit', 'read-only'),
        (cmds, odd, at, ops, others, m) => {
          const rules: PermissionRule[] = [
            ...others.map((r) => ({ pattern: ruleMatching(r.words, r.shape, r.cut), action: 'allow' as const, source: r.source })),
            { pattern: 'run_command', action: 'allow', source: 'user' },
            { pattern: '*', action: 'allow', source: 'session' },
          ];
          const texts = cmds.map((c) => c.join(' '));
          texts.splice(at % (texts.length + 1), 0, odd);
          const text = texts.map((t, i) => (i === 0 ? '' : (ops[i % ops.length] as string)) + t).join('');
          const verdict = engine(rules, m, true).evaluate(command(text));
          expect(verdict.action).not.toBe('allow');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('Allow always on a compound command never creates a rule broader than the command shown', () => {
    fc.assert(
      fc.property(
        fc.array(argv, { minLength: 2, maxLength: 4 }),
        fc.array(operator, { minLength: 1 }),
        fc.array(parts, { maxLength: 6 }),
        fc.array(word, { maxLength: 3 }),
        (cmds, ops, others, extra) => {
          const shown = join(cmds, ops);
          const e = engine([]);
          const verdict = e.evaluate(command(shown));
          if (verdict.action !== 'ask') return;
          const offer = verdict.allowAlways;
          if (!offer || !('rule' in offer)) return;
          expect(offer.rule).toBe(`run_command(${shown})`);

          const withGrant = engine([{ pattern: offer.rule, action: 'allow', source: 'session' }]);
          expect(withGrant.evaluate(command(shown)).action).toBe('allow');
          for (const other of others) {
            const text = join(other, ops);
            if (text === shown) continue;
            expect(withGrant.evaluate(command(text)).action, text).toBe(e.evaluate(command(text)).action);
          }
          // Every part alone, the first parts, or the line with more words: none may be what the person saves.
          const edits = [
            ...cmds.map((c) => `run_command(${c.join(' ')})`),
            `run_command(${cmds[0]?.join(' ')} *)`,
            `run_command(${shown} ${extra.join(' ')} *)`,
            'run_command',
          ];
          for (const edited of edits) {
            if (edited === offer.rule) continue;
            expect(validateAllowAlwaysRule(edited, offer.rule).ok, edited).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('project allow rules never apply while the folder is untrusted', () => {
    fc.assert(
      fc.property(
        fc.array(randomRule, { maxLength: 8 }),
        fc.array(randomRule, { minLength: 1, maxLength: 6 }),
        parts,
        fc.array(operator, { minLength: 1 }),
        mode,
        (others, projectRules, cmds, ops, m) => {
          const base: PermissionRule[] = others.map((r) => ({
            pattern: ruleMatching(r.words, r.shape, r.cut),
            action: r.action,
            source: r.source === 'project' ? 'user' : r.source,
          }));
          const project: PermissionRule[] = projectRules.map((r) => ({
            pattern: ruleMatching(r.words, r.shape, r.cut),
            action: 'allow',
            source: 'project',
          }));
          const text = join(cmds, ops);
          const without = engine(base, m, false).evaluate(command(text));
          const withProject = engine([...base, ...project], m, false).evaluate(command(text));
          expect(withProject.action).toBe(without.action);
          expect(withProject.source).not.toBe('project');
        },
      ),
      { numRuns: 300 },
    );
  });
});
