import type { ConversationItem, ModelApi, Usage } from './conversation';
import { addUsage, zeroUsage } from './conversation';
import { itemCount, type ConversationState } from './conversationState';
import { isUnpriced } from './costs';
import type { EventOf, QuarantinedRepository, SessionEvent, SessionEndStatus, StoredEvent, ToolOutcome } from './events';
import type { Decision } from './permissions';
import {
  addMessagePoint,
  applyCheckpointCreated,
  applyCheckpointFailed,
  applyRewindUndone,
  applyRewound,
  initialRewindState,
  type RewindState,
} from './rewinds';
import type { Json } from './json';
import { toolTraits } from './toolCatalog';

/**
 * The one fold over a session's log. Main uses it to resume a session and to build the next model
 * request; the renderer uses it to draw. It is pure and never throws on a well-formed event.
 */

export type ToolCallStatus = 'pending' | 'awaiting_approval' | 'running' | ToolOutcome;

export interface ToolCallView {
  callId: string;
  name: string;
  /** The raw JSON text the model wrote. */
  arguments: string;
  status: ToolCallStatus;
  title?: string;
  output?: string;
  durationMs?: number;
  /** Time spent waiting for the person, shown apart from the duration. */
  waitedMs?: number;
  metadata?: Json;
  approvalId?: string;
  /** A person (or the headless stand-in) was asked about this call: before it ran, or while it ran (run it again outside the sandbox?). */
  asked?: true;
  /** The seq of its tool.started: it ran (or began to), at that place in the log. */
  startedSeq?: number;
  /** Git repositories the call left that could run programs, and what Tether moved aside (repository.quarantined). */
  quarantined?: QuarantinedRepository[];
  /** Hooks that ran for the call and failed (timed out, crashed, printed bad JSON), in words for its card (hook.ran). */
  hookProblems?: string[];
}

/** Whether the call ran (began to) with no question asked about it: allowed by a rule or by the mode (auto, auto-edit, a read-only command). */
export function ranUnasked(call: Pick<ToolCallView, 'startedSeq' | 'asked'>): boolean {
  return call.startedSeq !== undefined && call.asked !== true;
}

/** Whether the call is one that acted on its own: it ran unasked and is not a tool that only reads (what `ranUnasked` in the state lists). */
export function actedUnasked(call: Pick<ToolCallView, 'name' | 'startedSeq' | 'asked'>): boolean {
  // A tool that only reads (or changes nothing) runs without a question in every mode, so it is not
  // counted. Every other call is: a command, an edit, a fetch, an MCP tool.
  return ranUnasked(call) && toolTraits(call.name)?.onlyReads !== true;
}

export type WorktreeView = Omit<EventOf<'worktree.created'>, 'type'> & { finished?: Omit<EventOf<'worktree.finished'>, 'type'> };

export type ApprovalView = Omit<EventOf<'approval.asked'>, 'type'> & { decision?: Decision };

/** A model request failed and will be tried again: shown while the session waits for the next try. */
export interface RetryingView {
  /** The try that comes next (2 after the first failed), out of `maxAttempts` when the log says. */
  nextAttempt: number;
  maxAttempts?: number;
  delayMs: number;
  /** What failed, as the model layer put it. */
  reason: string;
}

/** One time the session stopped other than by answering, kept at its place in the conversation. */
export interface EndingView {
  /** How many conversation items there were when it stopped: the notice sits after them. */
  atItem: number;
  status: Exclude<SessionEndStatus, 'done'>;
  reason: string;
  modelFailure?: EventOf<'session.finished'>['modelFailure'];
}

/** Where a session is, as the sidebar shows it. */
export type SessionStatus = 'new' | 'working' | 'waiting' | SessionEndStatus;

