/**
 * What the shell analysis (shell/analyzeCommand.ts) finds in one command line, for the policy engine.
 * It is computed by a real bash parser (tree-sitter-bash), never by regular expressions.
 */

/** One simple command that will run, after wrappers (timeout, nice, env VAR=, sudo, xargs, ...) were stripped. */
export interface SimpleCommand {
  /**
   * The real program and its arguments, quotes removed: ['git', 'commit', '-m', 'a b']. A word
   * only known when it runs ($x, $(...), ~/x) is given as written. Empty for a line that is only
   * redirections (`> out.txt`), which still writes.
   */
  argv: string[];
  /** The wrappers stripped in front of it, outermost first: ['sudo', 'timeout']. */
  wrappers: string[];
  /** Variable assignments in front of it (`FOO=1 cmd`), by name. */
  assignments: string[];
  /** On the built-in read-only list with arguments that keep it read-only, and resolving to a system program. */
  readOnly: boolean;
  /** May reach the network (curl, git push, npm install, ...), or is a program the engine does not know to be local. */
  mayReachNetwork: boolean;
  /**
   * The redirections that write to a file (`> out.txt`, `>> log`), by target as written; those of
   * an enclosing group count (`{ a; b; } > out`). Not /dev/null, /dev/stderr, nor `2>&1`. A command
   * that writes is never readOnly.
   */
  writesTo: string[];
  /** argv indices of words only known when it runs (an expansion, a glob, a word find or xargs fills in); absent when none. */
  unknownArgs?: number[];
  /** xargs appends words it reads from its input to argv when it runs. */
  argumentsAppended?: boolean;
  /** The file an input redirection feeds to its standard input (`nc host 80 < out.txt`), as written. */
  readsFrom?: string;
  /** Its standard input is the output of the command before it in a pipeline. */
  fedByPipe?: boolean;
  /** The program itself only reads; its redirections (writesTo) are what write. */
  readsBesideWrites?: boolean;
}

/** A file or folder a command line names for reading. */
export interface ReadTarget {
  /** As written. */
  shown: string;
  /**
   * Where it is: an absolute path, or `~`/`~/…` for the home folder (the engine knows where that is);
   * absent when only known when it runs (an expansion, a glob that could climb, a cd before it to an
   * unknown place). As the line spells it from where the shell is: `..` is not folded, since the
   * kernel applies it after following the symlink before it.
   */
  path?: string;
  /** The path holds glob characters the shell expands into the names it matches. */
  pattern?: boolean;
  /** Named by a command that is not read-only: it may read the path or write it. */
  named?: boolean;
  /**
   * A glob where the program reads its options: a name it matches that starts with a dash becomes an
   * option (`wc *` in a folder holding a file named `--files0-from=list`).
   */
  mayBeOption?: boolean;
}

export interface CommandAnalysis {
  /** Every simple command found, in order. Empty for an empty command. */
  commands: SimpleCommand[];
  /**
   * Why the command cannot be pinned down, when it cannot: a program name that is not a literal word,
   * eval/source/exec, a parse error, a dangerous environment prefix, an escape that changes an option.
   * When set, `commands` holds what was found but the policy never allows it without asking
   * (and every command's readOnly is false).
   */
  unpinnable?: string;
  /**
   * Things the person should know that do not stop the command from being pinned down, e.g.
   * "python3 runs the program written in the here-document".
   */
  notes?: string[];
  /**
   * The files and folders the line names for reading: path arguments of read-only commands, input
   * redirections, cd's target. Absent when none.
   */
  reads?: ReadTarget[];
}
