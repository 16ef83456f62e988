import { z } from 'zod';
import { ConversationItem } from './conversation';
import type { SessionEvent } from './events';
import { restoresConversation, type RewindPoint, type RewindView } from './rewinds';
import { itemCount } from './conversationState';
import { isFinished, type ApprovalView, type SessionState, type ToolCallView } from './session';

/**
 * A session's folded state holding only the latest part of its conversation: what a window opens
 * with, so opening a session costs the same at 50,000 events as at 500. Main folds the whole log
 * (the one fold, session.ts) and sends `snapshotOf` it; the renderer folds live events on top, and
 * fetches older items a page at a time (`pageOf` in main, `withPage` in the renderer) as the person
 * scrolls back. Every index (`itemsFrom`, `atItem`, a mark's `items`) counts items of the whole
 * conversation, so markers, compactions and rewind points land where they do in the full fold.
 */

/** Items a snapshot keeps: more than the conversation first draws (conversationWindow.ts). */
export const SNAPSHOT_ITEMS = 200;
/**
 * Items of a rewind's `dropped` and `before` a snapshot keeps: enough to show and to undo the latest
 * rewinds (only the latest can be undone), a few for older ones (their markers and step labels), never
 * a second copy of a long history.
 */
export const SNAPSHOT_REWIND_ITEMS = 200;
const SNAPSHOT_OLD_REWIND_ITEMS = 10;
const SNAPSHOT_RECENT_REWINDS = 2;
/** Checkpoints a snapshot keeps (the renderer only appends to them). */
export const SNAPSHOT_CHECKPOINTS = 50;

/** The most items one `session:page` answer carries. */
export const PAGE_ITEMS_MAX = 500;

// The fold's views are TypeScript types main builds (session.ts); over the wire their frame is checked, not rebuilt field by field.
const ToolCallFrame = z.looseObject({ callId: z.string(), name: z.string(), arguments: z.string(), status: z.string() });
const ApprovalFrame = z.looseObject({ approvalId: z.string(), callId: z.string(), tool: z.string(), summary: z.string() });
const RewindPointFrame = z.looseObject({
  seq: z.number().int().positive(),
  kind: z.enum(['message', 'checkpoint']),
  mark: z.looseObject({ items: z.number().int().nonnegative() }),
});
const SessionStateFrame = z.looseObject({
  status: z.string(),
  itemsFrom: z.number().int().nonnegative(),
  items: z.array(ConversationItem),
  toolCalls: z.record(z.string(), ToolCallFrame),
  approvals: z.record(z.string(), ApprovalFrame),
  pendingApprovals: z.array(z.string()),
  rewindPoints: z.array(RewindPointFrame),
  rewinds: z.array(z.looseObject({ seq: z.number().int().positive(), atItem: z.number().int().nonnegative() })),
  lastSeq: z.number().int().nonnegative(),
});

/** A session as a window opens it: the folded state with its latest items (`snapshotOf`), and the times its running clocks need. */
export const SessionSnapshot = z.object({
  state: z.custom<SessionState>((value) => SessionStateFrame.safeParse(value).success, 'Expected a folded session state.'),
  /** When each running call started (epoch ms). */
  startedAt: z.record(z.string(), z.number()),
  /** When each waiting approval was asked (epoch ms). */
  askedAt: z.record(z.string(), z.number()),
});
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;

/** Older conversation items, with what drawing them needs: their calls, those calls' approvals, the rewind points they anchor. */
export const SessionPage = z.object({
  /** The whole-conversation index of `items[0]`. */
  fromItem: z.number().int().nonnegative(),
  items: z.array(ConversationItem),
  toolCalls: z.record(
    z.string(),
    z.custom<ToolCallView>((value) => ToolCallFrame.safeParse(value).success, 'Expected a tool call view.'),
  ),
  approvals: z.record(
    z.string(),
    z.custom<ApprovalView>((value) => ApprovalFrame.safeParse(value).success, 'Expected an approval view.'),
  ),
  rewindPoints: z.array(z.custom<RewindPoint>((value) => RewindPointFrame.safeParse(value).success, 'Expected a rewind point.')),
});
export type SessionPage = z.infer<typeof SessionPage>;

