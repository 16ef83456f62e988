import { useShallow } from 'zustand/react/shallow';
import { auditCsv, auditJson } from '../../../../shared/auditExport';
import { AuditAction, AuditDecider } from '../../../../shared/auditTrail';
import { BUILTIN_TOOL_NAMES } from '../../../../shared/toolCatalog';
import type { HistorySince } from '../../lib/historySince';
import { useApp } from '../../stores/useApp';
import { IconButton } from '../../ui/IconButton';
import { downloadFile } from './downloadFile';
import { HistoryTable } from './HistoryTable';
import './history.css';

const SPANS: { value: HistorySince; label: string }[] = [
  { value: 'any', label: 'Any time' },
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
];

/**
 * Every permission decision the sessions recorded, with who made it, as `tether audit` lists them;
 * exported as the command's --json and --csv write them. Esc goes back.
 */
export function PermissionHistory() {
  const history = useApp((state) => state.history);
  const sessionChoices = useApp(
    useShallow((state) =>
      Object.values(state.sessions)
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .map((session) => `${session.id}\n${session.title || 'Untitled session'}`),
    ),
  );
  const setFilter = useApp((state) => state.setHistoryFilter);
  const loadHistory = useApp((state) => state.loadHistory);
  const showMain = useApp((state) => state.showMain);
  const { filter, rows, status } = history;
  const day = filter.since.startsWith('day:') ? filter.since.slice(4) : undefined;
  const known = sessionChoices.some((choice) => choice.startsWith(`${filter.sessionId}\n`));
  // The built-in tools, and any other (an MCP tool) the list or the filter names.
  const toolChoices = [
    ...new Set([...BUILTIN_TOOL_NAMES, ...rows.flatMap((row) => (row.tool ? [row.tool] : [])), ...(filter.tool ? [filter.tool] : [])]),
  ];
  const narrowed = [
    filter.tool !== null && `of ${filter.tool}`,
    filter.action !== null && `with the action ${filter.action}`,
    filter.by !== null && `decided by ${filter.by}`,
  ]
    .filter(Boolean)
    .join(', ');

  function handleSince(value: string) {
    setFilter({ since: value === 'day' ? `day:${localDay(new Date())}` : (value as HistorySince) });
  }

  function handleExport(format: 'json' | 'csv') {
    const name = `tether-audit-${new Date().toISOString().slice(0, 19).replaceAll(':', '')}.${format}`;
    if (format === 'json') downloadFile(name, auditJson(rows), 'application/json');
    else downloadFile(name, auditCsv(rows), 'text/csv');
  }

  return (
    <main
      className="main-area history-screen"
      data-testid="history"
      aria-labelledby="history-title"
      onKeyDown={(event) => event.key === 'Escape' && showMain()}
    >
      <header className="history-header">
        <h1 id="history-title">Permission history</h1>
        {/* The exports write what the filters below list. */}
        <span className="history-exports">
          <button
            type="button"
            data-testid="history-export-json"
            disabled={status !== 'ready'}
            title="Download what is listed, as tether audit --json prints it"
            onClick={() => handleExport('json')}
          >
            Export JSON
          </button>
          <button
            type="button"
            data-testid="history-export-csv"
            disabled={status !== 'ready'}
            title="Download what is listed, as tether audit --csv prints it"
            onClick={() => handleExport('csv')}
          >
            Export CSV
          </button>
        </span>
        <button type="button" className="ghost" data-testid="history-close" onClick={showMain}>
          Close
        </button>
      </header>
      <div className="history-toolbar" role="group" aria-label="Which decisions">
        <label>
          <span>Session</span>
          <select
            data-testid="history-session"
            value={filter.sessionId ?? ''}
            onChange={(event) => setFilter({ sessionId: event.target.value || null })}
          >
            <option value="">All sessions</option>
            {filter.sessionId !== null && !known && <option value={filter.sessionId}>{filter.sessionId}</option>}
            {sessionChoices.map((choice) => {
              const [id, title] = choice.split('\n') as [string, string];
              return (
                <option key={id} value={id}>
                  {title}
                </option>
              );
            })}
          </select>
        </label>
        <label>
          <span>Since</span>
          <select
            data-testid="history-since"
            value={day !== undefined ? 'day' : filter.since}
            onChange={(event) => handleSince(event.target.value)}
          >
            {SPANS.map((span) => (
              <option key={span.value} value={span.value}>
                {span.label}
              </option>
            ))}
            <option value="day">From a day…</option>
          </select>
        </label>
        {day !== undefined && (
          <input
            type="date"
            aria-label="From the start of"
            data-testid="history-day"
            value={day}
            onChange={(event) => event.target.value && setFilter({ since: `day:${event.target.value}` })}
          />
        )}
        <label>
          <span>Tool</span>
          <select
            data-testid="history-filter-tool"
            value={filter.tool ?? ''}
            onChange={(event) => setFilter({ tool: event.target.value || null })}
          >
            <option value="">Any tool</option>
            {toolChoices.map((tool) => (
              <option key={tool} value={tool}>
                {tool}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Action</span>
          <select
            data-testid="history-filter-action"
            value={filter.action ?? ''}
            onChange={(event) => setFilter({ action: AuditAction.safeParse(event.target.value).data ?? null })}
          >
            <option value="">Any action</option>
            {AuditAction.options.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Decided by</span>
          <select
            data-testid="history-filter-by"
            value={filter.by ?? ''}
            onChange={(event) => setFilter({ by: AuditDecider.safeParse(event.target.value).data ?? null })}
          >
            <option value="">Anyone</option>
            {AuditDecider.options.map((by) => (
              <option key={by} value={by}>
                {by}
              </option>
            ))}
          </select>
        </label>
        <IconButton icon="refresh" label="Refresh" data-testid="history-refresh" onClick={() => void loadHistory()} />
      </div>
      {status === 'error' ? (
        <p className="error-text history-note" role="alert">
          Could not list the decisions: {history.error}{' '}
          <button type="button" onClick={() => void loadHistory()}>
            Try again
          </button>
        </p>
      ) : status === 'ready' && rows.length === 0 ? (
        <p className="faint history-note" data-testid="history-empty">
          No decisions recorded{filter.sessionId !== null ? ' in this session' : ''}
          {filter.since !== 'any' ? ' in this time' : ''}
          {narrowed ? ` ${narrowed}` : ''}. Each question answered, and each call a rule, a hook or the mode allowed or denied, is listed
          here.
        </p>
      ) : status !== 'ready' && rows.length === 0 ? (
        <p className="faint history-note">Loading…</p>
      ) : (
        <HistoryTable rows={rows} busy={status === 'loading'} />
      )}
    </main>
  );
}

/** Today as a date field writes it (local time): 2026-12-01. */
function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
