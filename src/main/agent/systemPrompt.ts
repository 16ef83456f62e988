import { buildInstructions } from './context';
import { loadInstructionFiles } from './instructionFiles';
import type { SessionLog } from '../store/sessionLog';

/**
 * The session's system prompt. The workspace root's instruction files are read at the first run that
 * finds any, and logged; every later run builds the prompt from the log, so the prefix the provider
 * caches stays the same bytes even if the files change (files found later go into the conversation).
 * Files the agent found (or wrote) at the root since are in the conversation already, and not read
 * again; nothing found is not logged, so the next run looks again and the prompt changes only between runs.
 */
export function systemPromptFor(log: SessionLog): string {
  if (log.state.instructions.system === null) loadInstructionFiles(log, [''], 'system');
  return buildInstructions(log.state.workspace, new Date(), log.state.instructions.system ?? []);
}
