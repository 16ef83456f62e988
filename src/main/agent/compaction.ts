import type { ConversationItem, Usage } from '../../shared/conversation';
import type { EventOf, TouchedFile } from '../../shared/events';
import { reduce, type SessionState } from '../../shared/session';
import { fileArgumentOf, toolTraits } from '../../shared/toolCatalog';
import { costOf } from '../model/modelCatalog';
import { ModelError, type ModelProvider, type ToolSpec } from '../model/provider';
import { streamWithRetries, type RetryOptions } from '../model/retry';
import { buildModelItems, defaultContextOptions, type ContextOptions } from './context';
import type { ContextBudget } from './contextBudget';
import { estimateNextRequest, forModel } from './contextBudget';
import compactionPrompt from './prompts/compaction.txt?raw';
import type { SessionLog } from '../store/sessionLog';
import { itemTokens, requestTokens, textTokens } from './tokenCount';
import { trimMiddle } from './trim';

/**
 * Compaction: when the conversation nears the model's context window (or the person asks), the older
 * turns are summarised by the model and the next requests carry [task, summary (+ files touched and
 * the plan), recent turns]. The recent turns are kept word for word, as many as fit a share of the
 * window, cut only where a response or a message begins, so a tool call never loses its result.
 * The log keeps everything; only what the model is sent changes. A summary that fails changes nothing.
 */

export interface CompactionDeps {
  log: SessionLog;
  provider: ModelProvider;
  signal: AbortSignal;
  budget: ContextBudget;
  /** The session's system prompt and tools: only to count the request that follows the compaction. */
  instructions: string;
  tools: readonly ToolSpec[];
  retry?: Partial<RetryOptions>;
  context?: ContextOptions;
}

export type CompactionResult = 'compacted' | 'failed' | 'aborted';

/**
 * Appends context.compacting, then context.compacted or context.compaction_failed. `tokensBefore` is
 * the next request's size where the caller counted it already (the loop's turn); "Compact now" on a
 * stopped session leaves it out and it is counted here.
 */
