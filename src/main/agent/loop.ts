import type { ConversationItem, Usage } from '../../shared/conversation';
import type { LiveEvent, SessionEndStatus } from '../../shared/events';
import { isFinished, unfinishedCalls } from '../../shared/session';
import { ModelError, type ModelErrorKind, type ModelProvider } from '../model/provider';
import { DEFAULT_RETRY, streamWithRetries, type RetryOptions } from '../model/retry';
import { settleQuestions } from '../permissions/approvalGate';
import { executeToolCall, type ToolRunnerDeps } from '../tools/execute';
import { costOf } from '../model/modelCatalog';
import { compactConversation } from './compaction';
import { buildModelItems, defaultContextOptions, type ContextOptions } from './context';
import { estimateNextRequest, type ContextBudget } from './contextBudget';
import { folderWorkedIn, foldersUpToRoot, loadInstructionFiles } from './instructionFiles';
import type { SessionLog } from '../store/sessionLog';
import { ShuttingDown } from '../process/shuttingDown';

/**
 * The agent loop: ask the model, run the tools it asks for, feed the results back, and stop when it
 * answers in plain text, when maxSteps is reached, when the model fails for good, or when aborted.
 * Every step is appended to the log before it is acted on, so the loop can stop anywhere and resume.
 */

export interface LoopDeps extends ToolRunnerDeps {
  provider: ModelProvider;
  instructions: string;
  /** Messages the person sent while the agent worked; taken before each model request. */
  takeQueuedMessages?(): string[];
  retry?: Partial<RetryOptions>;
  context?: ContextOptions;
  /** The model's window, when to compact, and its prices. Without one, nothing is budgeted or priced. */
  budget?: ContextBudget;
  /** True once when the person asked to compact ("Compact now") since the last turn began. */
  takeCompactRequest?(): boolean;
}

export interface LoopOutcome {
  status: SessionEndStatus;
  reason: string;
  /** The model request that ended the run, when one did: the UI offers settings for it. */
  modelFailure?: { kind: ModelErrorKind; status?: number };
}

/** What one turn came to (the openai-agents shape: run again, or stop with a reason). */
type TurnResult = { next: 'run_again' } | ({ next: 'stop' } & LoopOutcome);

/** What one run remembers between turns. */
interface RunMemory {
  /** An automatic compaction failed in this run: it is not tried again each turn, only if the request cannot fit. */
  compactionFailed: boolean;
  /** A Stop hook kept the model going in this run (Claude Code's `stop_hook_active`, so a hook can avoid looping). */
  stopHookActive: boolean;
}

export async function runLoop(deps: LoopDeps): Promise<LoopOutcome> {
  let outcome: LoopOutcome;
  try {
    outcome = await runUntilStopped(deps);
  } catch (error) {
    // The host closed while the session waited for the person: the log stays as it is, the question open.
    if (error instanceof ShuttingDown) return { status: 'aborted', reason: error.message };
    throw error;
  }
  deps.log.append({
    type: 'session.finished',
    status: outcome.status,
    reason: outcome.reason,
    ...(outcome.modelFailure ? { modelFailure: outcome.modelFailure } : {}),
  });
  return outcome;
}

async function runUntilStopped(deps: LoopDeps): Promise<LoopOutcome> {
  const { log } = deps;
  const firstStep = log.state.steps;
  const blocked = await runStartHooks(deps);
  if (blocked) return blocked;
  const settled = await settleUnfinishedCalls(deps);
  if (settled) return settled;
  const memory: RunMemory = { compactionFailed: false, stopHookActive: false };
  for (;;) {
    if (deps.signal.aborted) return aborted(deps.signal);
    const stepsThisRun = log.state.steps - firstStep;
    if (stepsThisRun >= log.state.maxSteps) {
      return {
        status: 'max_steps',
        reason: `Stopped after ${stepsThisRun} model requests (maxSteps is ${log.state.maxSteps}) without a final answer. Continue the session, or raise maxSteps.`,
      };
    }
    const result = await runTurn(deps, memory);
    if (result.next === 'stop') {
      const { next: _next, ...outcome } = result;
      return outcome;
    }
  }
}

