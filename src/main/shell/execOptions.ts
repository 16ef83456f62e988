import path from 'node:path';
import type { SimpleCommand } from './commandAnalysis';
import { couldBeLongOption } from './scanOptions';
import type { ExecOptionEntry, ProgramSyntax } from './execOptionEntry';
import { EXEC_OPTIONS, SYNTAX } from './execOptionTable';
import { runnerProgramAt } from './wrapperSpecs';

/**
 * Finds the exec-options of a command line in the table (execOptionTable.ts): read as each program
 * reads its options (abbreviations, globals before the subcommand, `--`), through the runners that
 * run a program by name (`npx vitest`, `uv run pytest`), counting a word only known when it runs as
 * one that could be an exec-option.
 */

const BY_PROGRAM = new Map<string, ExecOptionEntry[]>();
for (const entry of EXEC_OPTIONS) BY_PROGRAM.set(entry.program, [...(BY_PROGRAM.get(entry.program) ?? []), entry]);

export interface ExecOptionFound {
  /** The argument as written. */
  argument: string;
  /** What it makes the program do; an argument only known when it runs could do anything. */
  effect: ExecOptionEntry['effect'];
  /** For the person and the model: `git fetch --upload-pack runs a program`. */
  why: string;
}

/** What the analysis knows of the words besides their text. */
export interface ArgumentFacts {
  /** argv indices of words only known when the command runs (an expansion, a glob, a word find fills in). */
  unknown?: readonly number[];
  /** xargs appends arguments read from its input. */
  appended?: boolean;
}

/**
 * The first exec-option on the line, or why a word only known when it runs could be one. `argv[0]` is
 * the program as it runs (a path counts by its base name).
 */
export function findExecOption(argv: readonly string[], facts: ArgumentFacts = {}): ExecOptionFound | undefined {
  // A runner's own options count as well as those of the program it runs: npm reads
  // `npm exec eslint --script-shell=…` as its own option, wherever it stands before `--`.
  const own = ownExecOption(argv, facts);
  if (own) return own;
  const ran = runThrough(argv);
  if (ran === 0) return undefined;
  const shifted = (facts.unknown ?? []).filter((index) => index >= ran).map((index) => index - ran);
  return findExecOption(argv.slice(ran), { ...facts, unknown: shifted });
}

/** The first exec-option of argv's own program, whose entries the table holds. */
function ownExecOption(argv: readonly string[], facts: ArgumentFacts): ExecOptionFound | undefined {
  const program = argv[0] === undefined ? undefined : path.posix.basename(argv[0]);
  const entries = program === undefined ? undefined : BY_PROGRAM.get(program);
  if (program === undefined || !entries) return undefined;
  const syntax = SYNTAX[program] ?? { abbreviates: false };
  if (syntax.oldStyleFirst && argv[1] !== undefined && !argv[1].startsWith('-') && !(facts.unknown ?? []).includes(1)) {
    return ownExecOption([argv[0]!, `-${argv[1]}`, ...argv.slice(2)], facts);
  }
  const unknown = new Set(facts.unknown ?? []);
  const operands: string[] = [];
  let firstOperand = -1;
  let optionsEnded = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' && !optionsEnded) {
      if (!syntax.readsPastDashDash) break;
      optionsEnded = true;
      continue;
    }
    const isOption = arg.startsWith('-') && arg !== '-' && !unknown.has(i) && !(optionsEnded && program === 'make');
    if (isOption) {
      if (firstOperand < 0 && syntax.globalsWithValue?.includes(arg)) i++;
      continue;
    }
    if (firstOperand < 0) firstOperand = i;
    operands.push(arg);
    // Which entries apply: program-wide ones, globals before the subcommand, and those of a subcommand already seen.
    const applying = entries.filter((entry) => applies(entry, operands.slice(0, -1), firstOperand < 0 || i <= firstOperand));
    if (unknown.has(i) && applying.length > 0) {
      return {
        argument: arg,
        effect: 'runs a program',
        why: `${program}'s argument ${arg} is only known when it runs and could be an option that makes it run another program or write files`,
      };
    }
    for (const entry of applying) {
      // A word that runs what follows counts as the subcommand itself (go generate) or right after it (git bisect run).
      if (entry.runsWords?.includes(arg) && (entry.subcommands !== undefined || operands.length === 1)) {
        return { argument: arg, effect: entry.effect, why: `${[program, ...operands].join(' ')} ${entry.effect}` };
      }
      if (entry.valueOperands !== undefined && entry.subcommands && operands.length - 1 >= entry.valueOperands) {
        return {
          argument: arg,
          effect: entry.effect,
          why: `${[program, ...operands].join(' ')} sets a value that can name a program to run`,
        };
      }
      if (entry.assignments && /^[A-Za-z_.][A-Za-z0-9_.]*\s*[+:?!]*=/.test(arg)) {
        return { argument: arg, effect: 'runs code', why: `${program}'s ${arg} sets a variable that can change what its recipes run` };
      }
    }
  }
  if (facts.appended && entries.some((entry) => !entry.global)) {
    return {
      argument: '(the words xargs appends)',
      effect: 'runs a program',
      why: `xargs appends words to ${program} that could be an option that makes it run another program or write files`,
    };
  }
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' && !syntax.readsPastDashDash) break;
    if (!arg.startsWith('-') || arg === '-' || arg === '--' || unknown.has(i)) continue;
    const beforeSubcommand = firstOperand < 0 || i < firstOperand;
    const seen = argv.slice(1, i).filter((word, k) => !word.startsWith('-') && !unknown.has(k + 1));
    for (const entry of entries) {
      if (!applies(entry, seen, beforeSubcommand) || !usesEntryOption(arg, entry, syntax)) continue;
      // `-O -`, `-o-`, `--output=-`: standard output, no file.
      if (entry.effect === 'writes files' && (/^-[A-Za-z]+-$|=-$/.test(arg) || (argv[i + 1] === '-' && !arg.includes('=')))) continue;
      const where = entry.subcommands ? `${program} ${seen.find((word) => entry.subcommands!.includes(word)) ?? ''}`.trim() : program;
      return { argument: arg, effect: entry.effect, why: `${where} ${arg.split('=', 1)[0]} ${describe(entry.effect)}` };
    }
  }
  return undefined;
}

