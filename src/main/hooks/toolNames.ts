/**
 * Claude Code's names for Tether's built-in tools, so a hook's matcher written for Claude Code
 * (`Bash`, `Edit|Write`) matches here, and a script that checks `tool_name == "Bash"` is told `Bash`.
 */
const CLAUDE_CODE_NAMES: Readonly<Record<string, string>> = {
  run_command: 'Bash',
  edit_file: 'Edit',
  write_file: 'Write',
  read_file: 'Read',
  search_code: 'Grep',
  list_files: 'Glob',
  fetch_url: 'WebFetch',
};

/** The name a hook is told: Claude Code's for a tool it has, Tether's otherwise (update_plan, MCP tools). */
export function hookToolName(tool: string): string {
  return Object.hasOwn(CLAUDE_CODE_NAMES, tool) ? (CLAUDE_CODE_NAMES[tool] as string) : tool;
}

/**
 * Whether a matcher names the tool: as Claude Code reads it, a regular expression over the whole
 * name (`Edit|Write`, `mcp__.*`), tried on Claude Code's name and on Tether's; none, `""` or `*` matches all.
 */
export function matcherMatches(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  const pattern = new RegExp(`^(?:${matcher})$`);
  return pattern.test(tool) || pattern.test(hookToolName(tool));
}
