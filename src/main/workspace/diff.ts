import path from 'node:path';
import type { FileChange, FileDiff } from '../../shared/contract';
import { looksBinary } from './looksBinary';
import type { ShadowRepo } from './shadowRepo';

/**
 * The live diff: what changed between two snapshots of a shadow repository, per file and line.
 *
 * `to` may be `'worktree'`: a snapshot is taken first, so changes made by commands (not only by
 * Tether's edit tools) show too. A rename is shown as the old path deleted and the new one added,
 * since a FileChange has one path and the diff view pairs before/after by path.
 */

/** Compare against the workspace as it is now (a fresh snapshot). */
export const WORKTREE = 'worktree';

/** Every file that differs between `from` and `to`, in path order, with added/removed line counts. */
export async function changedFiles(repo: ShadowRepo, from: string, to: string): Promise<FileChange[]> {
  const [fromCommit, toCommit] = await Promise.all([
    commitOf(repo, from, { trustFullId: true }),
    commitOf(repo, to, { trustFullId: true }),
  ]);
  if (fromCommit === toCommit) return [];
  const run = await repo.git(['diff-tree', '-r', '-z', '--no-renames', '--no-ext-diff', '--raw', '--numstat', fromCommit, toCommit], {
    okExitCodes: [128],
  });
  if (run.exitCode !== 0) {
    // Full ids were not looked up first (one git call fewer on every refresh of the diff); a missing one fails here.
    await Promise.all([commitOf(repo, fromCommit), commitOf(repo, toCommit)]);
    throw new Error(
      `Cannot compare snapshots ${fromCommit.slice(0, 12)} and ${toCommit.slice(0, 12)} in ${repo.gitDir}: ${run.stderr.trim()}`,
    );
  }
  return parseRawAndNumstat(run.stdout);
}

/** One file's text before and after (empty where it did not exist, omitted when binary). */
export async function fileDiff(repo: ShadowRepo, from: string, to: string, filePath: string): Promise<FileDiff> {
  const relative = filePath.replace(/\\/g, '/').replace(/^\.\//, '');
  const [fromCommit, toCommit] = await Promise.all([commitOf(repo, from), commitOf(repo, to)]);
  const [before, after] = await Promise.all([blobAt(repo, fromCommit, relative), blobAt(repo, toCommit, relative)]);
  if (!before && !after) {
    throw new Error(
      `There is no file ${JSON.stringify(filePath)} in either snapshot (${fromCommit.slice(0, 12)}, ${toCommit.slice(0, 12)}); list the changed files to find its path.`,
    );
  }
  const binary = (before !== null && looksBinary(before)) || (after !== null && looksBinary(after));
  // ignoreBOM keeps a byte-order mark in the text, so adding or removing one shows as a change.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return {
    path: relative,
    status: !before ? 'added' : !after ? 'deleted' : 'modified',
    before: binary || !before ? '' : decoder.decode(before),
    after: binary || !after ? '' : decoder.decode(after),
    language: languageForPath(relative),
    binary,
  };
}

async function commitOf(repo: ShadowRepo, target: string, options: { trustFullId?: boolean } = {}): Promise<string> {
  if (target === WORKTREE) return (await repo.snapshot('diff against the workspace')).commit;
  if (!target || target.startsWith('-') || /[\s\0]/.test(target))
    throw new Error(`${JSON.stringify(target)} is not a snapshot commit; pass the commit a snapshot returned.`);
  if (options.trustFullId && /^[0-9a-f]{40}$/.test(target)) return target;
  const run = await repo.git(['rev-parse', '-q', '--verify', `${target}^{commit}`], { okExitCodes: [1, 128] });
  if (run.exitCode !== 0)
    throw new Error(
      `The shadow repository ${repo.gitDir} has no snapshot ${JSON.stringify(target)}; it may have been removed with its session.`,
    );
  return run.stdout.toString('utf8').trim();
}

/** The bytes of the file at `relative` in `commit`, or null when it has no file there. */
async function blobAt(repo: ShadowRepo, commit: string, relative: string): Promise<Buffer | null> {
  return (await treeEntryAt(repo, commit, relative))?.bytes ?? null;
}

/** A file as a commit holds it. */
export interface TreeEntry {
  /** Git's mode: '100644', '100755', or '120000' for a symlink (whose bytes are its target). */
  mode: string;
  bytes: Buffer;
}

