import fs from 'node:fs';
import path from 'node:path';
import { isInside } from './filePaths';
import { runGit } from './git';
import { withoutExecLines } from './gitState';
import { examineRepository, probe, probeEnv, QUARANTINE_MARK, type Examination, type Program } from './repositoryMachinery';

/**
 * Makes a repository inside the workspace unable to run what it should not, deleting nothing. What
 * can be changed in place (its git folder lies inside the workspace, and is not the person's own
 * repository's) is: each config file that names a program is moved aside whole, as
 * `config.tether-quarantined-<time>`, and a copy without those settings takes its place (git
 * removes them, `git config --file <copy> --unset-all`); each hook is renamed
 * `<hook>.tether-quarantined-<time>`, a name git never runs. The repository keeps working: its
 * objects, refs, index and every other setting stay. Otherwise (a git folder outside the workspace,
 * in $TMPDIR say, or one of the person's own, or a fix that did not hold), its `.git` itself is
 * renamed `.git.tether-quarantined-<time>`: the folder is then no repository at all, and a `.git` file
 * is only a pointer, so nothing is lost either way.
 */

export interface QuarantineInput {
  worktree: string;
  /** `worktree` is a bare repository's git folder itself. */
  bare?: boolean;
  /** What to take away: the programs that were not there (or not accepted) before. */
  programs: Program[];
  /** Programs that stay (the person's own, there before the session). */
  accepted: ReadonlySet<string>;
  workspace: string;
  /** Git folders never changed in place: the person's own repository's (its config is theirs). */
  protectedDirs: readonly string[];
  /** For names of what is moved aside: `20261202T065615Z`. */
  stamp: string;
  show(absolute: string): string;
}

export interface QuarantineOutcome {
  /** What was moved aside, absolute. */
  moved: { from: string; to: string }[];
  /** Config files written anew without the settings, absolute. */
  rewritten: string[];
  /** Why it could not be made harmless; set only when a program is still in reach. */
  failed?: string;
  /** The repository as it is now; null when its `.git` was moved aside (it is no repository any more). */
  exam: Examination | null;
}

export async function quarantineRepository(input: QuarantineInput): Promise<QuarantineOutcome> {
  const outcome: QuarantineOutcome = { moved: [], rewritten: [], exam: null };
  const inPlace = input.programs.every((program) => changeableInPlace(program.fix.file, input));
  let problem: string | undefined;
  if (inPlace) {
    try {
      await fixInPlace(input, outcome);
    } catch (error) {
      problem = (error as Error).message;
    }
    const exam = await examineRepository(input.worktree, input.show, { bare: input.bare ?? false });
    const left = exam.programs.filter((program) => !input.accepted.has(program.id));
    if (left.length === 0 && problem === undefined) {
      outcome.exam = exam;
      return outcome;
    }
    problem ??= `still there after the fix: ${left.map((program) => program.shown).join('; ')}`;
  }
  // Not changeable in place, or the change did not hold: the repository stops being one (a bare one
  // without its HEAD is no git folder to git).
  const dotGit = path.join(input.worktree, input.bare ? 'HEAD' : '.git');
  try {
    if (!isInside(fs.realpathSync.native(input.worktree), input.workspace))
      throw new Error(`${input.show(input.worktree)} leads out of the workspace`);
    outcome.moved.push({ from: dotGit, to: moveAside(dotGit, input.stamp) });
    return outcome;
  } catch (error) {
    const why = `${problem ? `${problem}; then ` : ''}moving ${input.show(dotGit)} aside failed: ${(error as Error).message}`;
    outcome.failed = why;
    outcome.exam = await examineRepository(input.worktree, input.show, { bare: input.bare ?? false }).catch(() => null);
    return outcome;
  }
}

/** A file Tether may change where it is: in the workspace (by the real path of its folder), and not in the person's own git folder. */
function changeableInPlace(file: string, input: QuarantineInput): boolean {
  let folder: string;
  try {
    folder = fs.realpathSync.native(path.dirname(file));
  } catch {
    return false;
  }
  if (!isInside(folder, input.workspace)) return false;
  return !input.protectedDirs.some((dir) => folder === dir || folder === path.join(dir, 'hooks'));
}