/** The exec-option of one simple command the analysis found, with what it knows of its words. */
export function execOptionIn(command: Pick<SimpleCommand, 'argv' | 'unknownArgs' | 'argumentsAppended'>): ExecOptionFound | undefined {
  return findExecOption(command.argv, {
    ...(command.unknownArgs ? { unknown: command.unknownArgs } : {}),
    ...(command.argumentsAppended ? { appended: true } : {}),
  });
}

/**
 * How many words of argv go to a runner before the program it runs, when that program has entries
 * in the table (`python -m pytest`, `uv run pytest`, `npx vitest`, `yarn jest`): 0 when none.
 */
function runThrough(argv: readonly string[]): number {
  const program = argv[0] === undefined ? '' : path.posix.basename(argv[0]);
  if (/^python[0-9.]*$/.test(program)) {
    const module = argv.indexOf('-m');
    return module > 0 && BY_PROGRAM.has(argv[module + 1] ?? '') ? module + 1 : 0;
  }
  const at = runnerProgramAt(argv, (word) => BY_PROGRAM.has(word));
  return at !== undefined && BY_PROGRAM.has(path.posix.basename(argv[at]!)) ? at : 0;
}

function applies(entry: ExecOptionEntry, operandsBefore: readonly string[], beforeSubcommand: boolean): boolean {
  if (entry.global) return beforeSubcommand;
  if (!entry.subcommands) return true;
  return operandsBefore.some((word) => entry.subcommands!.includes(word));
}

function usesEntryOption(arg: string, entry: ExecOptionEntry, syntax: ProgramSyntax): boolean {
  if (arg.startsWith('--')) {
    const written = arg.slice(2).split('=', 1)[0]!;
    if (entry.word?.includes(written)) return true;
    return (entry.long ?? []).some((name) => (syntax.abbreviates ? couldBeLongOption(arg, name) : written === name));
  }
  const body = arg.slice(1);
  if (entry.word) {
    const name = body.split('=', 1)[0]!;
    if (entry.word.includes(name)) return true;
  }
  // Short letters: any of them in a cluster counts (a value glued to an earlier letter can look like one: a needless question, never a miss).
  if (!entry.short || /^\d/.test(body)) return false;
  return [...body].some((letter) => entry.short!.includes(letter));
}

function describe(effect: ExecOptionEntry['effect']): string {
  switch (effect) {
    case 'runs a program':
      return 'makes it run a program named on the line';
    case 'runs code':
      return 'makes it run code named on the line';
    case 'writes files':
      return 'makes it write files named on the line';
    case 'reads code or configuration from elsewhere':
      return 'makes it load code or configuration from elsewhere';
  }
}
