import type { ConversationItem, Usage } from './conversation';
import { addUsage, zeroUsage } from './conversation';
import type { EventOf, SessionEvent, SessionEndStatus, StoredEvent, ToolOutcome } from './events';
import type { Decision } from './permissions';
import type { PlanStep } from './plan';
import type { Json } from './json';

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
  metadata?: Json;
  approvalId?: string;
}

export type ApprovalView = Omit<EventOf<'approval.asked'>, 'type'> & { decision?: Decision };

/** Where a session is, as the sidebar shows it. */
export type SessionStatus = 'new' | 'working' | 'waiting' | SessionEndStatus;

export interface SessionState {
  status: SessionStatus;
  workspace: string;
  model: string;
  api: 'responses' | 'chat';
  baseUrl: string;
  maxSteps: number;
  /** The conversation in order, tool results holding their whole output. */
  items: ConversationItem[];
  toolCalls: Record<string, ToolCallView>;
  plan: PlanStep[];
  approvals: Record<string, ApprovalView>;
  /** Approvals still waiting for an answer, oldest first. */
  pendingApprovals: string[];
  /** Model requests made so far. */
  steps: number;
  usage: Usage;
  /** Why the session last stopped, for a person. */
  endReason?: string;
  /** Outside content the session has read, oldest first; while any, egress asks first. */
  taints: string[];
  lastSeq: number;
}

export const initialSessionState: SessionState = {
  status: 'new',
  workspace: '',
  model: '',
  api: 'responses',
  baseUrl: '',
  maxSteps: 50,
  items: [],
  toolCalls: {},
  plan: [],
  approvals: {},
  pendingApprovals: [],
  steps: 0,
  usage: zeroUsage,
  taints: [],
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
  private readonly owned = new Set<'items' | 'toolCalls' | 'approvals' | 'pendingApprovals' | 'taints'>();

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

  /** A call's view changed; an unknown call is left alone. */
  updateCall(callId: string, change: Partial<ToolCallView>): void {
    const call = this.state.toolCalls[callId];
    if (call) this.toolCalls()[callId] = { ...call, ...change };
  }
}

function apply(draft: Draft, event: SessionEvent): void {
  const state = draft.state;
  switch (event.type) {
    case 'session.started':
      state.status = 'working';
      state.workspace = event.workspace;
      state.model = event.model;
      state.api = event.api;
      state.baseUrl = event.baseUrl;
      state.maxSteps = event.maxSteps;
      return;
    case 'session.resumed':
      state.status = 'working';
      state.endReason = undefined;
      return;
    case 'user.messaged':
      state.status = 'working';
      draft.items().push({ type: 'user', text: event.text });
      return;
    case 'model.requested':
      state.status = 'working';
      state.steps = event.step;
      return;
    case 'model.retrying':
      return;
    case 'model.responded': {
      for (const item of event.items) {
        if (item.type === 'tool_call') {
          draft.toolCalls()[item.callId] = { callId: item.callId, name: item.name, arguments: item.arguments, status: 'pending' };
        }
      }
      draft.items().push(...event.items);
      state.usage = addUsage(state.usage, event.usage);
      return;
    }
    case 'approval.asked': {
      const { type: _type, ...view } = event;
      draft.updateCall(event.callId, { status: 'awaiting_approval', approvalId: event.approvalId });
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
      draft.updateCall(event.callId, { status: event.decision.action === 'allow' ? 'pending' : 'denied' });
      state.status = pending.length > 0 ? 'waiting' : 'working';
      draft.approvals()[event.approvalId] = { ...asked, decision: event.decision };
      return;
    }
    case 'tool.started':
      draft.updateCall(event.callId, { status: 'running' });
      return;
    case 'tool.finished':
      draft.updateCall(event.callId, {
        status: event.outcome,
        title: event.title,
        output: event.output,
        durationMs: event.durationMs,
        metadata: event.metadata,
      });
      draft.items().push({ type: 'tool_result', callId: event.callId, output: event.output, isError: event.outcome !== 'ok' });
      return;
    case 'session.tainted':
      draft.taints().push(event.reason);
      return;
    case 'plan.updated':
      state.plan = event.steps;
      return;
    case 'session.finished':
      state.status = event.status;
      state.endReason = event.reason;
      state.pendingApprovals = [];
      return;
  }
}
