import { findExecutable } from './findExecutable';
import { runSearchProcess } from './runSearchProcess';
import { PatternSyntaxError } from './compileLinePattern';
import { BackendUnavailableError, MAX_SEARCH_FILE_BYTES, type BinarySink, type MatchSink, type SearchQuery } from './searchQuery';

/** ripgrep prints long lines cut to this many bytes; search_code cuts them shorter still. */
const PREVIEW_BYTES = 4096;

/**
 * The flags that make ripgrep search what the other backends search, the way they search it:
 * PCRE2 matched byte-wise (no Unicode mode, the dialect git grep -P and the built-in engine
 * share), ripgrep's own binary detection (it stops at the first NUL byte of a file it walked
 * into), hidden files included but never `.git`, .gitignore and .git/info/exclude honoured but not
 * .ignore/.rgignore or the global excludes file, no config file, no transcoding.
 */
export function ripgrepArguments(
  query: Pick<SearchQuery, 'folder' | 'pattern' | 'literal' | 'caseSensitive' | 'glob' | 'useIgnoreFiles' | 'inGitRepository'>,
): string[] {
  const args = [
    '--no-config',
    '--null',
    '--line-number',
    '--with-filename',
    '--no-heading',
    '--color=never',
    '--hidden',
    '--encoding=none',
    '--no-unicode',
    `--max-filesize=${MAX_SEARCH_FILE_BYTES}`,
    `--max-columns=${PREVIEW_BYTES}`,
    '--max-columns-preview',
    '--no-ignore-global',
    '--no-ignore-dot',
    '--glob=!.git',
  ];
  if (!query.useIgnoreFiles) args.push('--no-ignore');
  else if (!query.inGitRepository) args.push('--no-require-git', '--no-ignore-parent');
  args.push(query.caseSensitive ? '--case-sensitive' : '--ignore-case');
  args.push(query.literal ? '--fixed-strings' : '--pcre2');
  if (query.glob?.nameGlob) {
    // A type filter narrows by name without overriding .gitignore, which --glob would do.
    args.push(
      `--type-add=searchcode:${query.glob.nameGlob.glob}`,
      query.glob.nameGlob.negated ? '--type-not=searchcode' : '--type=searchcode',
    );
  }
  // Always name the folder: without one, ripgrep would search its stdin when that is a pipe.
  args.push(`--regexp=${query.pattern}`, '--', query.folder === '.' ? './' : query.folder);
  return args;
}

/** The line ripgrep prints after lines of a file it then found to be binary (13.x wording, and the later one). */
const BINARY_NOTICE = /^(.*): (?:WARNING: stopped searching binary file|binary file matches)/s;

/**
 * Runs ripgrep. Each file's lines arrive together (ripgrep writes a file's results at once), and a
 * file that turns out binary after some of its lines were printed is reported to `onBinary`.
 */
export async function ripgrepSearch(query: SearchQuery, sink: MatchSink, onBinary: BinarySink): Promise<void> {
  const rg = findExecutable('rg');
  if (!rg) throw new BackendUnavailableError('ripgrep (rg) is not on PATH');
  let lastPathBytes: Buffer | null = null;
  let lastPath = '';
  let outcome;
  try {
    outcome = await runSearchProcess(rg, ripgrepArguments(query), {
      cwd: query.root,
      signal: query.signal,
      onRecord(record) {
        // path \0 line-number : text
        const nul = record.indexOf(0);
        if (nul === -1) {
          const notice = BINARY_NOTICE.exec(record.toString('utf8'));
          if (notice?.[1] !== undefined) onBinary(normalizeSeparators(notice[1]).replace(/^\.\//, ''));
          return;
        }
        const colon = record.indexOf(58, nul + 1);
        if (colon === -1) return;
        const pathBytes = record.subarray(0, nul);
        if (!lastPathBytes || !pathBytes.equals(lastPathBytes)) {
          lastPathBytes = Buffer.from(pathBytes);
          lastPath = normalizeSeparators(pathBytes.toString('utf8')).replace(/^\.\//, '');
        }
        const line = Number(record.toString('latin1', nul + 1, colon));
        let end = record.length;
        if (end > colon + 1 && record[end - 1] === 13) end--;
        sink(lastPath, line, record.subarray(colon + 1, end));
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EACCES') {
      throw new BackendUnavailableError(`ripgrep could not start: ${(error as Error).message}`);
    }
    throw error;
  }
  if (outcome.code === 2) {
    if (/PCRE2 is not available/i.test(outcome.stderr)) throw new BackendUnavailableError('ripgrep was built without PCRE2');
    const syntax = /((?:PCRE2: )?error compiling pattern[^\n]*|regex parse error:[\s\S]*?error:[^\n]*)/.exec(outcome.stderr);
    if (syntax?.[1]) throw new PatternSyntaxError(`ripgrep: ${syntax[1].replace(/\s*\n\s*/g, ' ').trim()}`);
  }
  // Other exit-2 reports (a file that could not be read) leave the rest of the results valid.
}

function normalizeSeparators(path: string): string {
  return process.platform === 'win32' ? path.replace(/\\/g, '/') : path;
}
