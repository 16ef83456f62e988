import { createHash } from 'node:crypto';

/**
 * The names MCP tools get in the model's list: `mcp__<server>__<tool>`, within what every provider
 * accepts (^[a-zA-Z0-9_-]{1,64}$). The server part never holds "__" nor starts or ends with "_", so the
 * permission rules (`mcp__server__*`, `mcp__server`) can always find where it ends. A name cut to fit
 * keeps a short hash of the original, and a clash (two tools that sanitise alike) gets `_2`, `_3`...
 * in the order the tools were named, which is the order servers are configured and tools are listed.
 */

const MAX_LENGTH = 64;
const MAX_SERVER_LENGTH = 24;

export function serverSegment(server: string): string {
  const cleaned = server
    .replace(/[^A-Za-z0-9-]/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_SERVER_LENGTH)
    .replace(/_+$/, '');
  return cleaned === '' ? 'server' : cleaned;
}

function toolSegment(tool: string): string {
  const cleaned = tool.replace(/[^A-Za-z0-9_-]/g, '_');
  return cleaned === '' ? 'tool' : cleaned;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}

function fit(prefix: string, tool: string, suffix: string, original: string): string {
  const room = MAX_LENGTH - prefix.length - suffix.length;
  if (tool.length <= room) return `${prefix}${tool}${suffix}`;
  const hash = `_${shortHash(original)}`;
  return `${prefix}${tool.slice(0, room - hash.length)}${hash}${suffix}`;
}

/** Hands out unique names for one tool list. */
export class McpToolNames {
  private readonly used = new Set<string>();

  constructor(taken: Iterable<string> = []) {
    for (const name of taken) this.used.add(name);
  }

  name(server: string, tool: string): string {
    const prefix = `mcp__${serverSegment(server)}__`;
    const segment = toolSegment(tool);
    let candidate = fit(prefix, segment, '', tool);
    for (let n = 2; this.used.has(candidate); n++) candidate = fit(prefix, segment, `_${n}`, tool);
    this.used.add(candidate);
    return candidate;
  }
}
