import type { AuditRow } from '../../../../shared/auditExport';

/**
 * What stands behind the decider in the history's "Decided by" column: the rule or hook, with whose
 * settings it came from ("rule run_command(npm *) from user"), as `tether audit` prints it.
 */
export function decidedByDetail(row: AuditRow): string | undefined {
  if (row.rule) return `${row.by === 'hook' ? 'hook' : 'rule'} ${row.rule}${row.source ? ` from ${row.source}` : ''}`;
  return row.source ? `from ${row.source}` : undefined;
}
