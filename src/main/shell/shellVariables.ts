/** Parameters whose value is always a number, so arithmetic on them cannot hide a command. */
const NUMERIC_SPECIAL_PARAMETERS = new Set([
  '?',
  '#',
  '$',
  '!',
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'LINENO',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'EPOCHSECONDS',
  'OPTIND',
]);

/**
 * What a line does with its variables, as far as it decides what runs. Bash evaluates a variable that
 * arithmetic reads (`$(( x ))`, `a[x]`) as an expression itself, so one that may hold text can hide a
 * command (`x='a[$(id)]'`); one every assignment gives a number cannot. And declare reads a value
 * given to an array as an array assignment, expanding it again.
 */
export class ShellVariables {
  /** Per variable: whether every assignment seen gives it a number. */
  private readonly kinds = new Map<string, 'numeric' | 'other'>();
  private readonly readByArithmetic = new Set<string>();
  private readonly arrays = new Set<string>();

  assign(name: string, kind: 'numeric' | 'other'): void {
    if (kind === 'other' || !this.kinds.has(name)) this.kinds.set(name, kind);
  }

  readInArithmetic(name: string): void {
    this.readByArithmetic.add(name);
  }

  makeArray(name: string): void {
    this.arrays.add(name);
  }

  isArray(name: string): boolean {
    return this.arrays.has(name);
  }

  /** The variables arithmetic reads that some assignment (or none on the line) may give text. */
  mayHideCommandInArithmetic(): string[] {
    return [...this.readByArithmetic].filter((name) => !NUMERIC_SPECIAL_PARAMETERS.has(name) && this.kinds.get(name) !== 'numeric');
  }
}
