import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './defineTool';
import description from './searchCode.txt?raw';
import { missingPathError } from './files/missingPathError';
import { resolvePath } from './files/resolvePath';
import { PatternSyntaxError } from './search/compileLinePattern';
import { searchFiles } from './search/searchFiles';
import type { SearchBackend } from './search/searchQuery';

const DEFAULT_MAX_RESULTS = 200;
const MAX_RESULTS = 2000;

const parameters = z.object({
  pattern: z.string().min(1).describe('What to find on a line: a regular expression in PCRE2 syntax, or plain text when literal is true.'),
  literal: z.boolean().optional().describe('Search for pattern as plain text instead of a regular expression. Default false.'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only files matching this glob: "*.ts" matches names in any folder, "src/**" paths from the workspace root, "!*.md" excludes.',
    ),
  path: z.string().optional().describe('Folder or file to search, relative to the workspace root. Default: the whole workspace.'),
  caseSensitive: z.boolean().optional().describe('Whether letter case must match exactly. Default true.'),
  maxResults: z
    .number()
    .int()
    .min(1)
    .max(MAX_RESULTS)
    .optional()
    .describe(`Most matching lines to return, sorted by path and line. Default ${DEFAULT_MAX_RESULTS}, at most ${MAX_RESULTS}.`),
});

/**
 * Builds search_code. The backend is chosen per call (ripgrep, else git grep in a repository,
 * else the built-in engine) unless one is forced, which tests and benchmarks do.
 */
export function createSearchCode(options: { backend?: SearchBackend } = {}) {
  return defineTool({
    name: 'search_code',
    description,
    risk: 'read',
    parameters,
    subject: ({ path }) => ({ kind: 'paths', access: 'read', paths: [path ?? '.'] }),
    summarize: ({ pattern, path, glob }) =>
      `Search for ${JSON.stringify(pattern)} in ${path ?? 'the workspace'}${glob ? ` (files matching ${glob})` : ''}`,
    async execute(args, ctx) {
      if (/[\r\n]/.test(args.pattern)) {
        throw new ToolError(
          'search_code: the pattern contains a line break, but search_code matches one line at a time; search for a single line of it.',
        );
      }
      const target = resolvePath('search_code', ctx.workspace, args.path ?? '.');
      if (target.relative.split('/').includes('.git')) {
        throw new ToolError(
          `search_code: ${target.relative} is inside .git, which search_code does not search; use run_command with git commands for repository data.`,
        );
      }
      let stat: fs.Stats;
      try {
        stat = fs.statSync(target.absolute);
      } catch {
        throw missingPathError('search_code', ctx.workspace, target.absolute);
      }
      if (!stat.isFile() && !stat.isDirectory()) {
        throw new ToolError(`search_code: ${target.relative} is neither a file nor a folder; give a folder or a file to search.`);
      }
      const caseSensitive = args.caseSensitive ?? true;
      const maxResults = args.maxResults ?? DEFAULT_MAX_RESULTS;
      let result;
      try {
        result = await searchFiles({
          root: ctx.workspace.root,
          path: target.relative,
          isFile: stat.isFile(),
          pattern: args.pattern,
          literal: args.literal ?? false,
          caseSensitive,
          glob: args.glob,
          maxResults,
          signal: ctx.signal,
          backend: options.backend,
        });
      } catch (error) {
        if (error instanceof PatternSyntaxError) {
          throw new ToolError(
            `search_code: the pattern ${JSON.stringify(args.pattern)} is not a valid regular expression (${error.message}). ` +
              'The syntax is PCRE2: escape special characters such as ( [ . * + ? with a backslash, or set literal: true to search for plain text.',
          );
        }
        throw error;
      }

      // A file the rules keep from being read (read_file(.env) denied, say) gives no lines here either.
      const shown = result.matches.filter((match) => ctx.canRead(path.join(ctx.workspace.root, match.path)));
      const withheld = result.matches.length - shown.length;
      const where = target.relative === '.' ? 'the workspace' : target.relative;
      const scope = `${where}${args.glob ? ` (files matching ${args.glob})` : ''}`;
      const notes: string[] = [];
      if (withheld > 0)
        notes.push(
          `[${withheld} matching line${withheld === 1 ? ' was' : 's were'} left out: they are in files the permission rules do not let you read.]`,
        );
      if (!result.ignoreFilesApplied)
        notes.push(`[${target.relative} is ignored by .gitignore; it was searched anyway, without ignore rules.]`);
      let output: string;
      if (result.totalMatches === 0) {
        const hint = caseSensitive ? ' The search was case-sensitive; set caseSensitive: false to ignore case.' : '';
        output = `No matches for ${JSON.stringify(args.pattern)} in ${scope}.${hint}`;
      } else {
        output = shown.map((match) => `${match.path}:${match.line}:${match.text}`).join('\n');
        if (result.totalMatches > result.matches.length) {
          notes.push(
            `[Showing the first ${result.matches.length} of ${result.totalMatches} matching lines in ${result.totalFiles} files, sorted by path. ` +
              `Narrow the search with path, glob or a more specific pattern${maxResults < MAX_RESULTS ? `, or raise maxResults (at most ${MAX_RESULTS})` : ''}.]`,
          );
        }
      }
      if (notes.length) output += `\n\n${notes.join('\n')}`;
      return {
        title:
          result.totalMatches === 0
            ? `No matches for ${JSON.stringify(args.pattern)} in ${scope}`
            : `Found ${result.totalMatches} matching line${result.totalMatches === 1 ? '' : 's'} in ${result.totalFiles} file${result.totalFiles === 1 ? '' : 's'}`,
        output,
        metadata: {
          pattern: args.pattern,
          path: target.relative,
          totalMatches: result.totalMatches,
          totalFiles: result.totalFiles,
          shown: shown.length,
          backend: result.backend,
        },
      };
    },
  });
}

export const searchCode = createSearchCode();