export interface SessionState extends ConversationState, RewindState {
  status: SessionStatus;
  workspace: string;
  model: string;
  api: ModelApi;
  baseUrl: string;
  maxSteps: number;
  toolCalls: Record<string, ToolCallView>;
  approvals: Record<string, ApprovalView>;
  /** Approvals still waiting for an answer, oldest first. */
  pendingApprovals: string[];
  /** Model requests made so far. */
  steps: number;
  usage: Usage;
  /** What the priced responses cost, in US dollars. */
  costUsd: number;
  /** Responses whose model had no known price: while any, `costUsd` is not the whole cost. */
  unpricedResponses: number;
  /** Why the session last stopped, for a person. */
  endReason?: string;
  /** What the last session.finished said of a failed model request, until the session runs again. */
  modelFailure?: EventOf<'session.finished'>['modelFailure'];
  /** Every stop that was not an answer (failed, stopped, out of steps), oldest first: they stay in the conversation. */
  endings: EndingView[];
  /** The model request is being tried again after a failure; cleared once a response, or the end, comes. */
  retrying?: RetryingView;
  /** Outside content the session has read, oldest first; while any, egress asks first. */
  taints: string[];
  /** How runs of this session turned the sandbox off (`tether run --no-sandbox`), oldest first; empty when none did. */
  unsandboxedRuns: string[];
  /**
   * Calls that ran with no question about them, in the order they started: commands, edits, fetches
   * and MCP calls (not the tools that only read). Derived from the log (a tool.started with no
   * approval.asked for its call id); a question asked while a call ran takes it off.
   */
  ranUnasked: string[];
  /** The session's own git worktree, when it works in one. */
  worktree?: WorktreeView;
  /** What session hooks (SessionStart, UserPromptSubmit, Stop) told the model, each where it happened in the conversation. */
  hookNotes: HookNote[];
  lastSeq: number;
}

/** A session hook's text for the model, before the conversation item `atItem` (or at its end). */
export interface HookNote {
  atItem: number;
  hookEvent: EventOf<'hook.ran'>['hookEvent'];
  text: string;
}

export const initialSessionState: SessionState = {
  status: 'new',
  workspace: '',
  model: '',
  api: 'responses',
  baseUrl: '',
  maxSteps: 50,
  items: [],
  itemsFrom: 0,
  toolCalls: {},
  plan: [],
  approvals: {},
  pendingApprovals: [],
  steps: 0,
  usage: zeroUsage,
  costUsd: 0,
  unpricedResponses: 0,
  instructions: { system: null, notes: [], warnings: [], skipped: [] },
  context: { tokens: 0, basis: null, compacting: false },
  compactions: [],
  endings: [],
  taints: [],
  unsandboxedRuns: [],
  ranUnasked: [],
  reverts: [],
  hookNotes: [],
  ...initialRewindState,
  lastSeq: 0,
};

/** Folds one event. */
export function reduce(state: SessionState, event: SessionEvent): SessionState {
  const draft = new Draft(state);
  apply(draft, event);
  return draft.state;
}

/**
 * Folds a stored log (or any part of it after `state`) in order. The events go into one private
 * draft, whose collections are copied once, the first time an event changes them: folding a log is
 * linear in its length (a fold per event would copy the whole conversation and every tool call at
 * each step, which takes seconds for a few thousand events).
 */
export function foldEvents(events: readonly StoredEvent[], state: SessionState = initialSessionState): SessionState {
  let draft: Draft | null = null;
  for (const stored of events) {
    if (stored.seq <= (draft?.state ?? state).lastSeq) continue; // a resync may resend what we already hold
    draft ??= new Draft(state);
    apply(draft, stored.event);
    draft.state.lastSeq = stored.seq;
  }
  return draft?.state ?? state;
}

/**
 * The commands that ran after the step at `seq` with no question asked about them (auto mode, an
 * allow rule, a read-only command), in the order they started: what a rewind's preview marks, since
 * nobody looked at them before they ran.
 */
export function commandsRanUnaskedAfter(state: Pick<SessionState, 'ranUnasked' | 'toolCalls'>, seq: number): ToolCallView[] {
  const calls: ToolCallView[] = [];
  for (const callId of state.ranUnasked) {
    const call = state.toolCalls[callId];
    if (call && toolTraits(call.name)?.rules === 'command' && call.startedSeq !== undefined && call.startedSeq > seq) calls.push(call);
  }
  return calls;
}

