import { z } from 'zod';
import { AuditEntry } from './auditTrail';
import { csvRecord } from './csv';

/**
 * The audit as it leaves Tether: `tether audit --json | --csv` and the permission history's export
 * buttons write it with these functions, so both give the same bytes for the same rows.
 */

/** One decision as the audit lists it: the log's entry with its session's project (its folder). */
export const AuditRow = AuditEntry.extend({
  project: z.string(),
  /** For a remote run's decision: the runner it ran on (its project is then the repository there). */
  runner: z.string().optional(),
});
export type AuditRow = z.infer<typeof AuditRow>;

const CSV_COLUMNS = [
  'time',
  'session',
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
];

/** The rows as one JSON array and a line break. Keys in a fixed order, whatever order the rows' objects were built or parsed in. */
export function auditJson(rows: readonly AuditRow[]): string {
  const records = rows.map((row) => ({
    at: row.at,
    sessionId: row.sessionId,
    seq: row.seq,
    callId: row.callId,
    tool: row.tool,
    what: row.what,
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
