import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAnalysis } from '../../src/main/shell/commandAnalysis';
import { parseShell } from '../../src/main/shell/parser';
import { createShellTestbed, type ShellTestbed } from '../support/shellTestbed';
import { readCaseFile } from '../support/testData';

/**
 * Every case in test/cases/data/shell_split.json, run through the real analysis. The cases come
 * from other systems' functions (gemini-cli's getCommandRoots / splitCommands / hasRedirection /
 * stripShellWrapper, Codex's bash.rs parsers, opencode's wrapper extraction). Each kind of case is
 * translated once, by what the function means, so held-back cases of the same kinds are judged the
 * same way; where Tether's analysis deliberately decides otherwise, DIVERGES says so and why.
 */

interface ShellCase {
  id: string;
  function: string;
  input: string | string[];
  expected: unknown;
  note?: string;
}

const { cases } = readCaseFile<ShellCase>('shell_split.json');

/** Where the analysis deliberately differs from the source system, per case id. */
const DIVERGES: Record<string, string> = {
  'ss-025':
    'gemini counts any redirection; Tether records only writes to files. `exec 3<&0` duplicates a descriptor and writes nothing (exec itself is never read-only, so it asks anyway).',
  'ss-028': 'gemini counts any redirection; a here-string only feeds stdin and writes nothing, so cat stays read-only.',
  'ss-034':
    "bash gives the word after the script of `zsh -c ls -l` to the script as $0, so what runs is `ls` without -l; gemini's text stripping keeps it.",
  'ss-058':
    'Codex refuses any expansion; Tether analyses it: "$HOME" is one argument only known at run time, and echo is read-only whatever its arguments.',
  'ss-061': 'Codex refuses any redirection; Tether pins `ls > out.txt` down and records the write, which keeps it from being read-only.',
  'ss-064': 'Codex refuses command substitution; Tether analyses `pwd` inside it as a command of its own (read-only too).',
  'ss-079':
    'Codex only takes heredoc-fed commands as prefixes here; Tether reads $((1<<2)) as arithmetic on literals, which cannot hide a command.',
  'ss-103':
    'opencode stops at `sh -c`; Tether also runs the script of sh -c as a line of its own (so the command is echo), and refuses the line: env sets PATH.',
  'ss-106':
    "opencode lists only the -exec commands; Tether also lists find itself (not read-only once it has -exec), and keeps the {} placeholder in each command's argv.",
};

let bed: ShellTestbed;

beforeAll(async () => {
  bed = await createShellTestbed();
});

afterAll(() => {
  bed.dispose();
});

/** A shell line that runs exactly this argv. */
function shellLine(argv: readonly string[]): string {
  return argv.map((word) => (/^[A-Za-z0-9_\-./=:,+@%^]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)).join(' ');
}

const lineOf = (c: ShellCase): string => (Array.isArray(c.input) ? shellLine(c.input) : c.input);
const readsOnlyAsAWhole = (a: CommandAnalysis): boolean =>
  !a.unpinnable && a.commands.length > 0 && a.commands.every((command) => command.readOnly);

/** Any redirection at all, as gemini's hasRedirection sees it (read from the same parser). */
function hasAnyRedirection(line: string): boolean {
  const tree = parseShell(line);
  try {
    const stack = [tree.rootNode];
    while (stack.length) {
      const node = stack.pop()!;
      if (node.type.endsWith('_redirect')) return true;
      for (const child of node.namedChildren) if (child) stack.push(child);
    }
    return false;
  } finally {
    tree.delete();
  }
}

/** The argv of the first command a text is analysed into (expected texts are commands written in the same shell). */
const argvOf = (text: string): string[] => bed.analyze(text).commands[0]?.argv ?? [];

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash']);

