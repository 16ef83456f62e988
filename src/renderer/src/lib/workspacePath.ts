/**
 * Which text in the conversation names a file of the session's workspace, so it can be offered as a
 * link to that file's diff. Deliberately narrow: a word with a slash or a file extension, made of
 * the characters paths are made of; never a URL, an option, a home path or a way out of the folder.
 * Nothing is opened or run from it: the path only selects a file in the diff panel, whose requests
 * main checks again.
 */

const PATH_CHARS = /^[\w@.+\-/]+$/;
/** A file name's extension: a letter first, so `1.5` and `v2.0.1` are not files. */
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,9}$/;
/** `src/a.ts:12` or `src/a.ts:12:5`, as compilers and models cite a place in a file. */
const PLACE = /:(\d+)(?::\d+)?$/;

export interface WorkspaceFile {
  /** Relative to the workspace, forward slashes. */
  path: string;
  line?: number;
}

/** The workspace file `text` names, or null when it does not look like one inside `workspace`. */
export function workspaceFile(text: string, workspace: string): WorkspaceFile | null {
  let candidate = text.trim();
  let line: number | undefined;
  const place = PLACE.exec(candidate);
  if (place) {
    line = Number(place[1]);
    candidate = candidate.slice(0, place.index);
  }
  if (candidate.length === 0 || candidate.length > 400 || !PATH_CHARS.test(candidate)) return null;
  const root = workspace.replace(/\/+$/, '');
  if (candidate.startsWith('/')) {
    if (!root || !candidate.startsWith(`${root}/`)) return null;
    candidate = candidate.slice(root.length + 1);
  }
  candidate = candidate.replace(/^(\.\/)+/, '');
  const parts = candidate.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return null;
  if (candidate.startsWith('-') || parts.some((part) => part.toLowerCase() === '.git')) return null;
  const name = parts.at(-1)!;
  // A bare word needs an extension (package.json); a path with folders needs a name with a letter in it.
  if (parts.length === 1 ? !EXTENSION.test(name) : !/[A-Za-z]/.test(name)) return null;
  return line !== undefined ? { path: candidate, line } : { path: candidate };
}
