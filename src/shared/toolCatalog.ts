/**
 * The built-in tools' catalog: every fact about a built-in tool that code outside the tool needs (what
 * a rule naming it matches, whether it only reads, whether it may change files, how it writes, what
 * Claude Code calls it, which argument a person may edit, which folder a call of it works in).
 * Declared once here, in the order the model is told about the tools; nothing else decides by a
 * built-in tool's name. Read by the rule syntax and the engine, Allow always, the approval gate's note
 * to the model, hooks, checkpoints and rewinds, the fold, the request and the tool card in the
 * renderer, instruction files, and `permissions explain` (main's tools/builtinTools.ts checks that
 * every built-in tool has its entry, and nothing else does).
 */

/**
 * What a rule naming the tool matches: each simple command of a line (`command`), every read or every
 * write of a path by any tool of that family (`read`, `write`), that tool's paths only (`list_files`,
 * `search_code`: a family named after its one tool), a host (`domain`), or the call by name alone (`plain`).
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
  /**
   * The call reads, or changes nothing, and sends nothing out: it runs unasked in every mode, so the
   * fold does not count it among the calls that acted on their own.
   */
  onlyReads: boolean;
  /** Whether a call may change the workspace's files, so a checkpoint follows it: never, always, or as its command does (the shell analysis says). */
  changesFiles: 'never' | 'always' | 'as its command does';
  /**
   * How a call writes the file it names: it replaces the matched text, in the file's own line endings
   * (`matched text`), or the whole file with the content as given, CRLF kept only where the content
   * has no line endings of its own (`whole file`; a call that creates the file shows all of it as added).
   */
  writes?: 'matched text' | 'whole file';
  /** Claude Code's name for the tool: a hook is told it, and a hook's matcher may name it. */
  claudeCode?: string;
  /** Names other agents give the tool (Claude Code's older ones, Gemini CLI's), so a rule copied from one gets a hint. */
  alsoCalled?: readonly string[];
  editable?: EditableArgument;
  folder?: WorkingFolder;
}

/**
 * The record `satisfies` ToolTraits for every entry: a tool added without a trait every tool must
 * declare (its rule family, whether it only reads, whether it changes files) fails to compile, and the
 * record's keys are the names everything else is typed by.
 */
export const BUILTIN_TOOL_TRAITS = {
  read_file: {
    rules: 'read',
    onlyReads: true,
    changesFiles: 'never',
    claudeCode: 'Read',
    folder: { argument: 'path', names: 'file' },
  },
  list_files: {
    rules: 'list_files',
    onlyReads: true,
    changesFiles: 'never',
    claudeCode: 'Glob',
    alsoCalled: ['LS'],
    folder: { argument: 'path', names: 'folder' },
  },
  search_code: {
    rules: 'search_code',
    onlyReads: true,
    changesFiles: 'never',
    claudeCode: 'Grep',
    folder: { argument: 'path', names: 'folder' },
  },
  edit_file: {
    rules: 'write',
    onlyReads: false,
    changesFiles: 'always',
    writes: 'matched text',
    claudeCode: 'Edit',
    alsoCalled: ['MultiEdit'],
    editable: { name: 'new_string', label: 'new text' },
    folder: { argument: 'path', names: 'file' },
  },
  write_file: {
    rules: 'write',
    onlyReads: false,
    changesFiles: 'always',
    writes: 'whole file',
    claudeCode: 'Write',
    editable: { name: 'content', label: 'content' },
    folder: { argument: 'path', names: 'file' },
  },
  run_command: {
    rules: 'command',
    onlyReads: false,
    changesFiles: 'as its command does',
    claudeCode: 'Bash',
    alsoCalled: ['shell', 'run_shell_command'],
    editable: { name: 'command', label: 'command' },
    folder: { argument: 'cwd', names: 'folder' },
  },
  update_plan: { rules: 'plain', onlyReads: true, changesFiles: 'never' },
  fetch_url: { rules: 'domain', onlyReads: false, changesFiles: 'never', claudeCode: 'WebFetch' },
} as const satisfies Record<string, ToolTraits>;

