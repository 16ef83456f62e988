/**
 * The folder the agent works in. `resolve` is the path guard: every path a tool touches goes
 * through it (see paths.ts for the implementation).
 */
export interface Workspace {
  /** The workspace folder, canonical (realpath). */
  readonly root: string;
  /**
   * The canonical absolute path for a path the model gave (relative to the root, or absolute).
   * Throws a ToolError that says why when the path leaves the workspace.
   */
  resolve(path: string): string;
  /** The path relative to the root, with forward slashes, for messages and rules. */
  relative(absolutePath: string): string;
}
