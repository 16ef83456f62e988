import type { Json } from '../../shared/json';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import { safeSummary, type GatedTool, type OutsideContent } from './approvalGate';

/**
 * A command's output is outside content too when it ran outside the sandbox, where nothing held its
 * network back; when it may have reached the network (curl, git fetch, a line that cannot be pinned
 * down) and its fence let something through (a domain the project allows, a host the person allowed
 * while it ran): a page it fetched can carry instructions just as fetch_url's can; and when it read
 * outside the workspace. A sandboxed command whose fence lets nothing out brought nothing in from the
 * network, however networked it looks (`node test.js`). Undefined for a call that is not a command.
 */
export function commandTaint(
  tool: Pick<GatedTool, 'name' | 'risk' | 'summarize'>,
  args: unknown,
  brought: OutsideContent,
  metadata: Json | undefined,
  sandbox: CommandSandbox | undefined,
): string | undefined {
  if (tool.risk !== 'exec') return undefined;
  const facts = metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata : {};
  const where = facts.sandbox;
  if (where === 'outside' || where === 'unavailable' || where === 'off')
    return `the output of \`${safeSummary(tool, args)}\`, which ran outside the sandbox (outside content)`;
  const reached = Array.isArray(facts.reachedHosts) && facts.reachedHosts.length > 0;
  const fenceLetsOut = where !== 'sandboxed' || (sandbox?.fence.allowedDomains.length ?? 0) > 0 || reached;
  if (brought.egress && fenceLetsOut)
    return `the output of \`${safeSummary(tool, args)}\`, a command that may reach the network (outside content)`;
  if (brought.readsOutside !== undefined)
    return `the output of \`${safeSummary(tool, args)}\`, which read ${brought.readsOutside} outside the workspace (outside content)`;
  return undefined;
}
