import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Progress, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ToolError, type AnyTool } from '../tools/defineTool';
import { McpCallError, type McpConnection } from './mcpConnection';
import { mcpResultText } from './mcpResultText';
import { loadedMcpSdk } from './mcpSdkLoader';

/**
 * An MCP server's tool as a tool of the registry, so it goes through the one runner (validation,
 * permission gate, ledger, timeout, trimming) like any other.
 *
 * - The model sees the server's own JSON schema; arguments are checked against it (ajv, as the SDK
 *   does) so a mistake comes back at once, in words, without a round trip.
 * - Risk is egress: a server can do anything, so every call asks unless a rule allows it, and the
 *   taint gate applies. Its results are outside content and taint the session.
 * - readOnlyHint is the server's own claim, which the MCP spec says not to trust from a server one
 *   does not trust. Only when the person's entry says `"trustReadOnlyHints": true` is a read-only tool
 *   passed to the engine as such; the engine then treats it as reading (no ask, not egress, so it
 *   still works in a tainted session). Its results taint all the same.
 */

// Made with the first tool: a tool exists only once its server started, and so the SDK is loaded.
let validator: AjvJsonSchemaValidator | undefined;
const MAX_DESCRIPTION = 4000;

export function createMcpTool(connection: McpConnection, info: McpToolInfo, name: string): AnyTool {
  const server = connection.spec.name;
  const check = compile(info.inputSchema);
  const parameters = z.record(z.string(), z.unknown()).superRefine((args, ctx) => {
    const problem = check?.(args);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
  const trusted = connection.spec.config?.trustReadOnlyHints === true && info.annotations?.readOnlyHint === true;
  const tool: AnyTool = {
    name,
    description: describe(info, server),
    risk: 'egress',
    parameters: parameters as z.ZodType<unknown>,
    inputSchema: modelSchema(info.inputSchema),
    ...(trusted ? { mcpReadOnly: true } : {}),
    summarize: ((args: Record<string, unknown>) => `${server} › ${info.name} ${preview(args)}`) as (args: never) => string,
    taints: (() => `results from the MCP server "${server}"`) as (args: never) => string,
    execute: (async (args: Record<string, unknown>, ctx) => {
      let result;
      try {
        result = await connection.callTool(info.name, args, {
          signal: ctx.signal,
          onProgress: (progress) => ctx.onOutput(progressLine(progress)),
        });
      } catch (error) {
        if (error instanceof McpCallError) throw new ToolError(error.message);
        throw error;
      }
      const text = mcpResultText(result);
      const isError = result.isError === true;
      return {
        title: `${server} › ${info.name}${isError ? ' failed' : ''}`,
        output: isError
          ? `The MCP server "${server}" answered ${info.name} with an error:\n${text || '(no message)'}`
          : text || '(the tool returned no content)',
        isError,
        metadata: { mcpServer: server, mcpTool: info.name },
      };
    }) as AnyTool['execute'],
  };
  return tool;
}

function describe(info: McpToolInfo, server: string): string {
  const text = (info.description ?? info.title ?? '').trim();
  const cut = text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}…` : text;
  return `${cut}${cut ? '\n\n' : ''}(Tool "${info.name}" of the MCP server "${server}".)`;
}

/** What providers accept as a function's parameters: an object schema, without the `$schema` key. */
function modelSchema(schema: McpToolInfo['inputSchema']): Record<string, unknown> {
  const { $schema: _dropped, ...rest } = schema as Record<string, unknown>;
  return { ...rest, type: 'object', properties: rest.properties ?? {} };
}

/** A check of the arguments against the server's schema, or none when the schema cannot be compiled (the server then judges). */
function compile(schema: McpToolInfo['inputSchema']): ((args: unknown) => string | undefined) | undefined {
  try {
    validator ??= new (loadedMcpSdk().AjvJsonSchemaValidator)();
    const validate = validator.getValidator(schema as Record<string, unknown>);
    return (args) => {
      const result = validate(args);
      return result.valid
        ? undefined
        : `the arguments do not match the tool's schema: ${(result.errorMessage ?? 'invalid').replace(/\bdata\b/g, 'arguments')}`;
    };
  } catch {
    return undefined;
  }
}

function preview(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function progressLine(progress: Progress): string {
  const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return `[progress ${amount}]${progress.message ? ` ${progress.message}` : ''}\n`;
}
