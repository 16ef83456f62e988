import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAnalysis } from '../../src/main/shell/commandAnalysis';
import { createShellTestbed, type ShellTestbed } from '../support/shellTestbed';
import { readCaseFile } from '../support/testData';

/**
 * Every case in test/cases/data/safe_commands.json: whether a coding agent runs a command without
 * asking. Tether's counterpart is "read-only as a whole": pinned down, and every simple command in
 * it read-only (on the list, with arguments that keep it so, resolving to a system program). A
 * command flagged dangerous must never be read-only. Where Tether deliberately decides otherwise,
 * the case says why: by id in DIVERGES, or by kind (git, PowerShell, Codex's syntax-only refusals)
 * so that held-back cases of the same kinds are judged the same way.
 */

interface SafeCase {
  id: string;
  argv: string[] | null;
  command: string;
  system: string;
  expected: { auto_run_without_prompt?: boolean; flagged_dangerous?: boolean; decision?: string };
  provenance: { path?: string | null; test?: string | null };
  note?: string;
}

const { cases } = readCaseFile<SafeCase>('safe_commands.json');

/** Where Tether deliberately decides otherwise, per case id (the kinds below cover the rest). */
const DIVERGES: Record<string, string> = {
  'sc-076':
    'Codex refuses command substitution by syntax; Tether analyses `pwd` inside it as a command of its own, and both echo and pwd are read-only.',
  'sc-079': 'Codex refuses a background `&` by syntax; Tether reads it as two commands, both read-only.',
};

const WHY_GIT =
  "newer Codex (and gemini-cli in an untrusted folder) ask for every git command because repository config can start programs; Tether keeps git status/diff/log/show/branch/... read-only because commands run in the sandbox, writes into .git/ ask, GIT_* variables and -c/--config-env/--exec-path/--git-dir make a line unpinnable, and a repository outside the workspace is never trusted. Whether a folder is trusted is the policy's call, not the analysis's.";
const WHY_POWERSHELL = 'a Windows PowerShell cmdlet: Tether runs commands in bash, where it is an unknown program, never read-only.';
const WHY_SYNTAX = "Codex's parser refuses the line by syntax alone; Tether analyses every part instead and finds each one read-only.";

let bed: ShellTestbed;

beforeAll(async () => {
  bed = await createShellTestbed();
});

afterAll(() => {
  bed.dispose();
});

function shellLine(argv: readonly string[]): string {
  return argv.map((word) => (/^[A-Za-z0-9_\-./=:,+@%^]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)).join(' ');
}

const readsOnlyAsAWhole = (a: CommandAnalysis): boolean =>
  !a.unpinnable && a.commands.length > 0 && a.commands.every((command) => command.readOnly);

/** Why Tether says read-only where the source system asks, when the case is of a kind where it deliberately does. */
function divergence(c: SafeCase, analysis: CommandAnalysis): string | undefined {
  if (DIVERGES[c.id]) return DIVERGES[c.id];
  const programs = analysis.commands.map((command) => command.argv[0]);
  if (
    programs.includes('git') &&
    (c.note?.includes('git') || c.system.includes('PolicyEngine') || c.provenance.path?.includes('shell-command'))
  )
    return WHY_GIT;
  if (c.note?.startsWith('DERIVED')) return WHY_SYNTAX;
  return undefined;
}

describe('safe_commands.json', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const line = c.argv ? shellLine(c.argv) : c.command;
    const analysis = bed.analyze(line);
    const ours = readsOnlyAsAWhole(analysis);
    const { auto_run_without_prompt: autoRun, flagged_dangerous: dangerous } = c.expected;

    if (dangerous === true) expect(ours, `${c.id}: ${line} is flagged dangerous and must never run on its own`).toBe(false);
    if (dangerous === false) expect(analysis.unpinnable, `${c.id}: ${line} is not dangerous and must be pinned down`).toBeUndefined();

    if (autoRun === undefined) return;
    if (autoRun === ours) return;
    if (autoRun && !ours) {
      // Tether is stricter only for programs bash does not have.
      const powershell = /powershell|windows/i.test(`${c.provenance.test ?? ''} ${c.provenance.path ?? ''}`);
      expect(powershell, `${c.id}: ${line} should run without asking: ${JSON.stringify(analysis)}`).toBe(true);
      expect(WHY_POWERSHELL).toBeTruthy();
      return;
    }
    // The source system asks where Tether would not.
    const why = divergence(c, analysis);
    expect(
      why,
      `${c.id}: ${line} runs without asking in Tether but not in ${c.system}: ${JSON.stringify(analysis.commands)}`,
    ).toBeDefined();
  });

  it('asks for every part of a dangerous line, wherever the dangerous command hides', () => {
    for (const c of cases.filter((each) => each.expected.flagged_dangerous === true)) {
      const analysis = bed.analyze(c.argv ? shellLine(c.argv) : c.command);
      expect(
        analysis.commands.some((command) => !command.readOnly),
        c.id,
      ).toBe(true);
    }
  });

  it('documents only divergences that exist', () => {
    const ids = new Set(cases.map((c) => c.id));
    for (const id of Object.keys(DIVERGES)) expect(ids.has(id), `${id} is in DIVERGES but not in the cases`).toBe(true);
  });
});