/** Calls the model asked for that have no result yet, in the order it asked for them. */
export function unfinishedCalls(state: SessionState): ToolCallView[] {
  return Object.values(state.toolCalls).filter((call) => !isFinished(call.status));
}

export function isFinished(status: ToolCallStatus): boolean {
  return status !== 'pending' && status !== 'awaiting_approval' && status !== 'running';
}

/**
 * A state being folded. It is a copy of the state it started from, whose collections are shared with
 * that state until an event changes them; then they are copied, once per draft, and changed in place.
 * Nothing outside this file ever sees a draft's state before the fold returns it.
 */
class Draft {
  readonly state: SessionState;
  private readonly owned = new Set<'items' | 'toolCalls' | 'approvals' | 'pendingApprovals' | 'taints' | 'ranUnasked'>();

  constructor(base: SessionState) {
    this.state = { ...base };
  }

  items(): ConversationItem[] {
    if (!this.owned.has('items')) {
      this.state.items = [...this.state.items];
      this.owned.add('items');
    }
    return this.state.items;
  }

  toolCalls(): Record<string, ToolCallView> {
    if (!this.owned.has('toolCalls')) {
      this.state.toolCalls = { ...this.state.toolCalls };
      this.owned.add('toolCalls');
    }
    return this.state.toolCalls;
  }

  approvals(): Record<string, ApprovalView> {
    if (!this.owned.has('approvals')) {
      this.state.approvals = { ...this.state.approvals };
      this.owned.add('approvals');
    }
    return this.state.approvals;
  }

  pendingApprovals(): string[] {
    if (!this.owned.has('pendingApprovals')) {
      this.state.pendingApprovals = [...this.state.pendingApprovals];
      this.owned.add('pendingApprovals');
    }
    return this.state.pendingApprovals;
  }

  taints(): string[] {
    if (!this.owned.has('taints')) {
      this.state.taints = [...this.state.taints];
      this.owned.add('taints');
    }
    return this.state.taints;
  }

  ranUnasked(): string[] {
    if (!this.owned.has('ranUnasked')) {
      this.state.ranUnasked = [...this.state.ranUnasked];
      this.owned.add('ranUnasked');
    }
    return this.state.ranUnasked;
  }

  /** A call's view changed; an unknown call is left alone. */
  updateCall(callId: string, change: Partial<ToolCallView>): void {
    const call = this.state.toolCalls[callId];
    if (call) this.toolCalls()[callId] = { ...call, ...change };
  }
}

/** A session that works on while a question of its own is unanswered is waiting for the person (after a restart, say). */
function working(state: SessionState): SessionStatus {
  return state.pendingApprovals.length > 0 ? 'waiting' : 'working';
}

