/**
 * Options that make a program run another program, run code, or write files, when they are named on
 * its command line: `git fetch --upload-pack=…`, `go test -exec …`, `make --eval=…`, `find -delete`.
 *
 * A prefix rule (`run_command(git fetch *)`) says "this program, doing this, with any arguments"; an
 * option that hands the program another program to run turns it into a rule for that other program.
 * So a prefix never covers a line with one of these, and "Allow always" never offers a prefix for it:
 * only the exact command, which the person has read, can be allowed always.
 *
 * Each entry is taken from the program's own documentation (`doc` says where), and carries a line
 * that uses it (`example`), which its test checks.
 */
export interface ExecOptionEntry {
  program: string;
  /** Applies only after one of these subcommand words (git fetch, go test); otherwise anywhere. */
  subcommands?: readonly string[];
  /** A program-wide option that is read only before the subcommand (git -c). */
  global?: boolean;
  /** Long options, without dashes. */
  long?: readonly string[];
  /** Short option letters. */
  short?: string;
  /** Options spelled with one dash and a whole word (find -exec, go -toolexec, terraform -chdir). */
  word?: readonly string[];
  /** `NAME=value` operands set variables that decide what the program runs (make CC=…). */
  assignments?: boolean;
  /** Subcommand words that themselves run what follows (git bisect run, git submodule foreach). */
  runsWords?: readonly string[];
  /** With this many operands after the subcommand it sets a value (`git config core.pager x`). */
  valueOperands?: number;
  effect: 'runs a program' | 'runs code' | 'writes files' | 'reads code or configuration from elsewhere';
  example: string;
  doc: string;
}

/** How each program reads its options: which long options it accepts abbreviated, which globals take a value. */
export interface ProgramSyntax {
  /** getopt_long, git's parse-options, argparse, optparse and nopt accept any unique prefix of a long option. */
  abbreviates: boolean;
  /** Program-wide options given their value as the next word (so that word is no subcommand). */
  globalsWithValue?: readonly string[];
  /** `--` ends only the options before the operands, and what follows is still read (find's expression, make's assignments). */
  readsPastDashDash?: boolean;
  /** The first argument is a cluster of options even without a dash (tar's old style: `tar cIf …`). */
  oldStyleFirst?: boolean;
}
