import { toolTraits } from '../../shared/toolCatalog';

/**
 * The name a hook is told: Claude Code's for a tool it has (the catalog's `claudeCode`), so a script
 * that checks `tool_name == "Bash"` is told `Bash`; Tether's otherwise (update_plan, MCP tools).
 */
export function hookToolName(tool: string): string {
  return toolTraits(tool)?.claudeCode ?? tool;
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