async function runTurn(deps: LoopDeps, memory: RunMemory): Promise<TurnResult> {
  const { log } = deps;
  for (const text of deps.takeQueuedMessages?.() ?? []) {
    log.append({ type: 'user.messaged', text });
    const blocked = await promptHooks(deps, text);
    if (blocked) return { next: 'stop', ...blocked };
  }
  const budgeted = await keepWithinBudget(deps, memory);
  if ('next' in budgeted) return budgeted;
  log.append({
    type: 'model.requested',
    step: log.state.steps + 1,
    ...(deps.budget ? { estimatedTokens: budgeted.tokens, contextWindow: deps.budget.contextWindow } : {}),
  });

  let response: { items: ConversationItem[]; usage: Usage };
  try {
    response = await requestModel(deps);
  } catch (error) {
    if (deps.signal.aborted) return { next: 'stop', ...aborted(deps.signal) };
    if (error instanceof ModelError) return { next: 'stop', status: 'failed', reason: error.message, modelFailure: modelFailureOf(error) };
    return { next: 'stop', status: 'failed', reason: `The model request failed: ${(error as Error).message}` };
  }
  const costUsd = costOf(response.usage, deps.budget?.price);
  // Nothing acts on the response itself: its calls each append what they do first.
  log.record({ type: 'model.responded', items: response.items, usage: response.usage, ...(costUsd !== undefined ? { costUsd } : {}) });

  const calls = response.items.filter((item) => item.type === 'tool_call');
  if (calls.length === 0) {
    // A Stop hook may send the model back to work; what it says is logged and is the model's next note.
    if (deps.hooks?.has('Stop') && !deps.signal.aborted) {
      const answer = response.items.findLast((item) => item.type === 'assistant');
      const said = await deps.hooks.forSession('Stop', {
        stop_hook_active: memory.stopHookActive,
        last_assistant_message: answer?.type === 'assistant' ? answer.text : '',
      });
      if (said.blocked !== undefined) {
        memory.stopHookActive = true;
        return { next: 'run_again' };
      }
    }
    return { next: 'stop', status: 'done', reason: 'The model answered.' };
  }
  for (const call of calls) {
    if (deps.signal.aborted) break;
    await executeToolCall(call, deps);
  }
  findInstructionFiles(deps, calls);
  const settled = await settleUnfinishedCalls(deps);
  return settled ? { next: 'stop', ...settled } : { next: 'run_again' };
}

/**
 * Before a request: compacts the conversation when the person asked, or when the request would fill
 * more than the budget's share of the window. A request that cannot fit a known window even then
 * stops the session with a clear reason rather than being sent to fail.
 */
async function keepWithinBudget(deps: LoopDeps, memory: RunMemory): Promise<{ tokens: number } | TurnResult> {
  const { log, budget } = deps;
  const manual = deps.takeCompactRequest?.() ?? false;
  if (!budget) return { tokens: 0 };
  const request = { instructions: deps.instructions, tools: deps.tools.specs() };
  // Counted exactly only where the count decides something: past the compaction line or the window,
  // or for a compaction the person asked for (its size before is logged).
  const exactFrom = manual ? 0 : budget.contextWindow * Math.min(budget.compactAt, 1);
  let tokens = estimateNextRequest(log.state, request, deps.context, exactFrom);
  // Past a known window the request would fail anyway: then a summary is worth another try, failed or not.
  const full = budget.windowKnown && tokens > budget.contextWindow;
  if (manual || (tokens > budget.compactAt * budget.contextWindow && (!memory.compactionFailed || full))) {
    const result = await compactConversation(
      {
        log,
        provider: deps.provider,
        signal: deps.signal,
        budget,
        ...request,
        ...(deps.retry ? { retry: deps.retry } : {}),
        ...(deps.context ? { context: deps.context } : {}),
      },
      manual ? 'manual' : 'auto',
      tokens,
    );
    if (result === 'aborted') return { next: 'stop', ...aborted(deps.signal) };
    // The compaction counted the request it leaves (tokensAfter, in the state); a failed one changed nothing.
    if (result === 'compacted') tokens = log.state.context.tokens;
    // A failed summary, or one that left the request over the line (a huge prompt or tool list), is not retried every turn.
    if (!manual && (result === 'failed' || tokens > budget.compactAt * budget.contextWindow)) memory.compactionFailed = true;
  }
  if (budget.windowKnown && tokens > budget.contextWindow) {
    const why = log.state.context.warning ? ` (${log.state.context.warning})` : '';
    return {
      next: 'stop',
      status: 'failed',
      reason:
        `The next request needs about ${tokens.toLocaleString('en-US')} tokens, more than the ${budget.contextWindow.toLocaleString('en-US')}-token context window of ${log.state.model}, and compacting did not make it fit${why}. ` +
        'Try "Compact now" again, start a new session from a summary of this one, or set a larger contextWindow for this model in settings if it has one.',
    };
  }
  return { tokens };
}

/**
 * After the calls of a turn: instruction files in the folders they worked in (and the folders up to
 * the root) that the session has not seen yet are logged, and so reach the model, nearest first.
 */
function findInstructionFiles(deps: LoopDeps, calls: readonly ConversationItem[]): void {
  const { log } = deps;
  const { workspace } = log.state;
  const folders: string[] = [];
  for (const call of calls) {
    if (call.type !== 'tool_call' || log.state.toolCalls[call.callId]?.status !== 'ok') continue;
    let args: unknown;
    try {
      args = JSON.parse(call.arguments);
    } catch {
      continue;
    }
    const folder = folderWorkedIn(workspace, call.name, args);
    if (folder === undefined) continue;
    for (const candidate of foldersUpToRoot(folder)) if (!folders.includes(candidate)) folders.push(candidate);
  }
  if (folders.length > 0) loadInstructionFiles(log, folders, 'conversation');
}