/** The file at `relative` in `commit`; null when it is not a blob there. */
export async function treeEntryAt(repo: ShadowRepo, commit: string, relative: string): Promise<TreeEntry | null> {
  const listing = await repo.git(['ls-tree', '-z', '--full-tree', commit, '--', relative]);
  const record = listing.stdout.subarray(0, Math.max(0, listing.stdout.indexOf(0)));
  // "<mode> <type> <object>\t<path>"
  const match = /^(\d+) (\w+) ([0-9a-f]+)\t/.exec(record.toString('utf8'));
  if (!match || match[2] !== 'blob') return null;
  return { mode: match[1]!, bytes: (await repo.git(['cat-file', 'blob', match[3]!])).stdout };
}

/**
 * `diff-tree --raw --numstat -z` prints every raw record (":<modes> <objects> <status>\0<path>\0")
 * first, then one numstat record ("<added>\t<deleted>\t<path>\0") per file in the same order;
 * binary files count as "-\t-".
 */
function parseRawAndNumstat(output: Buffer): FileChange[] {
  const tokens = output.toString('utf8').split('\0');
  const raw: { status: FileChange['status']; path: string }[] = [];
  let index = 0;
  while (index < tokens.length && tokens[index]!.startsWith(':')) {
    const letter = tokens[index]!.slice(-1);
    const status = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
    raw.push({ status, path: tokens[index + 1] ?? '' });
    index += 2;
  }
  return raw.map((entry, position) => {
    const counts = /^(\d+|-)\t(\d+|-)\t/.exec(tokens[index + position] ?? '');
    const binary = !counts || counts[1] === '-';
    return {
      path: entry.path,
      status: entry.status,
      additions: binary ? 0 : Number(counts[1]),
      deletions: binary ? 0 : Number(counts[2]),
      binary,
    };
  });
}

const BY_NAME = new Map<string, string>(
  Object.entries({
    dockerfile: 'dockerfile',
    containerfile: 'dockerfile',
    makefile: 'plaintext',
    gnumakefile: 'plaintext',
    '.bashrc': 'shell',
    '.bash_profile': 'shell',
    '.zshrc': 'shell',
    '.profile': 'shell',
    '.env': 'ini',
    '.editorconfig': 'ini',
    '.gitconfig': 'ini',
    '.npmrc': 'ini',
    '.babelrc': 'json',
    '.eslintrc': 'json',
    '.prettierrc': 'json',
    gemfile: 'ruby',
    rakefile: 'ruby',
    'cmakelists.txt': 'plaintext',
  }),
);

// prettier-ignore
const BY_EXTENSION = new Map<string, string>(Object.entries({
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', jsonc: 'json', json5: 'json', webmanifest: 'json',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  py: 'python', pyi: 'python', pyw: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', 'c++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', ino: 'cpp',
  cs: 'csharp', csx: 'csharp',
  css: 'css', scss: 'scss', sass: 'scss', less: 'less',
  html: 'html', htm: 'html', xhtml: 'html', vue: 'html', svelte: 'html',
  xml: 'xml', svg: 'xml', xsd: 'xml', xsl: 'xml', xslt: 'xml', plist: 'xml', csproj: 'xml',
  yaml: 'yaml', yml: 'yaml',
  sh: 'shell', bash: 'shell', zsh: 'shell', ksh: 'shell',
  ps1: 'powershell', psm1: 'powershell', psd1: 'powershell',
  bat: 'bat', cmd: 'bat',
  rb: 'ruby', gemspec: 'ruby',
  php: 'php',
  kt: 'kotlin', kts: 'kotlin',
  swift: 'swift',
  sql: 'sql',
  lua: 'lua',
  pl: 'perl', pm: 'perl',
  r: 'r',
  dart: 'dart',
  scala: 'scala', sc: 'scala',
  clj: 'clojure', cljs: 'clojure', edn: 'clojure',
  ex: 'elixir', exs: 'elixir',
  fs: 'fsharp', fsx: 'fsharp',
  graphql: 'graphql', gql: 'graphql',
  proto: 'proto',
  tf: 'hcl', hcl: 'hcl',
  ini: 'ini', cfg: 'ini', conf: 'ini', properties: 'ini', toml: 'ini',
  dockerfile: 'dockerfile',
  sol: 'sol',
  txt: 'plaintext', log: 'plaintext',
}));

/** Monaco's language id for a file, guessed from its name; 'plaintext' when nothing fits. */
export function languageForPath(filePath: string): string {
  const name = path.posix.basename(filePath.replace(/\\/g, '/')).toLowerCase();
  const byName = BY_NAME.get(name);
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'plaintext';
  return BY_EXTENSION.get(name.slice(dot + 1)) ?? 'plaintext';
}
