import type { AnyTool } from '../tools/defineTool';

/**
 * Whether a call of `tool` may change the workspace's files, so a checkpoint follows it: the edit
 * tools, every command, and every MCP tool except those whose read-only claim the person trusts.
 * Reading, planning and fetching a page change nothing in the workspace.
 */
export function mayChangeFiles(tool: Pick<AnyTool, 'name' | 'risk' | 'mcpReadOnly'>): boolean {
  if (tool.risk === 'edit' || tool.risk === 'exec') return true;
  if (tool.name.startsWith('mcp__')) return tool.mcpReadOnly !== true;
  return false;
}
