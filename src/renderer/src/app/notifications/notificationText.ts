import type { SessionSummary, SystemNotice } from '../../../../shared/contract';
import type { ApprovalView } from '../../../../shared/session';

/**
 * What a system notification says: a kind the person can turn off, the text the OS shows, and what it
 * is about (the contract's shape, since the desktop app shows it natively).
 */
export type Notice = SystemNotice;

const TITLE_MAX = 80;
const DETAIL_MAX = 160;

// C0 and C1 controls (newlines, tabs, escapes), and the invisible marks that reorder or hide text
// (bidi overrides and isolates, zero-width characters, line and paragraph separators, BOM).
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g;

/**
 * One line of text from the model, a tool or a session title, safe to put in a notification: with no
 * control or reordering characters, so a command cannot draw a second line ("Session finished") or
 * turn itself around, and cut to `max` characters, so it cannot push the real text out of sight.
 */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max
    ? flat
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

function sessionName(title: string): string {
  return oneLine(title, TITLE_MAX) || 'A session';
}

/** What the request is about: the command, the file, or the host a fetch would reach. */
function requestDetail(approval: ApprovalView): string {
  const args = typeof approval.args === 'object' && approval.args !== null && !Array.isArray(approval.args) ? approval.args : {};
  const { command, path, url } = args as Record<string, unknown>;
  if (typeof command === 'string') return command;
  if (typeof path === 'string') return path;
  if (typeof url === 'string') {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  }
  return approval.summary;
}

export function waitingNotice(session: { id: string; title: string }, approvalId: string, approval: ApprovalView | undefined): Notice {
  const body = approval
    ? `${oneLine(approval.tool, 40)}: ${oneLine(requestDetail(approval), DETAIL_MAX)}`
    : 'An action is waiting for your approval.';
  return {
    kind: 'waiting',
    title: `Waiting for you: ${sessionName(session.title)}`,
    body,
    tag: `tether-waiting-${approvalId}`,
    sessionId: session.id,
    approvalId,
  };
}

/** A session that stopped on its own: done, failed, or out of steps. Undefined for any other status. */
export function endedNotice(session: SessionSummary, reason: string | undefined): Notice | undefined {
  const name = sessionName(session.title);
  const why = reason ? oneLine(reason, DETAIL_MAX) : '';
  const about = { tag: `tether-ended-${session.id}`, sessionId: session.id };
  switch (session.status) {
    case 'done':
      return { kind: 'finished', title: `Finished: ${name}`, body: why || 'The session finished its task.', ...about };
    case 'failed':
      return { kind: 'failed', title: `Failed: ${name}`, body: why || 'The session stopped on an error.', ...about };
    case 'max_steps':
      return { kind: 'failed', title: `Step limit reached: ${name}`, body: why || 'The session stopped before finishing.', ...about };
    default:
      return undefined;
  }
}
