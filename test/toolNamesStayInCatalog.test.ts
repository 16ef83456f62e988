import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from '../src/shared/toolCatalog';

/**
 * What a built-in tool is (only reads, changes files, how it writes, Claude Code's name, ...) is a
 * trait in src/shared/toolCatalog.ts, and nothing else decides by a built-in tool's name: a quoted
 * built-in name in the sources (`name === 'run_command'`, `case 'edit_file':`, a set or table of
 * names) is allowed only in the catalog and in the tool's own file (`name: 'read_file'`, its errors).
 * A second list of the same fact is how two parts of the permission code came to disagree before.
 * So is a rule written out with a tool's name at the start of a string (`'read_file(.env)'`,
 * `` `run_command(${words} *)` ``): a rule's text is built with the catalog's ruleFor.
 */

const root = path.resolve(import.meta.dirname, '..');
const CATALOG = 'src/shared/toolCatalog.ts';
/** The tools' implementations, a record typed by the catalog's names: a key per tool, no fact. */
const IMPLEMENTATIONS = 'src/main/tools/builtinTools.ts';

/** The tool's own file: read_file in src/main/tools/readFile.ts. */
function ownFile(tool: BuiltinToolName): string {
  return `src/main/tools/${tool.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}.ts`;
}

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/**
 * Where a file names a built-in tool outside comments, as a whole string literal (`'read_file'`), as
 * the start of a rule in a string, a template or JSX text (`'read_file(.env)'`, `` `run_command(${text})` ``,
 * `<span>edit_file(src/**)</span>`), or as a key of a table (`run_command: 'Bash'`): `file:line: 'name'`
 * (`'name(` for a rule).
 */
function namedIn(file: string, text: string): string[] {
  if (file === CATALOG || file === IMPLEMENTATIONS) return [];
  const names = BUILTIN_TOOL_NAMES.join('|');
  const literal = new RegExp(`(['"\`])(${names})(?:\\1|\\()|>\\s*(${names})\\(|(?:^|[{,])\\s*(${names})\\s*:(?!:)`, 'g');
  return text.split('\n').flatMap((line, index) =>
    [...(/^\s*(\/\/|\/?\*)/.test(line) ? [] : line.matchAll(literal))].flatMap((match) => {
      const tool = (match[2] ?? match[3] ?? match[4]) as BuiltinToolName;
      return file === ownFile(tool) ? [] : [`${file}:${index + 1}: ${match[0].trim()}`];
    }),
  );
}

describe('the built-in tools’ names', () => {
  it('are decided on only in the tool catalog and in each tool’s own file', () => {
    const found = sources('src').flatMap((file) => namedIn(file, readFileSync(path.join(root, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it('would be found in a switch, a comparison or a table elsewhere (the scan can fail)', () => {
    const planted = [
      "if (tool.name === 'run_command') return true;",
      '  case "edit_file":',
      "const FILE_TOOLS = new Set(['read_file', 'write_file']);",
      'const name = `fetch_url`;',
      "const NAMES = { run_command: 'Bash', read_file: 'Read' };",
      '  search_code: "Grep",',
    ].join('\n');
    expect(namedIn('src/main/hooks/planted.ts', planted)).toEqual([
      "src/main/hooks/planted.ts:1: 'run_command'",
      'src/main/hooks/planted.ts:2: "edit_file"',
      "src/main/hooks/planted.ts:3: 'read_file'",
      "src/main/hooks/planted.ts:3: 'write_file'",
      'src/main/hooks/planted.ts:4: `fetch_url`',
      'src/main/hooks/planted.ts:5: { run_command:',
      'src/main/hooks/planted.ts:5: , read_file:',
      'src/main/hooks/planted.ts:6: search_code:',
    ]);
    // A tool's file may name itself, not another tool; a word inside a sentence is not a decision.
    expect(namedIn('src/main/tools/readFile.ts', "name: 'read_file',\nif (x === 'edit_file') {}")).toEqual([
      "src/main/tools/readFile.ts:2: 'edit_file'",
    ]);
    expect(namedIn('src/main/tools/editFile.ts', "'To create a new file, use write_file.'")).toEqual([]);
    expect(namedIn('src/main/tools/listFiles.ts', 'throw new ToolError(`list_files: x is a file; use read_file: it reads`);')).toEqual([]);
    expect(namedIn('src/main/hooks/planted.ts', ' * What a `read_file` of this file would meet\n// `edit_file`')).toEqual([]);
  });

  it('would find a rule written out with a tool’s name at the start of a string, a template or JSX text (the scan can fail)', () => {
    const planted = [
      "  pattern: 'read_file(.env)',",
      '  return checked(`run_command(${prefix.words.join(" ")} *)`);',
      'const rule = "edit_file(" + folder + "/**)";',
      '<input placeholder="fetch_url(domain:example.com)" />',
      'Write <span className="mono">run_command(npm test *)</span>, <code>list_files(src/**)</code>',
    ].join('\n');
    expect(namedIn('src/main/permissions/planted.ts', planted)).toEqual([
      "src/main/permissions/planted.ts:1: 'read_file(",
      'src/main/permissions/planted.ts:2: `run_command(',
      'src/main/permissions/planted.ts:3: "edit_file(',
      'src/main/permissions/planted.ts:4: "fetch_url(',
      'src/main/permissions/planted.ts:5: >run_command(',
      'src/main/permissions/planted.ts:5: >list_files(',
    ]);
    // Built from the catalog, a rule in a sentence, or one in a comment: no second list of names.
    expect(
      namedIn(
        'src/main/permissions/planted.ts',
        "checked(ruleFor('command', `${text}`));\nconst tool = `${ruleToolOf(access)}(${folder}/**)`;",
      ),
    ).toEqual([]);
    expect(
      namedIn('src/main/permissions/planted.ts', "throw new RuleSyntaxError(text, 'write tool(specifier), e.g. read_file(.env)');"),
    ).toEqual([]);
    expect(
      namedIn('src/main/permissions/planted.ts', " *   one simple command      `run_command(<program> *)`\n// 'edit_file(.git)'"),
    ).toEqual([]);
  });
});
