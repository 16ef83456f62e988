/**
 * A failure the model caused and can fix; its message goes back to the model as the call's result.
 * It lives in the base layer because the path guard (paths.ts) raises it as well as the tools.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
