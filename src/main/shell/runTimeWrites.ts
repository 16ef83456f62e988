import path from 'node:path';
import type { SimpleCommand } from './commandAnalysis';
import { gitSubcommandIndex } from './classifyGit';
import { CHANGERS, DELETERS } from './describeParts';

/**
 * The places a simple command writes that are only known when it runs: a redirection to `$OUT`,
 * `"$D/x"` or `$(mktemp)`, and a word only known when it runs given to a program that writes where
 * its words say (`tee "$F"`, `cp a "$DEST"`, `dd of=$X`). No rule can say where such a write lands:
 * the same words write ~/.bashrc once the variable points there. A person decides each time.
 */
interface RunTimeWrite {
  /** The word as written (`"$D/x"`, `of=$X`), or what xargs appends. */
  shown: string;
  /** The program whose word it is; absent for a redirection. */
  program?: string;
}

/** A redirection target as written that names no fixed place: an expansion, a glob, `~user`. */
export function isRunTimePlace(target: string): boolean {
  return /[$`*?[\]{}]/.test(target) || (target.startsWith('~') && !target.startsWith('~/'));
}

/**
 * A program's word only known when it runs that names no fixed place: an expansion, `~user`, or a glob
 * that may lead anywhere (absolute, home, a brace, `..`, a dot-glob that matches `..`). A glob of names
 * where the command runs (`rm *.o`) stays there, and find's `{}` is a name under find's own starting
 * points, which are find's words.
 */
function namesNoFixedPlace(word: string): boolean {
  if (/[$`]/.test(word) || (word.startsWith('~') && !word.startsWith('~/'))) return true;
  if (word === '{}' || !/[*?[\]{}]/.test(word)) return false;
  return /^[/~]|[{}]|(^|\/)\.\.(\/|$)|(^|\/)\.[^/]*[*?[]/.test(word);
}

/**
 * Which of a program's words may say where it writes (the programs describeParts.ts says write,
 * change or delete files):
 *   every        any word: each operand is a place it writes or deletes, and a word only known when
 *                it runs may as well be an option that names one (dd's of=, curl's -o, sed's -i or a
 *                script's `w file`)
 *   destination  cp, mv, ln, install, rsync, scp: the last operand, and any word before `--`, which may be an
 *                option naming the target folder (`--target-directory=~/.ssh`; GNU reads options anywhere)
 *   options      sort: any word before `--`, which may be `-o FILE`
 * (find with a word only known when it runs cannot be pinned down at all: shell/unwrapCommand.ts.)
 * What xargs appends to a command counts as words only known when it runs, wherever they land.
 */
const WRITES_WHERE_ITS_WORDS_SAY: Record<string, 'every' | 'destination' | 'options'> = {
  // What the person is told deletes or changes the files its words name.
  ...Object.fromEntries([...DELETERS, ...Object.keys(CHANGERS)].map((program) => [program, 'every'] as const)),
  tee: 'every',
  dd: 'every',
  sed: 'every',
  perl: 'every',
  curl: 'every',
  wget: 'every',
  // Archives and patches write where an option or an operand says (-C DIR, -d DIR, -o FILE, a prefix).
  tar: 'every',
  unzip: 'every',
  patch: 'every',
  split: 'every',
  cp: 'destination',
  mv: 'destination',
  ln: 'destination',
  install: 'destination',
  rsync: 'destination',
  scp: 'destination',
  sort: 'options',
};

/**
 * git writes inside the repository it works in, wherever its words point (a branch, a message, a
 * path in the work tree); these say which repository or which file outside it:
 * - any word before the subcommand (`-C DIR`, `--git-dir=DIR`, `--work-tree=DIR`);
 * - any word of a subcommand that makes a repository, a worktree or a file where its words say
 *   (`git init "$D"`, `git clone URL "$D"`, `git worktree add "$D"`, `git archive -o "$F"`,
 *   `git config --file "$F"`);
 * - the value of `-o`/`--output`/`--output-directory` in any other (`git diff --output="$F"`).
 */
const GIT_WRITES_WHERE_ITS_WORDS_SAY = new Set(['init', 'clone', 'worktree', 'archive', 'format-patch', 'bundle', 'config', 'submodule']);
const GIT_OUTPUT = /^(?:-o|--output|--output-directory)(?:=|$)/;
const GIT_OUTPUT_OPTION = /^(?:-o|--output|--output-directory)$/;

function gitRunTimeWords(argv: readonly string[], unknown: ReadonlySet<number>): number[] {
  const at = gitSubcommandIndex(argv.slice(1)) + 1;
  const subcommand = at < argv.length ? at : -1;
  const every = subcommand === -1 || GIT_WRITES_WHERE_ITS_WORDS_SAY.has(argv[subcommand]!);
  return [...unknown].filter((index) => {
    if (every || index < subcommand) return true;
    const word = argv[index]!;
    return GIT_OUTPUT.test(word) || GIT_OUTPUT_OPTION.test(argv[index - 1] ?? '');
  });
}

/** The words of a program that writes where they say which are only known when it runs. */
export function programRunTimeWrites(command: SimpleCommand): RunTimeWrite[] {
  const [program] = command.argv;
  if (program === undefined) return [];
  const name = path.posix.basename(program);
  const unknown = new Set(command.unknownArgs ?? []);
  if (name === 'git') {
    return gitRunTimeWords(command.argv, unknown)
      .filter((index) => namesNoFixedPlace(command.argv[index]!))
      .map((index) => ({ shown: command.argv[index]!, program: name }));
  }
  const kind = WRITES_WHERE_ITS_WORDS_SAY[name];
  if (kind === undefined) return [];
  const end = command.argv.indexOf('--', 1);
  const beforeEnd = (index: number) => end === -1 || index < end;
  const last = command.argv.length - 1;
  const found: RunTimeWrite[] = [];
  for (let index = 1; index <= last; index++) {
    const word = command.argv[index] as string;
    if (!unknown.has(index) || !namesNoFixedPlace(word)) continue;
    const counts = kind === 'every' || beforeEnd(index) || (kind === 'destination' && index === last);
    if (counts) found.push({ shown: word, program: name });
  }
  if (command.argumentsAppended) found.push({ shown: 'the words xargs appends', program: name });
  return found;
}

/** Every place the command writes that is only known when it runs: its redirections', then its program's. */
export function runTimeWrites(command: SimpleCommand): RunTimeWrite[] {
  return [...command.writesTo.filter(isRunTimePlace).map((shown) => ({ shown })), ...programRunTimeWrites(command)];
}