function apply(draft: Draft, event: SessionEvent): void {
  const state = draft.state;
  switch (event.type) {
    case 'session.started':
      state.status = working(state);
      state.workspace = event.workspace;
      state.model = event.model;
      state.api = event.api;
      state.baseUrl = event.baseUrl;
      state.maxSteps = event.maxSteps;
      return;
    case 'session.resumed':
      state.status = working(state);
      state.endReason = undefined;
      state.modelFailure = undefined;
      state.retrying = undefined;
      return;
    case 'user.messaged':
      state.status = working(state);
      draft.items().push({ type: 'user', text: event.text });
      addMessagePoint(state, state.lastSeq + 1);
      return;
    case 'model.requested':
      state.status = working(state);
      state.retrying = undefined;
      state.steps = event.step;
      if (event.estimatedTokens !== undefined || event.contextWindow !== undefined) {
        state.context = {
          ...state.context,
          ...(event.estimatedTokens !== undefined ? { tokens: event.estimatedTokens } : {}),
          ...(event.contextWindow !== undefined ? { window: event.contextWindow } : {}),
        };
      }
      return;
    case 'model.retrying':
      state.retrying = {
        nextAttempt: event.attempt + 1,
        ...(event.maxAttempts !== undefined ? { maxAttempts: event.maxAttempts } : {}),
        delayMs: event.delayMs,
        reason: event.reason,
      };
      return;
    case 'model.responded': {
      state.retrying = undefined;
      for (const item of event.items) {
        if (item.type === 'tool_call') {
          draft.toolCalls()[item.callId] = { callId: item.callId, name: item.name, arguments: item.arguments, status: 'pending' };
        }
      }
      draft.items().push(...event.items);
      paidFor(state, event.usage, event.costUsd);
      // A server that reports no usage leaves the estimate standing rather than claiming an empty context.
      if (event.usage.inputTokens > 0) {
        const tokens = event.usage.inputTokens + event.usage.outputTokens;
        state.context = {
          ...state.context,
          tokens,
          basis: { tokens, items: itemCount(state), notes: state.instructions.notes.length },
        };
      }
      return;
    }
    case 'approval.asked': {
      const { type: _type, ...view } = event;
      // A question asked while the call runs (run it again outside the sandbox?) leaves it running.
      if (state.toolCalls[event.callId]?.status !== 'running') {
        draft.updateCall(event.callId, { status: 'awaiting_approval', approvalId: event.approvalId, asked: true });
      } else {
        draft.updateCall(event.callId, { asked: true });
        if (state.ranUnasked.includes(event.callId)) {
          const unasked = draft.ranUnasked();
          unasked.splice(unasked.indexOf(event.callId), 1);
        }
      }
      state.status = 'waiting';
      draft.approvals()[event.approvalId] = view;
      draft.pendingApprovals().push(event.approvalId);
      return;
    }
    case 'approval.answered': {
      const asked = state.approvals[event.approvalId];
      if (!asked) return;
      const pending = state.pendingApprovals.filter((id) => id !== event.approvalId);
      draft.pendingApprovals().splice(0, Infinity, ...pending);
      if (state.toolCalls[event.callId]?.status !== 'running') {
        draft.updateCall(event.callId, { status: event.decision.action === 'allow' ? 'pending' : 'denied' });
      }
      state.status = pending.length > 0 ? 'waiting' : 'working';
      draft.approvals()[event.approvalId] = { ...asked, decision: event.decision };
      return;
    }
    case 'tool.started': {
      const call = state.toolCalls[event.callId];
      if (!call) return;
      const startedSeq = state.lastSeq + 1;
      draft.updateCall(event.callId, { status: 'running', startedSeq });
      if (actedUnasked({ ...call, startedSeq })) draft.ranUnasked().push(event.callId);
      return;
    }
    case 'tool.finished':
      draft.updateCall(event.callId, {
        status: event.outcome,
        title: event.title,
        output: event.output,
        durationMs: event.durationMs,
        ...(event.waitedMs !== undefined ? { waitedMs: event.waitedMs } : {}),
        metadata: event.metadata,
      });
      draft.items().push({ type: 'tool_result', callId: event.callId, output: event.output, isError: event.outcome !== 'ok' });
      return;
    case 'session.tainted':
      draft.taints().push(event.reason);
      return;
    case 'sandbox.turned_off':
      state.unsandboxedRuns = [...state.unsandboxedRuns, event.by];
      return;
    case 'repository.quarantined': {
      const { type: _type, callId, ...repository } = event;
      draft.updateCall(callId, { quarantined: [...(state.toolCalls[callId]?.quarantined ?? []), repository] });
      return;
    }
    case 'plan.updated':
      state.plan = event.steps;
      return;
    case 'hook.ran':
      if (event.callId !== undefined && event.result === 'failed' && event.problem !== undefined) {
        const problems = state.toolCalls[event.callId]?.hookProblems ?? [];
        draft.updateCall(event.callId, { hookProblems: [...problems, event.problem] });
      }
      if (event.callId === undefined && event.context !== undefined) {
        state.hookNotes = [...state.hookNotes, { atItem: itemCount(state), hookEvent: event.hookEvent, text: event.context }];
      }
      return;
    case 'session.finished':
      state.status = event.status;
      state.endReason = event.reason;
      state.modelFailure = event.modelFailure;
      state.retrying = undefined;
      if (event.status !== 'done') {
        state.endings = [
          ...state.endings,
          {
            atItem: itemCount(state),
            status: event.status,
            reason: event.reason,
            ...(event.modelFailure ? { modelFailure: event.modelFailure } : {}),
          },
        ];
      }
      state.pendingApprovals = [];
      if (state.context.compacting) state.context = { ...state.context, compacting: false };
      return;
    case 'changes.reverted': {
      const { type: _type, ...revert } = event;
      state.reverts = [...state.reverts, { ...revert, atItem: itemCount(state) }];
      return;
    }
    case 'changes.revert_undone': {
      const { type: _type, ...revert } = event;
      state.reverts = [...state.reverts, { ...revert, atItem: itemCount(state), undone: true }];
      return;
    }
    case 'changes.accepted':
    case 'changes.accept_undone':
      return;
    case 'worktree.created': {
      const { type: _type, ...worktree } = event;
      state.worktree = worktree;
      if (event.moved) {
        state.workspace = event.moved.workspace;
        // The earlier steps' snapshots are of the shared folder, not of the worktree it works in now.
        const reason = `the session moved to its own worktree after this step, and its earlier snapshots are of the folder it left (${event.moved.from})`;
        state.rewindPoints = state.rewindPoints.map(({ commit, ...point }) => (commit ? { ...point, filesUnavailable: reason } : point));
        state.filesCommit = undefined;
      }
      return;
    }
    case 'worktree.finished':
      if (state.worktree)
        state.worktree = { ...state.worktree, finished: { action: event.action, ...(event.commit ? { commit: event.commit } : {}) } };
      return;
    case 'instructions.loaded': {
      const { instructions } = state;
      state.instructions = {
        system: event.placement === 'system' ? event.files : instructions.system,
        notes:
          event.placement === 'conversation' && event.files.length > 0
            ? [...instructions.notes, { atItem: itemCount(state), files: event.files }]
            : instructions.notes,
        warnings: event.warnings.length > 0 ? [...instructions.warnings, ...event.warnings] : instructions.warnings,
        skipped: event.skipped && event.skipped.length > 0 ? [...instructions.skipped, ...event.skipped] : instructions.skipped,
      };
      return;
    }
    case 'context.compacting':
      state.context = { ...state.context, compacting: true, tokens: event.tokensBefore };
      return;
    case 'context.compacted': {
      const { type: _type, usage, costUsd, ...view } = event;
      state.compactions = [...state.compactions, { atItem: itemCount(state), ...view }];
      paidFor(state, usage, costUsd);
      // The provider's last figure described the uncompacted conversation: the next request is estimated afresh.
      state.context = { ...state.context, tokens: event.tokensAfter, basis: null, compacting: false, warning: undefined };
      return;
    }
    case 'context.compaction_failed':
      state.context = { ...state.context, compacting: false, warning: event.reason };
      return;
    case 'checkpoint.created':
      applyCheckpointCreated(state, event, state.lastSeq + 1);
      return;
    case 'checkpoint.failed':
      applyCheckpointFailed(state, event, state.lastSeq + 1);
      return;
    case 'session.rewound':
      applyRewound(state, event, state.lastSeq + 1);
      return;
    case 'session.rewind_undone':
      applyRewindUndone(state, event, state.lastSeq + 1);
      return;
  }
}

/** A response (or a summarising request) adds its tokens, and its dollars where it had a price; one without is counted, never guessed. */
function paidFor(state: SessionState, usage: Usage, costUsd: number | undefined): void {
  state.usage = addUsage(state.usage, usage);
  if (costUsd !== undefined) state.costUsd += costUsd;
  else if (isUnpriced({ usage, costUsd: null })) state.unpricedResponses += 1;
}
