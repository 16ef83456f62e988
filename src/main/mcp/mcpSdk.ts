/**
 * What Tether uses of the MCP SDK at run time, in one module loaded only when a server first starts
 * (mcpSdkLoader.ts): the SDK with its zod schemas and ajv takes a few hundred milliseconds to load,
 * which a run or a `tether sessions` with no MCP server should never pay.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { CallToolResultSchema, ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
