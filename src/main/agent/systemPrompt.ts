import { buildInstructions } from './context';
import { defaultInstructionLimits, readInstructionFiles, type InstructionLimits } from './instructionFiles';
import type { SessionLog } from './sessionLog';

/**
 * The session's system prompt. The workspace root's instruction files are read at the first run that
 * finds any, and logged; every later run builds the prompt from the log, so the prefix the provider
 * caches stays the same bytes even if the files change (files found later go into the conversation).
 */
export function systemPromptFor(log: SessionLog, limits: InstructionLimits = defaultInstructionLimits, now: Date = new Date()): string {
  const { instructions } = log.state;
  if (instructions.system === null) {
    // Files the agent found (or wrote) at the root since are in the conversation already.
    const given = instructions.notes.flatMap((note) => note.files);
    const found = readInstructionFiles(log.state.workspace, [''], {
      limits,
      known: new Set([...given.map((file) => file.path), ...instructions.skipped]),
      usedChars: given.reduce((sum, file) => sum + file.text.length, 0),
    });
    // Nothing found is not logged: the next run looks again, so the prompt can change only between runs.
    if (found.files.length > 0 || found.warnings.length > 0) {
      log.append({
        type: 'instructions.loaded',
        placement: 'system',
        files: found.files,
        warnings: found.warnings,
        ...(found.skipped.length > 0 ? { skipped: found.skipped } : {}),
      });
    }
  }
  return buildInstructions(log.state.workspace, now, log.state.instructions.system ?? []);
}
