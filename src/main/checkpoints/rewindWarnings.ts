import path from 'node:path';
import type { RewindWarning, StoredEvent } from '../../shared/events';
import { toolTraits } from '../../shared/toolCatalog';
import type { CommandAnalysis } from '../shell/commandAnalysis';
import { analyzeCommand, initShellParser } from '../shell/analyzeCommand';
import { isInside } from '../workspace/filePaths';

/**
 * What a rewind to the step at `afterSeq` cannot take back: calls that ran after it and reached
 * beyond the workspace's files. Commands are judged by the same shell analysis the permission engine
 * uses: one that may reach the network (curl, npm install, git push, a program not known to be
 * local), that cannot be pinned down, or that writes or names paths outside the workspace. Every
 * fetch_url request and MCP call is listed: their effects live elsewhere.
 */
export async function rewindWarnings(events: readonly StoredEvent[], afterSeq: number, workspace: string): Promise<RewindWarning[]> {
  await initShellParser();
  const warnings: RewindWarning[] = [];
  for (const stored of events) {
    if (stored.seq <= afterSeq || stored.event.type !== 'tool.started') continue;
    const { callId, name, args } = stored.event;
    const fields = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    const rules = toolTraits(name)?.rules;
    if (rules === 'command' && typeof fields.command === 'string') {
      const why = commandReach(fields.command, typeof fields.cwd === 'string' ? fields.cwd : '.', workspace);
      if (why) warnings.push({ callId, tool: name, summary: fields.command, why });
    } else if (rules === 'domain') {
      warnings.push({
        callId,
        tool: name,
        summary: typeof fields.url === 'string' ? fields.url : 'a web request',
        why: 'sent a request over the network',
      });
    } else if (name.startsWith('mcp__')) {
      warnings.push({
        callId,
        tool: name,
        summary: name.split('__').slice(1).join(' › '),
        why: 'called an MCP server, whose effects live outside the workspace',
      });
    }
  }
  return warnings;
}

/** Why a command may have reached beyond the workspace, or undefined when it stayed inside. */
function commandReach(command: string, cwd: string, workspace: string): string | undefined {
  const folder = path.resolve(workspace, cwd);
  let analysis: CommandAnalysis;
  try {
    analysis = analyzeCommand(command, { cwd: folder, workspaceRoot: workspace });
  } catch (error) {
    return `could not be analysed (${(error as Error).message}), so it may have reached outside the workspace`;
  }
  if (analysis.unpinnable) return `could not be pinned down (${analysis.unpinnable}), so it may have reached outside the workspace`;
  const reasons: string[] = [];
  const network = analysis.commands.filter((part) => part.mayReachNetwork).map((part) => part.argv.slice(0, 2).join(' '));
  if (network.length) reasons.push(`may reach the network (${[...new Set(network)].join(', ')})`);
  const outside = new Set<string>();
  for (const part of analysis.commands) {
    for (const target of part.writesTo) if (isOutside(target, folder, workspace)) outside.add(target);
    if (part.readOnly) continue;
    for (const word of part.argv.slice(1)) if (looksLikePath(word) && isOutside(word, folder, workspace)) outside.add(word);
  }
  if (outside.size) reasons.push(`may change files outside the workspace (${[...outside].slice(0, 3).join(', ')})`);
  return reasons.length ? reasons.join('; ') : undefined;
}

const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

function looksLikePath(word: string): boolean {
  return word.startsWith('/') || word.startsWith('~') || word === '..' || word.startsWith('../') || word.includes('/../');
}

function isOutside(target: string, folder: string, workspace: string): boolean {
  if (NOT_FILES.has(target) || target.startsWith('/dev/fd/')) return false;
  if (target.startsWith('~')) return true;
  return !isInside(path.resolve(folder, target), workspace);
}
