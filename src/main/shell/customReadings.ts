import type { InvocationContext } from './classifyInvocation';
import { classifyGit, type GitClassification } from './classifyGit';
import { LOCAL, READS, UNKNOWN } from './invocationClass';
import type { ArgumentRead, Reading } from './readOnlyPrograms';
import type { Word } from './readWord';

/**
 * The read-only programs whose words a table row cannot describe: git (its subcommands), cd (where the
 * shell goes), env, command and printf (builtins and wrappers the analysis has already taken apart).
 * Each is an entry of the one table in readOnlyPrograms.ts.
 */

/** The arguments as plain strings, or null when one of them is only known when it runs. */
function literal(args: readonly Word[]): string[] | null {
  const values: string[] = [];
  for (const arg of args) {
    if (arg.kind !== 'literal') return null;
    values.push(arg.text);
  }
  return values;
}

/**
 * git, judged by classifyGit. What it reads: every operand and separate value (a pathspec, a
 * revision, `--contents FILE`) and every value attached to an option (`--contents=FILE`,
 * `-S/revs-file`, `-O/orderfile`), whatever the option is called: git has hundreds, and a value that
 * is no path (`--format=%H`, `-n5`) lands inside the workspace, where reading is the command's business.
 */
export function gitReading(args: readonly Word[], context: InvocationContext): Reading {
  const values = literal(args);
  const classification: GitClassification = values ? classifyGit(values, context) : UNKNOWN;
  const reads: ArgumentRead[] = [];
  let options = true;
  for (const word of args) {
    if (options && word.text === '--' && word.kind === 'literal') {
      options = false;
      continue;
    }
    if (!options || !word.text.startsWith('-') || word.text === '-') {
      reads.push({ word });
      continue;
    }
    const value = attachedValue(word.text);
    if (value === undefined || value === '') continue;
    reads.push({ word: word.kind === 'dynamic' ? word : { ...word, text: value, source: value } });
  }
  const { why } = classification;
  return { class: { readOnly: classification.readOnly, local: classification.local }, reads, ...(why ? { why } : {}) };
}

/** `--name=value` and `-Xvalue`: the value, if one is attached. */
function attachedValue(text: string): string | undefined {
  if (text.startsWith('--')) {
    const equals = text.indexOf('=');
    return equals > 0 ? text.slice(equals + 1) : undefined;
  }
  return text.length > 2 ? text.slice(2) : undefined;
}

/** cd's folder is judged by where it leads; what it reads is the analysis's directory read (readTargets). */
export function cdReading(args: readonly Word[], context: InvocationContext): Reading {
  const values = literal(args);
  if (!values) return { class: LOCAL, reads: [] };
  const operands = values.filter((value) => !/^-[LPe@]+$/.test(value));
  // No operand is $HOME; `cd -` is wherever the shell was before: both outside what we know.
  if (operands.length !== 1 || operands[0] === '-') return { class: LOCAL, reads: [] };
  return { class: context.directoryInWorkspace(operands[0]!) ? READS : LOCAL, reads: [] };
}

/** Only reached when env runs no command: it prints the environment. */
export function envReading(args: readonly Word[]): Reading {
  return { class: literal(args) ? READS : LOCAL, reads: [] };
}

/** `command -v name` and `command -V name` only describe; a wrapped command is analysed on its own. */
export function commandReading(args: readonly Word[]): Reading {
  const first = args[0];
  return { class: first?.kind === 'literal' && /^-p?[vV]/.test(first.text) ? READS : LOCAL, reads: [] };
}

/** printf -v NAME assigns a shell variable instead of printing; every other word is text. */
export function printfReading(args: readonly Word[]): Reading {
  const first = args[0];
  if (!first) return { class: READS, reads: [] };
  if (first.kind !== 'literal') return { class: LOCAL, reads: [] };
  return { class: first.text.startsWith('-v') ? LOCAL : READS, reads: [] };
}