export async function compactConversation(
  deps: CompactionDeps,
  trigger: 'auto' | 'manual',
  tokensBefore?: number,
): Promise<CompactionResult> {
  const { log } = deps;
  tokensBefore ??= estimateNextRequest(log.state, { instructions: deps.instructions, tools: deps.tools }, deps.context);
  const options = deps.context ?? defaultContextOptions;
  const cut = compactionCut(log.state, Math.floor(deps.budget.contextWindow * deps.budget.keepRecent), options);
  if (cut === undefined) {
    log.append({
      type: 'context.compaction_failed',
      reason: 'There is nothing older to summarise yet: the conversation is only the task and the latest turn.',
    });
    return 'failed';
  }
  log.append({ type: 'context.compacting', trigger, tokensBefore });

  let summary: { text: string; usage: Usage };
  try {
    summary = await summarise(deps, cut, options);
  } catch (error) {
    if (deps.signal.aborted) {
      log.append({ type: 'context.compaction_failed', reason: 'Stopped before the summary was finished; nothing was compacted.' });
      return 'aborted';
    }
    const message = error instanceof ModelError ? error.message : (error as Error).message;
    log.append({
      type: 'context.compaction_failed',
      reason: `The model could not summarise the conversation (${message}); it goes on uncompacted.`,
    });
    return 'failed';
  }

  const costUsd = costOf(summary.usage, deps.budget.price);
  const event: EventOf<'context.compacted'> = {
    type: 'context.compacted',
    summary: summary.text,
    keptFromItem: cut,
    tokensBefore,
    tokensAfter: 0,
    files: touchedFiles(log.state),
    plan: log.state.plan,
    usage: summary.usage,
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
  const after = reduce(log.state, event);
  event.tokensAfter = requestTokens({ instructions: deps.instructions, tools: deps.tools, items: buildModelItems(after, options) });
  log.append(event);
  return 'compacted';
}

/**
 * The index of the first conversation item kept word for word: the earliest place where a response
 * or a message begins such that everything from there fits `keepTokens` (the end, keeping nothing,
 * when even the last turn does not). Undefined when there is nothing older to summarise: the
 * conversation since the task (or since what an earlier compaction covered) is a single turn.
 */
export function compactionCut(
  state: SessionState,
  keepTokens: number,
  options: ContextOptions = defaultContextOptions,
): number | undefined {
  const { items } = state;
  const taskIndex = items.findIndex((item) => item.type === 'user');
  const earliest = Math.max(state.compactions.at(-1)?.keptFromItem ?? 0, taskIndex + 1);
  let cut = items.length;
  let tokens = 0;
  for (let index = items.length - 1; index > earliest; index--) {
    tokens += itemTokens(forModel(items[index]!, options));
    if (tokens > keepTokens) break;
    if (startsTurn(items, index)) cut = index;
  }
  // A conversation of one turn since the task (or the last summary) has nothing older to summarise.
  let turns = 0;
  for (let index = earliest; index < items.length; index++) if (startsTurn(items, index)) turns++;
  return cut > earliest && turns >= 2 ? cut : undefined;
}

/** Where a message or a model response begins: never between a call and its result, nor reasoning and what it led to. */
function startsTurn(items: readonly ConversationItem[], index: number): boolean {
  const item = items[index]!;
  if (item.type === 'user') return true;
  if (item.type === 'tool_result') return false;
  const before = items[index - 1];
  return before === undefined || before.type === 'tool_result' || before.type === 'user';
}

/** One request to the same model: the conversation up to `cut` as a transcript, the summarising prompt, no tools. */
async function summarise(deps: CompactionDeps, cut: number, options: ContextOptions): Promise<{ text: string; usage: Usage }> {
  const earlier = buildModelItems({ ...deps.log.state, items: deps.log.state.items.slice(0, cut) }, options);
  let transcript = renderTranscript(earlier);
  // The transcript must leave room for the prompt and the summary; a conversation past its window is cut in the middle.
  const room = Math.floor(deps.budget.contextWindow * 0.8);
  const tokens = textTokens(transcript);
  if (tokens > room) transcript = trimMiddle(transcript, { maxChars: Math.floor((transcript.length * room) / tokens), headShare: 0.3 });

  const stream = streamWithRetries(
    deps.provider,
    {
      model: deps.log.state.model,
      instructions: compactionPrompt.trim(),
      items: [{ type: 'user', text: `${transcript}\n\n---\nSummarise the conversation above as instructed.` }],
      tools: [],
      signal: deps.signal,
    },
    { ...deps.retry, signal: deps.signal },
  );
  for await (const event of stream) {
    if (event.type !== 'done') continue;
    const text = event.items
      .flatMap((item) => (item.type === 'assistant' ? [item.text] : []))
      .join('\n')
      .trim();
    if (text === '') throw new ModelError('bad_response', 'the model answered with an empty summary');
    return { text, usage: event.usage };
  }
  throw new ModelError('connection', 'the summary stream ended without a complete response');
}

function renderTranscript(items: readonly ConversationItem[]): string {
  const lines: string[] = [];
  for (const item of items) {
    switch (item.type) {
      case 'user':
        lines.push(`[person]\n${item.text}`);
        break;
      case 'assistant':
        lines.push(`[agent]\n${item.text}`);
        break;
      case 'reasoning':
        if (item.summary.trim()) lines.push(`[agent, thinking]\n${item.summary}`);
        break;
      case 'tool_call':
        lines.push(`[agent calls ${item.name}] ${item.arguments}`);
        break;
      case 'tool_result':
        lines.push(`[${item.isError ? 'tool error' : 'tool result'}]\n${item.output}`);
        break;
    }
  }
  return lines.join('\n\n');
}

const MAX_FILES = 200;

/**
 * Every file the session read or changed, in the order it first touched them, by the tools that work
 * on one file (the catalog's `fileArgumentOf`); a file changed once counts as changed.
 */
export function touchedFiles(state: SessionState): TouchedFile[] {
  const files = new Map<string, boolean>();
  for (const call of Object.values(state.toolCalls)) {
    const argument = fileArgumentOf(call.name);
    if (argument === undefined || call.status !== 'ok') continue;
    const edits = toolTraits(call.name)?.changesFiles === 'always';
    let args: unknown;
    try {
      args = JSON.parse(call.arguments);
    } catch {
      continue;
    }
    const file = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[argument] : undefined;
    if (typeof file !== 'string') continue;
    files.set(file, (files.get(file) ?? false) || edits);
  }
  return [...files].slice(0, MAX_FILES).map(([path, edited]) => ({ path, edited }));
}