export type BuiltinToolName = keyof typeof BUILTIN_TOOL_TRAITS;

/** The built-in tools' names, in the order the model is told about them. */
export const BUILTIN_TOOL_NAMES = Object.keys(BUILTIN_TOOL_TRAITS) as BuiltinToolName[];

/** A built-in tool's traits; undefined for an MCP tool or a name no tool has. */
export function toolTraits(name: string): ToolTraits | undefined {
  return Object.hasOwn(BUILTIN_TOOL_TRAITS, name) ? BUILTIN_TOOL_TRAITS[name as BuiltinToolName] : undefined;
}

/**
 * The tool a rule of this family is written with: the family's first tool in the catalog
 * (`read_file(…)` for every read, `edit_file(…)` for every write, `fetch_url(…)` for a host).
 */
export function ruleToolOf(family: RuleFamily): BuiltinToolName {
  const [tool] = toolsOfFamily(family);
  if (tool === undefined) throw new Error(`No built-in tool has the rule family ${family}.`);
  return tool;
}

/**
 * A rule's text for a family, written with its rule tool: `ruleFor('command', 'npm test *')` is
 * `run_command(npm test *)`. Code that writes a rule builds it here, never with a tool's name of its own.
 */
export function ruleFor(family: RuleFamily, specifier: string): string {
  return `${ruleToolOf(family)}(${specifier})`;
}

// Grouped once: the engine asks for a family's rule tool on every path and host it matches.
const TOOLS_OF_FAMILY = new Map<RuleFamily, BuiltinToolName[]>();
for (const name of BUILTIN_TOOL_NAMES) {
  const family: RuleFamily = BUILTIN_TOOL_TRAITS[name].rules;
  TOOLS_OF_FAMILY.set(family, [...(TOOLS_OF_FAMILY.get(family) ?? []), name]);
}

/** The built-in tools whose rule family this is, in the catalog's order. */
export function toolsOfFamily(family: RuleFamily): readonly BuiltinToolName[] {
  return TOOLS_OF_FAMILY.get(family) ?? [];
}

/** The built-in tools a read rule covers: the reading family, and the tools with a rule family of their own that only read. */
export function toolsReadRulesCover(): BuiltinToolName[] {
  return BUILTIN_TOOL_NAMES.filter((name) => {
    const traits: ToolTraits = BUILTIN_TOOL_TRAITS[name];
    return traits.rules === 'read' || (traits.rules === name && traits.onlyReads);
  });
}

/** The built-in tool that a name from another agent (`Bash`, `MultiEdit`, `run_shell_command`; any case) stands for. */
export function toolCalledElsewhere(name: string): BuiltinToolName | undefined {
  const wanted = name.toLowerCase();
  return BUILTIN_TOOL_NAMES.find((tool) => {
    const traits: ToolTraits = BUILTIN_TOOL_TRAITS[tool];
    return [traits.claudeCode, ...(traits.alsoCalled ?? [])].some((other) => other?.toLowerCase() === wanted);
  });
}

/** The argument that names the one file a call works on (Claude Code's `file_path`), for a tool whose path is a file. */
export function fileArgumentOf(name: string): WorkingFolder['argument'] | undefined {
  const folder = toolTraits(name)?.folder;
  return folder?.names === 'file' ? folder.argument : undefined;
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
  if (family === 'read') return `A ${tool} rule covers every read of these paths: by ${inWords(toolsReadRulesCover())}.`;
  if (family === 'write') {
    return `A write rule covers every write of these paths: by ${toolsOfFamily('write').join(', ')} and the redirections of commands (> file).`;
  }
  return undefined;
}

/** `a, b and c`. */
function inWords(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
