/**
 * Which text in the conversation names a file of the session's workspace, so it can be offered as a
 * link to that file. Deliberately narrow: a word with a slash or a file extension, made of the
 * characters paths are made of; never a URL, an option, a home path or a way out of the folder.
 * Nothing is opened or run from it: the path only asks main to show the file, and main checks it
 * again (the path guard and the read rules, see `workspace:readFile`).
 */

const PATH_CHARS = /^[\w@.+\-/]+$/;
/** A file name's extension: a letter first, so `1.5` and `v2.0.1` are not files. */
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,9}$/;
/**
 * A place in the file: `src/a.ts:12` or `src/a.ts:12:5`, as compilers and models cite one, and
 * `src/a.ts#L12`, `#L12C5` or `#L12-L20`, as GitHub links to one (a range opens at its first line).
 */
const PLACE = /(?::(\d+)(?::(\d+))?|#L(\d+)(?:C(\d+))?(?:-L?\d+(?:C\d+)?)?)$/;

export interface WorkspaceFile {
  /** Relative to the workspace, forward slashes. */
  path: string;
  line?: number;
  column?: number;
}

/** The workspace file `text` names, or null when it does not look like one inside `workspace`. */
export function workspaceFile(text: string, workspace: string): WorkspaceFile | null {
  let candidate = text.trim();
  let line: number | undefined;
  let column: number | undefined;
  const place = PLACE.exec(candidate);
  if (place) {
    line = Number(place[1] ?? place[3]);
    const at = place[2] ?? place[4];
    if (at !== undefined) column = Number(at);
    candidate = candidate.slice(0, place.index);
    // Line 0 is nowhere: the text is not a place in a file.
    if (line < 1 || (column !== undefined && column < 1)) return null;
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
  return { path: candidate, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) };
}

/** A run of text that may be a path with a place: path characters, then `:12:5` or `#L12C5-L20`. */
const CANDIDATE = /[\w@.+\-/]+(?:(?::\d+){1,2}|#L\d+(?:C\d+)?(?:-L?\d+(?:C\d+)?)?)?/g;

/** Where a path to a workspace file lies in running text: `[start, end)` and the file. */
export interface PathInText {
  start: number;
  end: number;
  file: WorkspaceFile;
}

/**
 * The workspace files a sentence names, for links in the model's prose. Stricter than inline code,
 * where the model marked the words as code: a word counts only when it is a relative path with
 * folders and a file extension (`src/long.js`), or a file with a place (`README.md:3`), so `and/or`,
 * `Node.js` and `1/2` stay words, as does an absolute path (prose is drawn without knowing the
 * session's folder; inline code links one). A URL is not looked into (remark-gfm makes it a link,
 * which is left alone), and a sentence's full stop after the path is not part of it.
 */
export function pathsInText(text: string): PathInText[] {
  const found: PathInText[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    let word = match[0];
    const start = match.index;
    // `https://host/a.js` or `~/a.js` would start mid-way through what is not a workspace path.
    const before = text.slice(Math.max(0, start - 3), start);
    if (before.endsWith(':') || before.endsWith('~') || before.endsWith('://')) continue;
    word = word.replace(/[.\-+]+$/, '');
    if (word.startsWith('/')) continue;
    const file = workspaceFile(word, '');
    if (!file) continue;
    const hasPlace = file.line !== undefined;
    const name = file.path.split('/').at(-1)!;
    if (!hasPlace && !(file.path.includes('/') && EXTENSION.test(name))) continue;
    found.push({ start, end: start + word.length, file });
  }
  return found;
}