/** Checks one case by what the source function means; returns nothing, fails with a message. */
function check(c: ShellCase): void {
  const line = lineOf(c);
  const analysis = bed.analyze(line);
  const kind = c.function;
  const expected = c.expected;
  const failClosed = (): void =>
    expect(analysis.unpinnable, `${c.id}: ${JSON.stringify(line)} must be refused (fail closed)`).toBeDefined();

  if (kind === 'gemini-cli:getCommandRoots') {
    const roots = expected as string[];
    if (roots.length === 0) return failClosed();
    expect(analysis.unpinnable).toBeUndefined();
    // gemini does not strip wrappers: a root may be the outermost wrapper or the program.
    expect(analysis.commands.map((command, i) => (command.wrappers[0] === roots[i] ? roots[i] : command.argv[0]))).toEqual(roots);
    return;
  }
  if (kind === 'gemini-cli:splitCommands') {
    const texts = expected as string[];
    if (texts.length === 0) return failClosed();
    expect(analysis.commands.map((command) => command.argv)).toEqual(texts.map(argvOf));
    return;
  }
  if (kind === 'gemini-cli:hasRedirection') {
    const writes = analysis.commands.some((command) => command.writesTo.length > 0);
    expect(hasAnyRedirection(line), `${c.id}: the parser sees a redirection exactly when gemini does`).toBe(expected);
    // Tether's counterpart is narrower: a redirection that writes a file.
    if (writes) expect(expected).toBe(true);
    if (!expected) expect(writes).toBe(false);
    if (expected && !writes)
      expect(DIVERGES[c.id], `${c.id}: a redirection that writes nothing must be a documented divergence`).toBeDefined();
    return;
  }
  if (kind === 'gemini-cli:stripShellWrapper') {
    const stripped = String(expected).split(' ');
    const command = analysis.commands[0]!;
    expect(command.argv[0]).toBe(stripped[0]);
    expect(command.wrappers.some((wrapper) => SHELLS.has(wrapper))).toBe(true);
    return;
  }
  if (kind.startsWith('gemini-cli:parseCommandDetails')) {
    const texts = expected as string[];
    if (texts.length === 0) return failClosed();
    expect(analysis.commands.map((command) => command.argv)).toEqual(texts.map(argvOf));
    return;
  }
  if (kind === 'codex:parse_plain_shell_script') {
    if (expected !== null) {
      expect(analysis.unpinnable).toBeUndefined();
      expect(analysis.commands.map((command) => command.argv)).toEqual(expected);
      return;
    }
    // Codex refuses everything but plain words and && || ; |. Tether refuses what bash itself cannot
    // parse, and otherwise analyses the construct: a write keeps the line from being read-only.
    const tree = parseShell(line);
    const syntaxError = tree.rootNode.hasError;
    tree.delete();
    if (syntaxError) return failClosed();
    if (analysis.commands.some((command) => command.writesTo.length > 0)) expect(readsOnlyAsAWhole(analysis)).toBe(false);
    else expect(DIVERGES[c.id], `${c.id}: ${JSON.stringify(line)} is analysed where Codex refuses; document why`).toBeDefined();
    return;
  }
  if (kind.startsWith('codex:parse_shell_lc_single_command_prefix')) {
    const prefix = expected as string[] | null;
    if (prefix) {
      expect(analysis.unpinnable).toBeUndefined();
      expect(analysis.commands).toHaveLength(1);
      expect(analysis.commands[0]!.argv.slice(0, prefix.length)).toEqual(prefix);
      expect(analysis.notes?.some((note) => note.includes('here-document'))).toBe(true);
      return;
    }
    // Not a single command fed by a literal here-document and nothing else.
    const single =
      !analysis.unpinnable &&
      analysis.commands.length === 1 &&
      analysis.commands[0]!.writesTo.length === 0 &&
      (analysis.notes ?? []).some((note) => note.includes('here-document'));
    expect(single).toBe(false);
    if (readsOnlyAsAWhole(analysis)) expect(DIVERGES[c.id]).toBeDefined();
    return;
  }
  if (kind.startsWith('codex:parse_shell_lc_literal_commands')) {
    const { must_extract_program: program } = expected as { must_extract_program: string };
    const found = analysis.commands.find((command) => command.argv[0] === program);
    expect(found, `${c.id}: ${program} must be found in ${JSON.stringify(line)}`).toBeDefined();
    expect(found!.readOnly).toBe(false);
    expect(readsOnlyAsAWhole(analysis)).toBe(false);
    return;
  }
  if (kind === 'opencode:BashWrapper.extract') {
    const wanted = expected as string[][];
    for (const argv of wanted) {
      const [program, flag, script] = argv;
      // opencode stops at `sh -c`: Tether analyses the script, so the shell is a wrapper of its commands.
      const target = program && SHELLS.has(program) && flag === '-c' && script !== undefined ? script.split(' ') : argv;
      const match = analysis.commands.find((command) => target.every((word, i) => command.argv[i] === word));
      expect(match, `${c.id}: ${JSON.stringify(argv)} must be among the commands of ${JSON.stringify(line)}`).toBeDefined();
      if (target !== argv) expect(match!.wrappers).toContain(program);
    }
    return;
  }
  if (kind.startsWith('opencode:BashArity.prefix')) {
    // The "Allow always" prefix is the policy's to build; it builds it from this argv.
    const prefix = expected as string[];
    expect(analysis.commands).toHaveLength(1);
    expect(analysis.commands[0]!.argv.slice(0, prefix.length)).toEqual(prefix);
    return;
  }
  if (kind.startsWith('opencode:BashTool permission request')) {
    // opencode asks for the directory outside the project; Tether never runs it on its own.
    expect((expected as { extra_request: string }).extra_request).toBe('external_directory');
    expect(readsOnlyAsAWhole(analysis)).toBe(false);
    return;
  }
  throw new Error(`${c.id}: no translation for cases of ${kind}; add one to test/cases/shellCases.test.ts`);
}

describe('shell_split.json', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    check(c);
  });

  it('documents only divergences that exist', () => {
    const ids = new Set(cases.map((c) => c.id));
    for (const id of Object.keys(DIVERGES)) expect(ids.has(id), `${id} is in DIVERGES but not in the cases`).toBe(true);
  });
});