async function fixInPlace(input: QuarantineInput, outcome: QuarantineOutcome): Promise<void> {
  const unsets = new Map<string, Program[]>();
  for (const program of input.programs) {
    if (program.fix.kind === 'unset') unsets.set(program.fix.file, [...(unsets.get(program.fix.file) ?? []), program]);
  }
  for (const [file, programs] of unsets) await withoutSettings(file, programs, input, outcome);
  quarantineState(input.programs, input.stamp, outcome);
  for (const program of input.programs) {
    if (program.fix.kind !== 'move' || !exists(program.fix.file)) continue;
    outcome.moved.push({ from: program.fix.file, to: moveAside(program.fix.file, input.stamp) });
  }
}

/**
 * Takes an operation in progress out of reach where it is, in any git folder, the person's own
 * included (only its state files are touched). A todo is copied beside the operation's folder (git
 * removes that folder when the operation ends, and the copy must outlive it) and written again with its
 * exec lines made comments, so the person's `git rebase --continue` goes on without running them; a
 * state file naming a program is moved aside. Other programs are left to the caller.
 */
export function quarantineState(
  programs: readonly Program[],
  stamp: string,
  outcome: Pick<QuarantineOutcome, 'moved' | 'rewritten'>,
): void {
  for (const program of programs) {
    const { fix } = program;
    if ((fix.kind !== 'todo' && fix.kind !== 'state') || !exists(fix.file)) continue;
    if (fix.kind === 'state') {
      outcome.moved.push({ from: fix.file, to: moveAside(fix.file, stamp) });
      continue;
    }
    const operation = path.dirname(fix.file);
    const kept = uniqueName(
      path.join(path.dirname(operation), `${path.basename(operation)}-${path.basename(fix.file)}${QUARANTINE_MARK}${stamp}`),
    );
    const text = fs.readFileSync(fix.file, 'utf8');
    fs.writeFileSync(kept, text, { flag: 'wx' });
    const writing = `${fix.file}.tether-writing-${stamp}`;
    fs.writeFileSync(writing, withoutExecLines(text, kept), { flag: 'wx' });
    fs.renameSync(writing, fix.file);
    outcome.moved.push({ from: fix.file, to: kept });
    outcome.rewritten.push(fix.file);
  }
}

function uniqueName(target: string): string {
  let name = target;
  for (let n = 2; exists(name); n++) name = `${target}-${n}`;
  return name;
}

/**
 * Moves the config file aside as it is (a link stays a link: it is renamed, never written through)
 * and puts a copy of its text without the settings in its place.
 */
async function withoutSettings(file: string, programs: Program[], input: QuarantineInput, outcome: QuarantineOutcome): Promise<void> {
  if (!fs.statSync(file).isFile()) throw new Error(`${input.show(file)} is no longer a regular file`);
  const text = fs.readFileSync(file);
  const aside = moveAside(file, input.stamp);
  outcome.moved.push({ from: file, to: aside });
  const writing = `${file}.tether-writing-${input.stamp}`;
  fs.writeFileSync(writing, text, { flag: 'wx', mode: 0o644 });
  const { dir } = await probe('sha1');
  for (const program of programs) {
    if (program.fix.kind !== 'unset') continue;
    const { key, value } = program.fix.entry;
    // Only this value of the key: another value of it (a second include.path) may be the person's.
    const args = ['config', '--file', writing, '--unset-all', key, ...(value === null ? [] : [`^${escapeRegex(value)}$`])];
    await runGit(args, { cwd: dir, env: probeEnv(dir), okExitCodes: [5] });
  }
  fs.renameSync(writing, file);
  outcome.rewritten.push(file);
}

/** Renames `file` to `<file>.tether-quarantined-<stamp>` (numbered when taken), making its folder writable first when it is not. */
function moveAside(file: string, stamp: string): string {
  let target = `${file}${QUARANTINE_MARK}${stamp}`;
  for (let n = 2; exists(target); n++) target = `${file}${QUARANTINE_MARK}${stamp}-${n}`;
  try {
    fs.renameSync(file, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    // A folder made read-only (by the command, say) is the person's to write; Tether runs as them.
    const folder = path.dirname(file);
    fs.chmodSync(folder, fs.statSync(folder).mode | 0o700);
    fs.renameSync(file, target);
  }
  return target;
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function escapeRegex(value: string): string {
  return value.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