/** Items before `beforeItem` in the whole conversation, at most `limit` (PAGE_ITEMS_MAX when absent). */
export const PageRequest = z.object({
  sessionId: z.string(),
  beforeItem: z.number().int().nonnegative(),
  limit: z.number().int().positive().max(PAGE_ITEMS_MAX).optional(),
});

/** The state with only its latest `windowItems` conversation items (and what belongs to them); a short session is returned as it is. */
export function snapshotOf(state: SessionState, windowItems = SNAPSHOT_ITEMS): SessionState {
  return windowFrom(state, Math.max(state.itemsFrom, itemCount(state) - windowItems));
}

/**
 * The state holding items from `from` on: the calls those items draw (and every call not finished,
 * or waiting on an approval), the approvals of those calls and every one still waiting, and the
 * rewind points anchored in the window (the rewind dialog's list of what ran unasked comes from
 * main with its preview, `session:rewindPreview`, not from these calls). Everything else
 * (plan, usage, compactions, reverts, rewinds...) is small and kept whole, each rewind's own copies
 * of the conversation cut to SNAPSHOT_REWIND_ITEMS.
 */
export function windowFrom(state: SessionState, from: number): SessionState {
  const cut = Math.max(0, Math.min(from, itemCount(state)) - state.itemsFrom);
  const recent = state.rewinds.length - SNAPSHOT_RECENT_REWINDS;
  const rewinds = state.rewinds.map((rewind, index) =>
    trimRewind(rewind, index >= recent ? SNAPSHOT_REWIND_ITEMS : SNAPSHOT_OLD_REWIND_ITEMS),
  );
  const checkpoints = state.checkpoints.length > SNAPSHOT_CHECKPOINTS ? state.checkpoints.slice(-SNAPSHOT_CHECKPOINTS) : state.checkpoints;
  if (cut === 0 && rewinds.every((rewind, index) => rewind === state.rewinds[index]) && checkpoints === state.checkpoints) return state;

  const items = cut > 0 ? state.items.slice(cut) : state.items;
  const itemsFrom = state.itemsFrom + cut;
  const rewindPoints = cut > 0 ? state.rewindPoints.filter((point) => point.mark.items > itemsFrom) : state.rewindPoints;

  const drawn = new Set<string>();
  addCallsOf(drawn, items);
  for (const rewind of rewinds) {
    addCallsOf(drawn, rewind.dropped);
    addCallsOf(drawn, rewind.before.items);
  }
  for (const point of rewindPoints) if (point.callId) drawn.add(point.callId);
  for (const call of Object.values(state.toolCalls)) if (!isFinished(call.status)) drawn.add(call.callId);
  for (const approvalId of state.pendingApprovals) {
    const approval = state.approvals[approvalId];
    if (approval) drawn.add(approval.callId);
  }
  const toolCalls: Record<string, ToolCallView> = {};
  for (const [callId, call] of Object.entries(state.toolCalls)) if (drawn.has(callId)) toolCalls[callId] = call;
  const pending = new Set(state.pendingApprovals);
  const approvals: Record<string, ApprovalView> = {};
  for (const [approvalId, approval] of Object.entries(state.approvals)) {
    if (pending.has(approvalId) || drawn.has(approval.callId)) approvals[approvalId] = approval;
  }
  return { ...state, items, itemsFrom, toolCalls, approvals, rewindPoints, rewinds, checkpoints };
}

