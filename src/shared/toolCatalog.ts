/**
 * The built-in tools' catalog: for each, what a rule naming it matches, which argument a person may
 * edit in its request, and which folder a call of it works in. Declared once here, in the order the
 * model is told about the tools, and read by the rule syntax and the engine, the approval gate's note
 * to the model, the request in the renderer, instruction files, rewinds, and `permissions explain`
 * (main's tools/builtinTools.ts checks that every built-in tool has its entry, and nothing else does).
 */

/**
 * What a rule naming the tool matches: each simple command of a line (`command`), every read or every
 * write of a path by any tool of that family (`read`, `write`), that tool's paths only (`list_files`,
 * `search_code`), a host (`domain`), or the call by name alone (`plain`).
 */
export type RuleFamily = 'command' | 'read' | 'write' | 'list_files' | 'search_code' | 'domain' | 'plain';

/** The argument a person may change in the request before allowing the call, and what its field is called. */
export interface EditableArgument {
  name: 'command' | 'new_string' | 'content';
  label: string;
}

/**
 * The folder a call works in, from one of its string arguments: the folder of the file it names
 * (`file`), or the folder it names (`folder`; absent means the workspace itself).
 */
export interface WorkingFolder {
  argument: 'path' | 'cwd';
  names: 'file' | 'folder';
}

export interface ToolTraits {
  rules: RuleFamily;
  editable?: EditableArgument;
  folder?: WorkingFolder;
}

export const BUILTIN_TOOL_TRAITS = {
  read_file: { rules: 'read', folder: { argument: 'path', names: 'file' } },
  list_files: { rules: 'list_files', folder: { argument: 'path', names: 'folder' } },
  search_code: { rules: 'search_code', folder: { argument: 'path', names: 'folder' } },
  edit_file: { rules: 'write', editable: { name: 'new_string', label: 'new text' }, folder: { argument: 'path', names: 'file' } },
  write_file: { rules: 'write', editable: { name: 'content', label: 'content' }, folder: { argument: 'path', names: 'file' } },
  run_command: { rules: 'command', editable: { name: 'command', label: 'command' }, folder: { argument: 'cwd', names: 'folder' } },
  update_plan: { rules: 'plain' },
  fetch_url: { rules: 'domain' },
} as const satisfies Record<string, ToolTraits>;

export type BuiltinToolName = keyof typeof BUILTIN_TOOL_TRAITS;

/** The built-in tools' names, in the order the model is told about them. */
export const BUILTIN_TOOL_NAMES = Object.keys(BUILTIN_TOOL_TRAITS) as BuiltinToolName[];

/** A built-in tool's traits; undefined for an MCP tool or a name no tool has. */
export function toolTraits(name: string): ToolTraits | undefined {
  return Object.hasOwn(BUILTIN_TOOL_TRAITS, name) ? BUILTIN_TOOL_TRAITS[name as BuiltinToolName] : undefined;
}

/** The built-in tools whose rules match the same calls (edit_file and write_file both name every write). */
export function sameRuleFamily(a: string, b: string): boolean {
  if (a === b) return true;
  const family = toolTraits(a)?.rules;
  return (family === 'read' || family === 'write') && toolTraits(b)?.rules === family;
}

/**
 * What a rule covers beyond the tool it names, in a person's words, for the rule Allow always shows:
 * a read rule covers every reading tool, a write rule every writing tool and a command's redirections.
 * Undefined for a rule that covers only what it names.
 */
export function ruleCoversAlso(rule: string): string | undefined {
  const tool = /^([a-z_]+)\(/.exec(rule.trim())?.[1];
  const family = tool === undefined ? undefined : toolTraits(tool)?.rules;
  if (family === 'read') return 'A read_file rule covers every read of these paths: by read_file, list_files and search_code.';
  if (family === 'write')
    return 'A write rule covers every write of these paths: by edit_file, write_file and the redirections of commands (> file).';
  return undefined;
}
