import path from 'node:path';
import { toolTraits } from '../../shared/toolCatalog';
import { commandOnlyReads } from '../shell/commandProofs';
import type { AnyTool } from '../tools/defineTool';

/** The call being weighed: its arguments as allowed, and the workspace it runs in. */
interface CallInWorkspace {
  args: unknown;
  workspaceRoot: string;
}

/**
 * Whether a call of `tool` may change the workspace's files, so a checkpoint follows it: the edit
 * tools, every command but one the shell analysis proves only reads (ls, cat, grep, wc: the
 * same proof that lets the rules run it unasked), and every MCP tool except those whose read-only
 * claim the person trusts. Reading, planning and fetching a page change nothing in the workspace.
 * A checkpoint skipped costs nothing in what a rewind or the live diff can tell: the next one records
 * whatever changed meanwhile, as it does after a read_file.
 */
export function mayChangeFiles(tool: Pick<AnyTool, 'name' | 'risk' | 'mcpReadOnly'>, call?: CallInWorkspace): boolean {
  switch (toolTraits(tool.name)?.changesFiles) {
    case 'never':
      return false;
    case 'always':
      return true;
    case 'as its command does':
      return !(call && runsOnlyReads(call));
  }
  // Not a built-in tool: an MCP tool, or a test's own.
  if (tool.risk === 'edit' || tool.risk === 'exec') return true;
  if (tool.name.startsWith('mcp__')) return tool.mcpReadOnly !== true;
  return false;
}

function runsOnlyReads({ args, workspaceRoot }: CallInWorkspace): boolean {
  if (typeof args !== 'object' || args === null) return false;
  const { command, cwd } = args as { command?: unknown; cwd?: unknown };
  if (typeof command !== 'string' || (cwd !== undefined && typeof cwd !== 'string')) return false;
  return commandOnlyReads(command, { cwd: path.resolve(workspaceRoot, cwd ?? '.'), workspaceRoot });
}
