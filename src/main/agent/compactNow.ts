import type { ModelProvider, ToolSpec } from '../model/provider';
import type { RetryOptions } from '../model/retry';
import { compactConversation, type CompactionResult } from './compaction';
import { estimateNextRequest, type ContextBudget } from './contextBudget';
import type { SessionLog } from './sessionLog';

export interface CompactNowDeps {
  log: SessionLog;
  provider: ModelProvider;
  budget: ContextBudget;
  instructions: string;
  tools: readonly ToolSpec[];
  signal: AbortSignal;
  retry?: Partial<RetryOptions>;
}

/**
 * "Compact now" on a session that is not working: the compaction runs on its own, and the next run
 * (the person's next message) starts from it. A working session compacts at its next turn instead.
 */
export async function compactNow(deps: CompactNowDeps): Promise<CompactionResult> {
  const tokens = estimateNextRequest(deps.log.state, { instructions: deps.instructions, tools: deps.tools });
  return compactConversation(
    {
      log: deps.log,
      provider: deps.provider,
      signal: deps.signal,
      budget: deps.budget,
      instructions: deps.instructions,
      tools: deps.tools,
      ...(deps.retry ? { retry: deps.retry } : {}),
    },
    'manual',
    tokens,
  );
}
