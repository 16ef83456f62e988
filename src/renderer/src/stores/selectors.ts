import type { PendingApproval, SessionSummary } from '../../../shared/contract';
import type { ApprovalView, SessionStatus } from '../../../shared/session';
import type { AppState } from './appState';

/**
 * Reads shared by several components. Those that build a new object or array are meant for
 * `useShallow`; the rest return what the store holds.
 */

/** A project's sessions, most recently active first. Use with useShallow. */
export function selectProjectSessions(state: AppState, projectId: string | null): SessionSummary[] {
  const known = new Set(state.projects.map((project) => project.id));
  return Object.values(state.sessions)
    .filter((session) =>
      projectId === null ? session.projectId === null || !known.has(session.projectId) : session.projectId === projectId,
    )
    .sort((a, b) => b.updatedAt - a.updatedAt);
}

export interface CurrentApproval {
  entry: PendingApproval;
  approval: ApprovalView;
  /** How many more wait behind this one. */
  behind: number;
}

/** A waiting request with its details: its entry in the inbox and the approval from its session's log. */
export interface WaitingApproval {
  entry: PendingApproval;
  approval: ApprovalView;
}

/** Whether the inbox entry still waits by its session's log (answered ones linger until the inbox catches up). */
function waitingApproval(state: AppState, entry: PendingApproval): WaitingApproval | null {
  const log = state.logs[entry.sessionId];
  const approval = log?.state.approvals[entry.approvalId];
  if (!approval || approval.decision) return null;
  if (!log!.state.pendingApprovals.includes(entry.approvalId)) return null;
  return { entry, approval };
}

/**
 * The oldest request waiting anywhere whose session log has arrived (its details come from the log):
 * where the reach shortcut goes when the session in view asks nothing.
 */
export function selectCurrentApproval(state: AppState): CurrentApproval | null {
  for (const entry of state.inbox) {
    const waiting = waitingApproval(state, entry);
    if (waiting) return { ...waiting, behind: state.inbox.length - 1 };
  }
  return null;
}

/** The request a session's view shows, and where it stands among the others waiting. */
export interface SessionApproval extends WaitingApproval {
  /** Its place among this session's waiting requests, from 1, oldest first. */
  position: number;
  /** This session's waiting requests. */
  inSession: number;
  /** Every request waiting, in all sessions. */
  total: number;
}

/**
 * The request docked in a session's view: the one the person picked (from the inbox, or with Next),
 * while it waits, else the session's oldest. Use with useShallow.
 */
export function selectSessionApproval(state: AppState, sessionId: string): SessionApproval | null {
  const waiting: WaitingApproval[] = [];
  for (const entry of state.inbox) {
    if (entry.sessionId !== sessionId) continue;
    const item = waitingApproval(state, entry);
    if (item) waiting.push(item);
  }
  if (waiting.length === 0) return null;
  const picked = state.pickedApprovals[sessionId];
  const index = Math.max(
    0,
    waiting.findIndex((item) => item.entry.approvalId === picked),
  );
  return { ...waiting[index]!, position: index + 1, inSession: waiting.length, total: state.inbox.length };
}

/** The request after `approvalId` in the inbox's order (oldest first, wrapping), in any session. */
export function selectNextApproval(state: AppState, approvalId: string | null): PendingApproval | null {
  const waiting = state.inbox.filter((entry) => waitingApproval(state, entry));
  if (waiting.length === 0) return null;
  const index = waiting.findIndex((entry) => entry.approvalId === approvalId);
  const next = waiting[(index + 1) % waiting.length]!;
  return next.approvalId === approvalId ? null : next;
}

/** How a status reads in the sidebar and header. */
export function statusLabel(status: SessionStatus): string {
  switch (status) {
    case 'new':
      return 'new';
    case 'working':
      return 'working';
    case 'waiting':
      return 'waiting for you';
    case 'done':
      return 'done';
    case 'failed':
      return 'failed';
    case 'aborted':
      return 'stopped';
    case 'max_steps':
      return 'step limit reached';
  }
}

export function isActive(status: SessionStatus): boolean {
  return status === 'working' || status === 'waiting';
}
