import { z } from 'zod';
import { AuditEntry } from './auditTrail';
import { csvRecord } from './csv';

/**
 * The audit as it leaves Tether: `tether audit --json | --csv` and the permission history's export
 * buttons write it with these functions, so both give the same bytes for the same rows.
 */

/** One decision as the audit lists it: the log's entry with its session's project (its folder) and title. */
export const AuditRow = AuditEntry.extend({
  project: z.string(),
  /** The session's title as the sidebar shows it; empty for a session that has none yet. */
  sessionTitle: z.string(),
  /** For a remote run's decision: the runner it ran on (its project is then the repository there). */
  runner: z.string().optional(),
});
export type AuditRow = z.infer<typeof AuditRow>;

const CSV_COLUMNS = [
  'time',
  'session',
  'session_title',
  'project',
  'seq',
  'call',
  'tool',
  'what',
  'action',
  'decided_by',
  'rule',
  'rule_source',
  'scope',
  'reason',
  'runner',
  'edited',
  'proposed',
];

/** The rows as one JSON array and a line break. Keys in a fixed order, whatever order the rows' objects were built or parsed in. */
export function auditJson(rows: readonly AuditRow[]): string {
  const records = rows.map((row) => ({
    at: row.at,
    sessionId: row.sessionId,
    sessionTitle: row.sessionTitle,
    seq: row.seq,
    callId: row.callId,
    tool: row.tool,
    what: row.what,
    ...(row.edited ? { edited: true } : {}),
    ...(row.proposed !== undefined ? { proposed: row.proposed } : {}),
    action: row.action,
    by: row.by,
    ...(row.rule !== undefined ? { rule: row.rule } : {}),
    ...(row.source !== undefined ? { source: row.source } : {}),
    ...(row.scope !== undefined ? { scope: row.scope } : {}),
    ...(row.reason !== undefined ? { reason: row.reason } : {}),
    project: row.project,
    ...(row.runner !== undefined ? { runner: row.runner } : {}),
    time: isoTime(row.at),
  }));
  return `${JSON.stringify(records)}\n`;
}

/** The rows as CSV (RFC 4180, CRLF), a header record first. */
export function auditCsv(rows: readonly AuditRow[]): string {
  return [CSV_COLUMNS, ...rows.map(csvFields)].map(csvRecord).join('');
}

function csvFields(row: AuditRow): string[] {
  return [
    isoTime(row.at),
    row.sessionId,
    row.sessionTitle,
    row.project,
    String(row.seq),
    row.callId ?? '',
    row.tool ?? '',
    row.what,
    row.action,
    row.by,
    row.rule ?? '',
    row.source ?? '',
    row.scope ?? '',
    row.reason ?? '',
    row.runner ?? '',
    row.edited ? 'yes' : '',
    row.proposed ?? '',
  ];
}

export function isoTime(at: number): string {
  return new Date(at).toISOString();
}

/**
 * A summary on one line: its own line breaks would make one decision look like several, and a bare
 * carriage return would let a hostile command draw over the start of its line in a terminal.
 */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ⏎ ');
}
