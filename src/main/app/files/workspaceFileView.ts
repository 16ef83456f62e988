import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceFileView } from '../../../shared/contract';
import { RequestError } from '../../../shared/requestError';
import { createPermissionEngine } from '../../permissions/engine';
import { sessionRuleSet } from '../../permissions/sessionRules';
import type { Store } from '../../store/store';
import { readFile } from '../../tools/readFile';
import { languageForPath } from '../../workspace/diff';
import { BINARY_SNIFF_BYTES, looksBinary } from '../../workspace/looksBinary';
import { isInside } from '../../workspace/filePaths';
import { openWorkspace } from '../../workspace/paths';

/** The largest file the viewer shows: a bigger one is for the person's own editor (and would crowd the socket). */
export const MAX_VIEWED_BYTES = 2 * 1024 * 1024;

export interface WorkspaceFileQuery {
  /** The session's folder (its worktree, when it has one). */
  workspace: string;
  /** As the conversation named it: relative to the workspace, or absolute inside it. */
  path: string;
  /** The person chose to see a file a read rule asks about. */
  confirmed: boolean;
  /** What the session's rules are built from (the same function builds them for its runs). */
  rules: { dataDir: string; store: Store; sessionId: string };
}

/**
 * A workspace file for the person to look at, read-only: a path the model wrote in its answer or a
 * tool card names. The model can write any text, so a link is treated as the model's request to
 * show something, and gets what `read_file` would get, no more:
 *
 * - the path guard (`openWorkspace().resolve`): never outside the folder, neither by `..`, an
 *   absolute path, `~`, nor a symbolic link that leads out (followed, then checked);
 * - the session's read rules, evaluated by the same engine as a `read_file` call: a deny refuses,
 *   an ask (`.env` files, by default) shows the file only once the person confirms. In the `ask`
 *   mode whatever the session's: a mode says what the agent may do unasked, and unleashed would
 *   answer the `.env` question for the person;
 * - only a regular file (a folder, a pipe or a device is refused, and opening never blocks), not a
 *   binary one, and not over MAX_VIEWED_BYTES.
 *
 * Nothing read here goes to the model: it is shown to the person only.
 */
export async function viewWorkspaceFile(query: WorkspaceFileQuery): Promise<WorkspaceFileView> {
  const workspace = openWorkspace(query.workspace);
  let absolute: string;
  try {
    absolute = workspace.resolve(query.path);
  } catch (error) {
    throw new RequestError('invalid_input', refusedPath(query.path, workspace.root, error));
  }
  const relative = workspace.relative(absolute);
  if (relative === '.') throw new RequestError('invalid_input', `${query.path} is the session’s folder itself, not a file.`);

  const verdict = readVerdict(query, relative);
  if (verdict.action === 'deny') throw new RequestError('invalid_input', `${relative} is not shown: ${verdict.reason}`);
  if (verdict.action === 'ask' && !query.confirmed) return { status: 'asks', path: relative, reason: verdict.reason };

  let handle: fs.promises.FileHandle;
  try {
    // O_NOFOLLOW: the path was resolved through its links, so a link here now was put there since.
    handle = await fs.promises.open(absolute, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (error) {
    throw openError(relative, error);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new RequestError('invalid_input', `${relative} is a folder, not a file.`);
    if (!stat.isFile())
      throw new RequestError('invalid_input', `${relative} is not a regular file (a pipe, socket or device); only files are shown.`);
    if (stat.size > MAX_VIEWED_BYTES)
      throw new RequestError(
        'invalid_input',
        `${relative} is ${megabytes(stat.size)}; the viewer shows files up to ${megabytes(MAX_VIEWED_BYTES)}. Open it in your editor.`,
      );
    const bytes = Buffer.alloc(stat.size);
    const { bytesRead } = stat.size > 0 ? await handle.read(bytes, 0, stat.size, 0) : { bytesRead: 0 };
    const content = bytes.subarray(0, bytesRead);
    if (looksBinary(content.subarray(0, BINARY_SNIFF_BYTES)))
      throw new RequestError('invalid_input', `${relative} is a binary file (${megabytes(stat.size)}); only text is shown.`);
    return { status: 'shown', path: relative, text: content.toString('utf8'), language: languageForPath(relative), size: bytesRead };
  } finally {
    await handle.close();
  }
}

/** What a `read_file` of this file would meet in the session: the same rules, the same engine. */
function readVerdict(query: WorkspaceFileQuery, relative: string) {
  const { dataDir, store, sessionId } = query.rules;
  const { rules, projectTrusted } = sessionRuleSet({ dataDir, workspace: query.workspace, store, sessionId });
  const engine = createPermissionEngine({ workspaceRoot: query.workspace, mode: 'ask', outsideContent: 'ask', rules, projectTrusted });
  return engine.evaluate({ sessionId, callId: 'workspace-file-view', tool: readFile, args: { path: relative } });
}

/** Why the guard refused a path, in the person's words (the guard's are written for the model: "give a path relative to it"). */
function refusedPath(given: string, root: string, error: unknown): string {
  const only = 'only files inside it are shown.';
  if (given.startsWith('~')) return `${given} is in a home folder, not in this session’s folder; ${only}`;
  const message = error instanceof Error ? error.message : String(error);
  if (!message.includes('outside the workspace')) return `${given} cannot be shown: ${message}`;
  const leadsOut = isInside(path.resolve(root, given), root);
  return leadsOut
    ? `${given} is a symbolic link, or inside one, that leads outside this session’s folder; ${only}`
    : `${given} is outside this session’s folder; ${only}`;
}

function openError(relative: string, error: unknown): RequestError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new RequestError('not_found', `${relative} does not exist in the session’s folder.`);
  if (code === 'ELOOP')
    return new RequestError('invalid_input', `${relative} became a symbolic link while it was being opened; it is not shown.`);
  if (code === 'EISDIR') return new RequestError('invalid_input', `${relative} is a folder, not a file.`);
  if (code === 'EACCES' || code === 'EPERM') return new RequestError('failed', `${relative} cannot be read: permission denied.`);
  return new RequestError('failed', `${relative} cannot be opened (${code ?? (error as Error).message}).`);
}

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
