type McpSdk = typeof import('./mcpSdk');

let loaded: McpSdk | undefined;

/** Loads the MCP SDK (once); a connection awaits it before its server starts. */
export async function loadMcpSdk(): Promise<McpSdk> {
  loaded ??= await import('./mcpSdk');
  return loaded;
}

/** The SDK once some connection has loaded it; before that no MCP object exists to need it. */
export function loadedMcpSdk(): McpSdk {
  if (!loaded) throw new Error('The MCP SDK is used before any MCP server started; call loadMcpSdk() first.');
  return loaded;
}

/** Whether `error` is the SDK's McpError (with `code`, when given); false while the SDK is not loaded, as nothing can have thrown one. */
export function isMcpError(error: unknown, code?: 'ConnectionClosed' | 'RequestTimeout'): error is InstanceType<McpSdk['McpError']> {
  if (!loaded || !(error instanceof loaded.McpError)) return false;
  return code === undefined || error.code === loaded.ErrorCode[code];
}
