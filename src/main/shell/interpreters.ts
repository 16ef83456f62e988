/**
 * The interpreters: programs that run whatever program they are given (a script, a -c string, their
 * standard input). One table, read by the analysis (which walks into what they run) and by Allow
 * always (which never offers a prefix rule on one: `python *` would allow any program at all).
 */

/** POSIX-like shells, whose -c string and scripts the analysis parses as bash. */
export const SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'posh', 'yash']);
/** Other shells: what they run cannot be read as bash. */
export const FOREIGN_SHELLS: ReadonlySet<string> = new Set(['fish', 'csh', 'tcsh', 'nu', 'elvish', 'xonsh', 'pwsh', 'powershell']);

/** Interpreters that read their program from standard input when given no script. */
export const STDIN_INTERPRETERS: Record<string, { inline: readonly string[]; withValue: readonly string[] }> = {
  python: { inline: ['-c', '-m'], withValue: ['-W', '-X', '-Q'] },
  node: {
    inline: ['-e', '--eval', '-p', '--print'],
    withValue: [
      '-r',
      '--require',
      '--import',
      '--loader',
      '--experimental-loader',
      '-C',
      '--conditions',
      '--input-type',
      '--env-file',
      '--title',
    ],
  },
  perl: { inline: ['-e', '-E'], withValue: ['-I', '-M', '-m', '-x'] },
  ruby: { inline: ['-e'], withValue: ['-I', '-r', '-C', '-E'] },
  php: { inline: ['-r'], withValue: ['-c', '-d', '-z'] },
  lua: { inline: ['-e'], withValue: ['-l'] },
  Rscript: { inline: ['-e'], withValue: [] },
  osascript: { inline: ['-e'], withValue: ['-l'] },
  tclsh: { inline: [], withValue: [] },
  deno: { inline: ['eval'], withValue: [] },
  bun: { inline: ['-e', '--eval', '-p', '--print'], withValue: [] },
};

export function interpreterKind(name: string): string | null {
  if (/^python[0-9.]*$/.test(name) || name === 'pypy' || name === 'pypy3') return 'python';
  if (name === 'nodejs') return 'node';
  if (/^lua(jit|[0-9.]*)$/.test(name)) return 'lua';
  // Own keys only: a program named `constructor` or `toString` is no interpreter.
  return Object.hasOwn(STDIN_INTERPRETERS, name) ? name : null;
}

/** The table's names in lower case: a rule is about the program, however its name is typed. */
const STDIN_INTERPRETER_NAMES: ReadonlySet<string> = new Set(Object.keys(STDIN_INTERPRETERS).map((key) => key.toLowerCase()));

/** Interactive interpreters the analysis does not walk into (they read a program from a person). */
const INTERACTIVE_INTERPRETERS: ReadonlySet<string> = new Set(['irb', 'wish']);

/** Whether `name` (as typed, any case) is an interpreter of any kind, versioned ones (python3.12, ruby3) included. */
export function isInterpreter(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    SHELLS.has(lower) ||
    FOREIGN_SHELLS.has(lower) ||
    INTERACTIVE_INTERPRETERS.has(lower) ||
    interpreterKind(lower) !== null ||
    STDIN_INTERPRETER_NAMES.has(lower) ||
    /^(python|ruby|perl|php|node)\d/.test(lower)
  );
}
