import type { Workspace } from '../../workspace/workspace';
import { ToolError } from '../defineTool';

/** A path the model gave, after the workspace guard. */
export interface ResolvedPath {
  /** Canonical and inside the workspace. */
  absolute: string;
  /** Relative to the workspace root with forward slashes ('.' for the root), for messages. */
  relative: string;
}

/** Runs the workspace guard and names the tool in its refusal, so the model knows which call failed. */
export function resolvePath(tool: string, workspace: Workspace, given: string): ResolvedPath {
  try {
    const absolute = workspace.resolve(given);
    return { absolute, relative: workspace.relative(absolute) };
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(`${tool}: ${error.message}`);
    throw error;
  }
}
