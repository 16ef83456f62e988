import type { Dialect, Frame, Invocation } from './invocation';
import type { Word } from './readWord';

/** What unwrapping one program found, for the walk to act on in order (unwrapCommand.ts). */
export type UnwrapFinding =
  /** Why the line cannot be pinned down. */
  | { kind: 'reason'; text: string }
  /** Something the person should know. */
  | { kind: 'note'; text: string }
  /** A script the program runs (bash -c, eval, trap, watch, su -c), to walk as a line of its own. */
  | { kind: 'script'; source: string; frame: Frame }
  /** A command the program starts (find -exec), to analyse as an invocation of its own. */
  | { kind: 'command'; words: Word[]; invocation: Invocation }
  /** A word a builtin takes as a variable name (read NAME, printf -v NAME, ...), to check and assign. */
  | { kind: 'variable-name'; word: Word; builtin: string }
  /** An arithmetic expression given as text (let's arguments), to evaluate as bash would. */
  | { kind: 'arithmetic'; text: string }
  /** A variable the program makes an array (read -a, mapfile). */
  | { kind: 'array'; name: string }
  /** A file the wrapper itself reads (xargs -a), from where the command runs unless it runs elsewhere. */
  | { kind: 'read'; word: Word; elsewhere: boolean };

/** Collects the findings of one unwrap, in order. */
export class Findings {
  readonly list: UnwrapFinding[] = [];
  reason(text: string): void {
    this.list.push({ kind: 'reason', text });
  }
  note(text: string): void {
    this.list.push({ kind: 'note', text });
  }
  script(source: string, frame: Frame): void {
    this.list.push({ kind: 'script', source, frame });
  }
  command(words: Word[], invocation: Invocation): void {
    this.list.push({ kind: 'command', words, invocation });
  }
  variableName(word: Word, builtin: string): void {
    this.list.push({ kind: 'variable-name', word, builtin });
  }
  arithmetic(text: string): void {
    this.list.push({ kind: 'arithmetic', text });
  }
  array(name: string): void {
    this.list.push({ kind: 'array', name });
  }
}

/** The frame a script a program runs is walked in: inside its wrappers, in its dialect, one level deeper. */
export function innerFrame(invocation: Invocation, dialect: Dialect): Frame {
  return {
    wrappers: [...invocation.wrappers],
    writes: invocation.writes,
    stdin: invocation.stdin,
    blockReadOnly: invocation.blockReadOnly,
    dialect,
    depth: invocation.frame.depth + 1,
    cwdUnknown: invocation.changesDirectory,
  };
}