async function requestModel(deps: LoopDeps): Promise<{ items: ConversationItem[]; usage: Usage }> {
  const { log } = deps;
  const live = (event: LiveEvent) => deps.onLive(event);
  const stream = streamWithRetries(
    deps.provider,
    {
      model: log.state.model,
      instructions: deps.instructions,
      items: buildModelItems(log.state, deps.context ?? defaultContextOptions),
      tools: deps.tools.specs(),
      signal: deps.signal,
      cacheKey: log.sessionId,
    },
    { ...deps.retry, signal: deps.signal },
  );
  for await (const event of stream) {
    switch (event.type) {
      case 'text_delta':
        live({ type: 'model.text_delta', sessionId: log.sessionId, text: event.text });
        break;
      case 'reasoning_delta':
        live({ type: 'model.reasoning_delta', sessionId: log.sessionId, text: event.text });
        break;
      case 'retrying':
        log.append({
          type: 'model.retrying',
          attempt: event.attempt,
          delayMs: event.delayMs,
          reason: event.reason,
          maxAttempts: deps.retry?.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
        });
        break;
      case 'done':
        return { items: event.items, usage: event.usage };
    }
  }
  throw new ModelError('connection', 'The model stream ended without a complete response.');
}

/**
 * A run's first hooks: SessionStart (their context is logged for the model), then UserPromptSubmit for
 * the message the run answers, when the conversation ends with one. A UserPromptSubmit hook that
 * blocks stops the run before the model sees the message, with its reason.
 */
async function runStartHooks(deps: LoopDeps): Promise<LoopOutcome | undefined> {
  const { hooks, log } = deps;
  if (!hooks) return undefined;
  if (hooks.has('SessionStart')) {
    const resumed = log.state.steps > 0 || log.state.endings.length > 0 || log.state.status === 'done';
    await hooks.forSession('SessionStart', { source: resumed ? 'resume' : 'startup' });
  }
  const last = log.state.items.at(-1);
  return last?.type === 'user' ? promptHooks(deps, last.text) : undefined;
}

async function promptHooks(deps: LoopDeps, prompt: string): Promise<LoopOutcome | undefined> {
  if (!deps.hooks?.has('UserPromptSubmit')) return undefined;
  const said = await deps.hooks.forSession('UserPromptSubmit', { prompt });
  if (said.blocked === undefined) return undefined;
  return { status: 'failed', reason: `A UserPromptSubmit hook blocked the message, so the model was not asked: ${said.blocked}` };
}

/**
 * Makes sure every call the model asked for has a result before the next request. A call that
 * started and never finished (the process died) is not run again: its outcome is unknown and the
 * model is told so. One that never started runs now, through the same gate as any other.
 */
async function settleUnfinishedCalls(deps: LoopDeps): Promise<LoopOutcome | undefined> {
  const { log } = deps;
  for (const call of unfinishedCalls(log.state)) {
    if (deps.signal.aborted) break;
    if (call.status === 'running') {
      // A question it asked while it ran (run it again outside the sandbox?) is moot now.
      settleQuestions(log, call.callId, {
        action: 'deny',
        scope: 'once',
        by: 'policy',
        message: 'Tether stopped while this question waited; the call it was about has an unknown outcome.',
      });
      log.append({
        type: 'tool.finished',
        callId: call.callId,
        name: call.name,
        outcome: 'unknown',
        title: `Outcome unknown: ${call.name}`,
        output:
          `Outcome unknown: Tether stopped while ${call.name} was running, so its result was never recorded. ` +
          'It was not run again. Check its effects (files, processes) before you repeat it.',
        durationMs: 0,
      });
    } else {
      await executeToolCall({ type: 'tool_call', callId: call.callId, name: call.name, arguments: call.arguments }, deps);
    }
  }
  if (!deps.signal.aborted) return undefined;
  for (const call of unfinishedCalls(log.state)) {
    if (isFinished(call.status)) continue;
    log.append({
      type: 'tool.finished',
      callId: call.callId,
      name: call.name,
      outcome: 'aborted',
      title: `Not run: ${call.name}`,
      output: 'Not run: the session was stopped before this call started.',
      durationMs: 0,
    });
  }
  return aborted(deps.signal);
}

function aborted(signal: AbortSignal): LoopOutcome {
  return { status: 'aborted', reason: signal.reason instanceof ShuttingDown ? signal.reason.message : 'Stopped by the person.' };
}

/** What the log keeps of a model error that ended a run: its kind, and its HTTP status when it had one. */
export function modelFailureOf(error: ModelError): NonNullable<LoopOutcome['modelFailure']> {
  return { kind: error.kind, ...(error.options.status !== undefined ? { status: error.options.status } : {}) };
}
