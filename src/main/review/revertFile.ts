import fs from 'node:fs';
import path from 'node:path';
import type { HunkRange } from '../../shared/events';
import { RequestError } from '../../shared/requestError';
import { canonicalPath, isInside, SymlinkLoopError } from '../workspace/filePaths';
import { treeEntryAt, type TreeEntry } from '../workspace/diff';
import type { ShadowRepo } from '../workspace/shadowRepo';
import { exactText } from './exactText';
import { fileHunks } from './fileHunks';
import { readEntry, type WorkspaceEntry } from './workspaceEntry';

/** A whole file, or one hunk named by its index in the diff the person saw and that hunk's fingerprint. */
export type RevertTarget = { kind: 'file' } | { kind: 'hunk'; index: number; fingerprint: string };

export interface Reverted {
  path: string;
  hunks: HunkRange[] | 'file';
  note: string;
  /** The file as the revert found it and as it left it: what an undo puts back, and what must still stand there for it to. */
  undo: { workspace: string; absolute: string; before: WorkspaceEntry; after: WorkspaceEntry };
}

/**
 * Puts `filePath` (or one hunk of it) back as snapshot `base` has it, in the workspace the shadow
 * repository records. A whole-file revert restores the bytes, the executable bit or the symbolic
 * link, or deletes a file the base did not have. A hunk revert rewrites the file with that hunk's
 * lines as they were and every other byte as it is now. Nothing else in the folder is touched.
 */
export async function revertFile(repo: ShadowRepo, base: string, filePath: string, target: RevertTarget): Promise<Reverted> {
  return revertTo(repo.workspace, filePath, await treeEntryAt(repo, base, normalise(filePath)), target);
}

/**
 * Puts `filePath` (or one hunk of it) in `workspace` back as `before` has it (null: no file), as
 * `revertFile` does. With `expected`, what the caller computed the change from (null: no file), the
 * revert is refused when the file is no longer that, so nothing written since is overwritten.
 */
export function revertTo(
  workspace: string,
  filePath: string,
  before: TreeEntry | null,
  target: RevertTarget,
  expected?: TreeEntry | null,
): Reverted {
  const relative = normalise(filePath);
  const absolute = insideWorkspace(workspace, relative, filePath);
  const now = readEntry(absolute);
  const undo = () => ({ workspace, absolute, before: now, after: readEntry(absolute) });
  if (expected !== undefined && !(expected === null ? now.kind === 'missing' : sameAsBase(now, expected))) {
    throw new RequestError(
      'conflict',
      `${relative} changed since its diff was worked out (another session, a command or an editor wrote to it), so nothing was reverted: that would overwrite the change. Look at the refreshed diff and try again.`,
    );
  }

  if (target.kind === 'file') {
    if (!before) {
      if (now.kind === 'missing')
        throw new RequestError(
          'not_found',
          `${relative} did not exist at the review base and does not exist now: there is nothing to revert. Refresh the list of changes.`,
        );
      fs.unlinkSync(absolute);
      return { path: relative, hunks: 'file', note: `${relative} (whole file; it was new, so it was deleted)`, undo: undo() };
    }
    if (sameAsBase(now, before))
      throw new RequestError(
        'conflict',
        `${relative} is already as the review base has it: there is nothing to revert. Refresh the list of changes.`,
      );
    writeEntry(absolute, now, before);
    return {
      path: relative,
      hunks: 'file',
      note: `${relative} (whole file${now.kind === 'missing' ? '; it had been deleted, so it was restored' : ''})`,
      undo: undo(),
    };
  }

  const wholeFileOnly = (why: string) =>
    new RequestError('invalid_input', `A single hunk of ${relative} cannot be reverted: ${why}. Revert the whole file instead.`);
  if (now.kind !== 'file') throw wholeFileOnly(now.kind === 'missing' ? 'the file no longer exists' : 'it is not a regular file now');
  if (before && before.mode === '120000') throw wholeFileOnly('it was a symbolic link');
  const oldBytes = before?.bytes ?? Buffer.alloc(0);
  const oldText = exactText(oldBytes);
  const newText = exactText(now.bytes);
  if ('notText' in oldText || 'notText' in newText) {
    const binary = [oldText, newText].some((read) => 'notText' in read && read.notText === 'binary');
    throw wholeFileOnly(binary ? 'it is a binary file' : 'it is not valid UTF-8 text, so its bytes could not be kept exactly');
  }
  const split = fileHunks(oldText.text, newText.text);
  if (!split) throw wholeFileOnly('it changed too much to be split into hunks');
  const hunk = split.hunks[target.index];
  if (!hunk || hunk.fingerprint !== target.fingerprint) {
    throw new RequestError(
      'conflict',
      `The changes to ${relative} are no longer what the diff showed (it changed since it was loaded), so no hunk was reverted. Look at the refreshed diff and try again.`,
    );
  }
  fs.writeFileSync(absolute, split.revert(target.index));
  const { fingerprint: _fingerprint, ...range } = hunk;
  return { path: relative, hunks: [range], note: `${relative} ${describeHunk(range)} (hunk)`, undo: undo() };
}

