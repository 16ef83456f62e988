import type { PendingApproval, SessionSummary } from '../../../shared/contract';
import type { ApprovalView, SessionState, SessionStatus } from '../../../shared/session';
import type { AppState } from './appState';
import type { SessionLog } from './sessionLog';

/**
 * Reads shared by several components. Those that build a new object or array are meant for
 * `useShallow`; the rest return what the store holds.
 */

export function selectSelectedLog(state: AppState): SessionLog | undefined {
  return state.selectedSessionId ? state.logs[state.selectedSessionId] : undefined;
}

export function selectSelectedState(state: AppState): SessionState | undefined {
  return selectSelectedLog(state)?.state;
}

export function selectSelectedSummary(state: AppState): SessionSummary | undefined {
  return state.selectedSessionId ? state.sessions[state.selectedSessionId] : undefined;
}

/** A project's sessions, most recently active first. Use with useShallow. */
export function selectProjectSessions(state: AppState, projectId: string | null): SessionSummary[] {
  const known = new Set(state.projects.map((project) => project.id));
  return Object.values(state.sessions)
    .filter((session) => (projectId === null ? session.projectId === null || !known.has(session.projectId) : session.projectId === projectId))
    .sort((a, b) => b.updatedAt - a.updatedAt);
}

export interface CurrentApproval {
  entry: PendingApproval;
  approval: ApprovalView;
  /** How many more wait behind this one. */
  behind: number;
}

/**
 * The request the dialog shows: the oldest waiting one whose session log has arrived (the dialog
 * needs its details). Answered ones are skipped even if the inbox has not caught up yet.
 */
export function selectCurrentApproval(state: AppState): CurrentApproval | null {
  for (let i = 0; i < state.inbox.length; i++) {
    const entry = state.inbox[i]!;
    const log = state.logs[entry.sessionId];
    const approval = log?.state.approvals[entry.approvalId];
    if (!approval || approval.decision) continue;
    if (!log!.state.pendingApprovals.includes(entry.approvalId)) continue;
    return { entry, approval, behind: state.inbox.length - 1 };
  }
  return null;
}

/** Pending approvals per session id, from the inbox. */
export function selectWaitingBySession(state: AppState): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of state.inbox) counts[entry.sessionId] = (counts[entry.sessionId] ?? 0) + 1;
  return counts;
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
