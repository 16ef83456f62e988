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

export function reduce(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'session.started':
      return {
        ...state,
        status: 'working',
        workspace: event.workspace,
        model: event.model,
        api: event.api,
        baseUrl: event.baseUrl,
        maxSteps: event.maxSteps,
      };
    case 'session.resumed':
      return { ...state, status: 'working', endReason: undefined };
    case 'user.messaged':
      return { ...state, status: 'working', items: [...state.items, { type: 'user', text: event.text }] };
    case 'model.requested':
      return { ...state, status: 'working', steps: event.step };
    case 'model.retrying':
      return state;
    case 'model.responded':
      return withResponse(state, event);
    case 'approval.asked':
      return withApprovalAsked(state, event);
    case 'approval.answered':
      return withApprovalAnswered(state, event);
    case 'tool.started':
      return updateCall(state, event.callId, { status: 'running' });
    case 'tool.finished':
      return withToolFinished(state, event);
    case 'session.tainted':
      return { ...state, taints: [...state.taints, event.reason] };
    case 'plan.updated':
      return { ...state, plan: event.steps };
    case 'session.finished':
      return { ...state, status: event.status, endReason: event.reason, pendingApprovals: [] };
  }
}

/** Folds a stored log (or any part of it after `state`) in order. */
export function foldEvents(events: readonly StoredEvent[], state: SessionState = initialSessionState): SessionState {
  let next = state;
  for (const stored of events) {
    if (stored.seq <= next.lastSeq) continue; // a resync may resend what we already hold
    next = { ...reduce(next, stored.event), lastSeq: stored.seq };
  }
  return next;
}

/** Calls the model asked for that have no result yet, in the order it asked for them. */
export function unfinishedCalls(state: SessionState): ToolCallView[] {
  return Object.values(state.toolCalls).filter((call) => !isFinished(call.status));
}

export function isFinished(status: ToolCallStatus): boolean {
  return status !== 'pending' && status !== 'awaiting_approval' && status !== 'running';
}

function withResponse(state: SessionState, event: EventOf<'model.responded'>): SessionState {
  const toolCalls = { ...state.toolCalls };
  for (const item of event.items) {
    if (item.type === 'tool_call') {
      toolCalls[item.callId] = { callId: item.callId, name: item.name, arguments: item.arguments, status: 'pending' };
    }
  }
  return { ...state, items: [...state.items, ...event.items], toolCalls, usage: addUsage(state.usage, event.usage) };
}

function withApprovalAsked(state: SessionState, event: EventOf<'approval.asked'>): SessionState {
  const { type: _type, ...view } = event;
  return {
    ...updateCall(state, event.callId, { status: 'awaiting_approval', approvalId: event.approvalId }),
    status: 'waiting',
    approvals: { ...state.approvals, [event.approvalId]: view },
    pendingApprovals: [...state.pendingApprovals, event.approvalId],
  };
}

function withApprovalAnswered(state: SessionState, event: EventOf<'approval.answered'>): SessionState {
  const asked = state.approvals[event.approvalId];
  if (!asked) return state;
  const pendingApprovals = state.pendingApprovals.filter((id) => id !== event.approvalId);
  const call = updateCall(state, event.callId, { status: event.decision.action === 'allow' ? 'pending' : 'denied' });
  return {
    ...call,
    status: pendingApprovals.length > 0 ? 'waiting' : 'working',
    approvals: { ...state.approvals, [event.approvalId]: { ...asked, decision: event.decision } },
    pendingApprovals,
  };
}

function withToolFinished(state: SessionState, event: EventOf<'tool.finished'>): SessionState {
  const updated = updateCall(state, event.callId, {
    status: event.outcome,
    title: event.title,
    output: event.output,
    durationMs: event.durationMs,
    metadata: event.metadata,
  });
  const result: ConversationItem = {
    type: 'tool_result',
    callId: event.callId,
    output: event.output,
    isError: event.outcome !== 'ok',
  };
  return { ...updated, items: [...state.items, result] };
}

function updateCall(state: SessionState, callId: string, change: Partial<ToolCallView>): SessionState {
  const call = state.toolCalls[callId];
  if (!call) return state;
  return { ...state, toolCalls: { ...state.toolCalls, [callId]: { ...call, ...change } } };
}
