/**
 * A failure the model caused and can fix; its message goes back to the model as the call's result.
 * It lives in shared, below every layer of the core, because the path guard (workspace/paths.ts) raises it
 * as well as the tools.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