/** Where the hunk was in the agent's version of the file, which is what the model knows. */
function describeHunk(range: HunkRange): string {
  if (range.newLines === 0)
    return range.newStart === 0 ? `lines removed at the top, restored` : `lines removed after line ${range.newStart}, restored`;
  if (range.newLines === 1) return `line ${range.newStart}`;
  return `lines ${range.newStart}-${range.newStart + range.newLines - 1}`;
}

/** The path as the live diff names it (relative, forward slashes); refused when it leaves the workspace or enters a .git folder. */
export function normalise(filePath: string): string {
  const relative = filePath.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  const parts = relative.split('/');
  if (
    !relative ||
    relative.startsWith('/') ||
    /^[A-Za-z]:/.test(relative) ||
    relative.includes('\0') ||
    parts.some((part) => part === '..' || part === '' || part === '.')
  ) {
    throw new RequestError(
      'invalid_input',
      `${JSON.stringify(filePath)} is not a path inside the workspace; pass the path the list of changes shows.`,
    );
  }
  if (parts.some((part) => part.toLowerCase() === '.git'))
    throw new RequestError('invalid_input', `${filePath} is inside a .git folder, which the live diff never shows or reverts.`);
  return relative;
}

/** The file's absolute path, refusing a folder on the way that is a link leading out of the workspace. */
export function insideWorkspace(workspace: string, relative: string, shown: string): string {
  const absolute = path.join(workspace, ...relative.split('/'));
  // Where its folder really is: through every link, a dangling one to the place it names; a loop leads nowhere inside.
  let real: string | undefined;
  try {
    real = canonicalPath(path.dirname(absolute));
  } catch (error) {
    if (!(error instanceof SymlinkLoopError)) throw error;
  }
  if (real === undefined || !isInside(real, workspace)) {
    throw new RequestError(
      'invalid_input',
      `${shown} leads outside the workspace ${workspace} through a symbolic link; it was not touched.`,
    );
  }
  return absolute;
}

function sameAsBase(now: WorkspaceEntry, before: TreeEntry): boolean {
  if (before.mode === '120000') return now.kind === 'symlink' && now.target === before.bytes.toString('utf8');
  if (now.kind !== 'file' || !now.bytes.equals(before.bytes)) return false;
  return ((now.mode & 0o111) !== 0) === (before.mode === '100755');
}

function writeEntry(absolute: string, now: WorkspaceEntry, before: TreeEntry): void {
  if (now.kind === 'other')
    throw new RequestError('conflict', `${absolute} is a folder or a special file now; move it away, then revert again.`);
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  if (before.mode === '120000') {
    if (now.kind !== 'missing') fs.unlinkSync(absolute);
    fs.symlinkSync(before.bytes.toString('utf8'), absolute);
    return;
  }
  // A link stands where a file was: replace the link itself, never write through it.
  if (now.kind === 'symlink') fs.unlinkSync(absolute);
  const executable = before.mode === '100755';
  if (now.kind === 'file') {
    fs.writeFileSync(absolute, before.bytes);
    // The file's read and write bits stay; only the executable bit follows the base.
    const mode = executable ? now.mode | ((now.mode & 0o444) >> 2) : now.mode & ~0o111;
    fs.chmodSync(absolute, mode & 0o7777);
    return;
  }
  fs.writeFileSync(absolute, before.bytes, { mode: executable ? 0o777 : 0o666 });
}