/** Items before `beforeItem` (at most `limit`), with what drawing them needs. Asked of main's whole fold. */
export function pageOf(state: SessionState, beforeItem: number, limit: number): SessionPage {
  const to = Math.max(state.itemsFrom, Math.min(beforeItem, itemCount(state)));
  const fromItem = Math.max(state.itemsFrom, to - Math.max(0, limit));
  const items = state.items.slice(fromItem - state.itemsFrom, to - state.itemsFrom);
  const calls = new Set<string>();
  addCallsOf(calls, items);
  const toolCalls: Record<string, ToolCallView> = {};
  for (const callId of calls) {
    const call = state.toolCalls[callId];
    if (call) toolCalls[callId] = call;
  }
  const approvals: Record<string, ApprovalView> = {};
  for (const [approvalId, approval] of Object.entries(state.approvals)) if (calls.has(approval.callId)) approvals[approvalId] = approval;
  const rewindPoints = state.rewindPoints.filter((point) => point.mark.items > fromItem && point.mark.items <= to);
  return { fromItem, items, toolCalls, approvals, rewindPoints };
}

/**
 * The state with a page of older items put before the ones it holds. A page that does not end
 * where the state's items begin (the state changed while it was on its way) is left out.
 */
export function withPage(state: SessionState, page: SessionPage): SessionState {
  if (page.items.length === 0 || page.fromItem + page.items.length !== state.itemsFrom) return state;
  const toolCalls = { ...state.toolCalls };
  for (const [callId, call] of Object.entries(page.toolCalls)) {
    const held = toolCalls[callId];
    // A finished call takes the page's view (main's, as new as the state's or newer); one still running is the live fold's.
    if (!held || isFinished(held.status)) toolCalls[callId] = call;
  }
  const seqs = new Set(state.rewindPoints.map((point) => point.seq));
  const rewindPoints = [...page.rewindPoints.filter((point) => !seqs.has(point.seq)), ...state.rewindPoints].sort((a, b) => a.seq - b.seq);
  return {
    ...state,
    items: [...page.items, ...state.items],
    itemsFrom: page.fromItem,
    toolCalls,
    approvals: { ...page.approvals, ...state.approvals },
    rewindPoints,
  };
}

/**
 * Whether folding `event` needs conversation items or a rewind point the state does not hold (a
 * rewind to a step before its window, the undoing of a rewind whose later items it does not hold):
 * the renderer then opens the session afresh rather than fold a guess. A whole fold never does.
 */
export function needsWholeConversation(state: SessionState, event: SessionEvent): boolean {
  if (state.itemsFrom === 0) return false;
  if (event.type === 'session.rewound') {
    if (!restoresConversation(event.restore)) return false;
    const point = state.rewindPoints.find((candidate) => candidate.seq === event.toSeq);
    return !point || point.mark.items < state.itemsFrom;
  }
  if (event.type === 'session.rewind_undone') {
    const target = state.rewinds.find((rewind) => rewind.seq === event.rewindSeq && rewind.kind === 'rewind');
    return !target || (restoresConversation(target.restore) && target.atItem < state.itemsFrom);
  }
  return false;
}

function addCallsOf(calls: Set<string>, items: readonly ConversationItem[]): void {
  for (const item of items) if (item.type === 'tool_call' || item.type === 'tool_result') calls.add(item.callId);
}

/** A rewind with its copies of the conversation cut to `keep` items each. */
function trimRewind(rewind: RewindView, keep: number): RewindView {
  let trimmed = rewind;
  if (rewind.dropped.length > keep) {
    trimmed = {
      ...trimmed,
      dropped: rewind.dropped.slice(0, keep),
      droppedMore: (rewind.droppedMore ?? 0) + rewind.dropped.length - keep,
    };
  }
  const { before } = rewind;
  if (before.items.length > keep) {
    const cut = before.items.length - keep;
    const itemsFrom = (before.itemsFrom ?? 0) + cut;
    trimmed = {
      ...trimmed,
      before: {
        ...before,
        items: before.items.slice(cut),
        itemsFrom,
        points: before.points.filter((point) => point.mark.items > itemsFrom),
      },
    };
  }
  return trimmed;
}
