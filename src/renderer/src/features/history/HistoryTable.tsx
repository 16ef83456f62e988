import { memo, useMemo, useState } from 'react';
import { oneLine, type AuditRow } from '../../../../shared/auditExport';
import { useApp } from '../../stores/useApp';
import { decidedByDetail } from './decisionText';

/**
 * Rows drawn at first, and added per "Show more": a log of thousands of decisions opens as fast as
 * one of a hundred, and nobody reads past the first screens without meaning to.
 */
const PAGE_ROWS = 200;

// Made once: toLocaleTimeString and toLocaleDateString build a formatter on every call, which for a
// page of rows was most of the time it took to draw.
const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'short' });

/** The decisions, newest first: when, the action and its reach, what and why, who decided, and in which session. */
export function HistoryTable({ rows, busy }: { rows: readonly AuditRow[]; busy: boolean }) {
  const [shown, setShown] = useState(PAGE_ROWS);
  // Read here once, not by each row: a row subscribed to the store is a cost a page of them multiplies.
  const sessions = useApp((state) => state.sessions);
  const selectSession = useApp((state) => state.selectSession);
  const newestFirst = useMemo(() => [...rows].reverse(), [rows]);
  const visible = newestFirst.slice(0, shown);

  return (
    <div className="history-scroll scroll" aria-busy={busy}>
      <p className="faint history-count" data-testid="history-count" aria-live="polite">
        {rows.length === 1 ? '1 decision' : `${rows.length} decisions`}, newest first
      </p>
      <table className="history-table" data-testid="history-list">
        <thead>
          <tr>
            <th scope="col" className="col-when">
              When
            </th>
            <th
              scope="col"
              className="col-action"
              title="The action, and how far an allow reaches (once, the session, the project, everywhere)"
            >
              Action
            </th>
            <th scope="col" className="col-what" title="What was decided about, and why it asked or was refused">
              What and why
            </th>
            <th
              scope="col"
              className="col-by"
              title="The person, a rule and whose settings it came from, the managed policy, a hook, or the headless default"
            >
              Decided by
            </th>
            <th scope="col" className="col-session">
              Session
            </th>
          </tr>
        </thead>
        <tbody>
          {visible.map((row) => (
            <HistoryRow
              key={`${row.sessionId}:${row.seq}:${row.callId ?? ''}`}
              row={row}
              sessionTitle={sessions[row.sessionId]?.title}
              onOpenSession={selectSession}
            />
          ))}
        </tbody>
      </table>
      {rows.length > shown && (
        <button type="button" className="history-more" data-testid="history-more" onClick={() => setShown(shown + PAGE_ROWS)}>
          Show {Math.min(PAGE_ROWS, rows.length - shown)} more of {rows.length - shown}
        </button>
      )}
    </div>
  );
}

/** One decision. Everything in it came from the log, much of it from the model: shown as text, on one line, in full on hover. */
const HistoryRow = memo(function HistoryRow({
  row,
  sessionTitle,
  onOpenSession,
}: {
  row: AuditRow;
  sessionTitle: string | undefined;
  onOpenSession(sessionId: string): void;
}) {
  const what = oneLine(row.what);
  const detail = decidedByDetail(row);
  const reason = row.reason === undefined ? '' : oneLine(row.reason);
  const projectName = row.project.split(/[\\/]/).filter(Boolean).pop() ?? row.project;

  const when = new Date(row.at);

  return (
    <tr data-testid="history-row" data-session-id={row.sessionId} data-call-id={row.callId ?? ''} data-action={row.action}>
      <td className="col-when" title={when.toISOString()}>
        <span className="history-line">{TIME.format(when)}</span>
        <span className="history-line faint">{DAY.format(when)}</span>
      </td>
      <td className="col-action">
        <span className={`badge history-action action-${row.action.replace(' ', '-')}`}>{row.action}</span>
        {row.scope && (
          <span className="history-line faint" data-testid="history-scope">
            {row.scope}
          </span>
        )}
      </td>
      <td className="col-what">
        <span className="history-line" title={row.what}>
          {row.tool && <span className="mono history-tool">{row.tool}</span>}
          {row.edited && (
            <span className="badge history-edited" data-testid="history-edited" title="The person changed the call before allowing it">
              edited
            </span>
          )}
          <span data-testid="history-what">{what}</span>
        </span>
        {row.proposed !== undefined && (
          <span className="history-line faint" title={row.proposed} data-testid="history-proposed">
            the model proposed: <span className="mono">{oneLine(row.proposed)}</span>
          </span>
        )}
        {reason && (
          <span className="history-line faint" title={row.reason} data-testid="history-reason">
            {reason}
          </span>
        )}
      </td>
      <td className="col-by">
        <span className="history-line history-by" data-testid="history-by">
          {row.by}
        </span>
        {detail && (
          <span className="history-line mono faint" title={detail}>
            {detail}
          </span>
        )}
      </td>
      <td className="col-session" title={`${row.sessionId}\n${row.project}`}>
        <button type="button" className="link-button history-line" onClick={() => onOpenSession(row.sessionId)}>
          {sessionTitle || row.sessionTitle || row.sessionId}
        </button>
        <span className="history-line faint">{projectName}</span>
      </td>
    </tr>
  );
});
