import os from 'node:os';
import { GUARD_CONFIG, gitEnv } from '../../workspace/git';
import { findExecutable } from './findExecutable';
import { runSearchProcess } from './runSearchProcess';
import { PatternSyntaxError } from './compileLinePattern';
import { BackendUnavailableError, type MatchSink, type SearchQuery } from './searchQuery';

/**
 * `git grep --no-index` walks the folder the way ripgrep does (the files on disk, .gitignore and
 * .git/info/exclude honoured, tracked-but-ignored files skipped, symbolic links not followed).
 * The person's git configuration is kept out so it cannot change the output, and LC_ALL=C keeps
 * -P byte-wise like the other backends. It searches binary files as text (--text) because its
 * own rule looks at the first 8000 bytes only; globs, the size limit and files holding a NUL
 * byte are filtered by search_code afterwards.
 */
export function gitGrepArguments(
  query: Pick<SearchQuery, 'folder' | 'pattern' | 'literal' | 'caseSensitive' | 'useIgnoreFiles'>,
): string[] {
  const args = [...GUARD_CONFIG, '-c', `core.excludesFile=${os.devNull}`, '-c', 'core.quotePath=false', 'grep', '--no-index'];
  if (query.useIgnoreFiles) args.push('--exclude-standard');
  args.push('--null', '--line-number', '--text', '--no-color');
  args.push(query.caseSensitive ? '--no-ignore-case' : '--ignore-case');
  args.push(query.literal ? '--fixed-strings' : '--perl-regexp');
  args.push('-e', query.pattern, '--');
  if (query.folder !== '.') args.push(`:(literal)${query.folder}`);
  return args;
}

export async function gitGrepSearch(query: SearchQuery, sink: MatchSink): Promise<void> {
  const git = findExecutable('git');
  if (!git) throw new BackendUnavailableError('git is not on PATH');
  let lastPathBytes: Buffer | null = null;
  let lastPath = '';
  let outcome;
  try {
    outcome = await runSearchProcess(git, gitGrepArguments(query), {
      cwd: query.root,
      env: gitEnvironment(),
      signal: query.signal,
      onRecord(record) {
        // path \0 line-number \0 text
        const first = record.indexOf(0);
        const second = record.indexOf(0, first + 1);
        if (first === -1 || second === -1) return;
        const pathBytes = record.subarray(0, first);
        if (!lastPathBytes || !pathBytes.equals(lastPathBytes)) {
          lastPathBytes = Buffer.from(pathBytes);
          lastPath = pathBytes.toString('utf8');
        }
        let end = record.length;
        if (end > second + 1 && record[end - 1] === 13) end--;
        sink(lastPath, Number(record.toString('latin1', first + 1, second)), record.subarray(second + 1, end));
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EACCES') {
      throw new BackendUnavailableError(`git could not start: ${(error as Error).message}`);
    }
    throw error;
  }
  if (outcome.code !== 0 && outcome.code !== 1) {
    const message = outcome.stderr.replace(/^(fatal|error): /gm, '').trim();
    if (/not compiled with|PCRE.*not (available|supported)/i.test(message))
      throw new BackendUnavailableError(`git grep cannot use PCRE: ${message}`);
    if (/-e option|command line|pattern|regex|parenthes|bracket|character class|quantifier|escape|lookbehind|group/i.test(message)) {
      throw new PatternSyntaxError(`git grep: ${message}`);
    }
    throw new Error(`git grep failed (exit code ${outcome.code}): ${message}`);
  }
}

function gitEnvironment(): NodeJS.ProcessEnv {
  return { ...gitEnv(), LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull };
}
