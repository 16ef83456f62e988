/** The context the shell analysis carries down the tree and through wrappers. */

/** What feeds a command's standard input, as far as an interpreter reading its program from it goes. */
export type Stdin = 'inherited' | 'pipe' | 'literal-document' | 'expanding-document' | 'file';

export type Dialect = 'bash' | 'sh' | 'zsh';

/** What the surroundings of a statement impose on the commands in it. */
export interface Frame {
  /** Wrappers around the whole script (bash -c, eval, watch ...), outermost first. */
  wrappers: readonly string[];
  /** Files written by redirections of enclosing compound statements (`{ ...; } > out`). */
  writes: readonly string[];
  stdin: Stdin;
  /** The text of a literal here-document or here-string that feeds standard input. */
  document?: string | undefined;
  /** The file an input redirection (`< file`) feeds to standard input, as written. */
  stdinFile?: string | undefined;
  /** Why nothing in here can be read-only (it runs as another user, ...), if something says so. */
  blockReadOnly: string | null;
  dialect: Dialect;
  depth: number;
  /** A wrapper around this script changed directory (env -C dir bash -c ...): where it runs is unknown. */
  cwdUnknown: boolean;
}

/** The part of an invocation that wrappers build up before the real program is reached. */
export interface Invocation {
  wrappers: string[];
  assignments: string[];
  /** Started by exec(3) from a wrapper: no shell builtin or function applies. */
  viaExec: boolean;
  blockReadOnly: string | null;
  /** xargs appends arguments read from its input. */
  appendsArguments: boolean;
  /** Words containing this (xargs -I, find's {}) are replaced at run time. */
  placeholder: string | null;
  /** A wrapper changed directory (env -C, sudo -D). */
  changesDirectory: boolean;
  /** The words of the command position came straight from the parser (keywords are bash's). */
  fromParser: boolean;
  writes: readonly string[];
  stdin: Stdin;
  /** The text a literal here-document or here-string feeds to standard input. */
  document?: string;
  /** The file an input redirection feeds to standard input, as written. */
  stdinFile?: string;
  frame: Frame;
}

/** The invocation of a command written in `frame`, before any wrapper is stripped; `fromParser` when its words are the parser's. */
export function invocationIn(frame: Frame, fromParser: boolean): Invocation {
  return {
    wrappers: [...frame.wrappers],
    assignments: [],
    viaExec: false,
    blockReadOnly: frame.blockReadOnly,
    appendsArguments: false,
    placeholder: null,
    changesDirectory: frame.cwdUnknown,
    fromParser,
    writes: frame.writes,
    stdin: frame.stdin,
    ...(frame.stdin === 'literal-document' && frame.document !== undefined ? { document: frame.document } : {}),
    ...(frame.stdin === 'file' && frame.stdinFile !== undefined ? { stdinFile: frame.stdinFile } : {}),
    frame,
  };
}
