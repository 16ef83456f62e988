import { parseArgs } from 'node:util';
import { auditCsv, auditJson, isoTime, oneLine, type AuditRow } from '../../shared/auditExport';
import { auditRows } from '../store/auditRows';
import { openStore } from '../store/store';
import { CliError, dataDirFrom } from './cliError';
import { auditUsage } from './usage';

export async function auditCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      since: { type: 'string' },
      session: { type: 'string' },
      json: { type: 'boolean', default: false },
      csv: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${auditUsage}\n`);
    return 0;
  }
  if (values.json && values.csv) throw new CliError('Choose one of --json and --csv.');
  const since = values.since === undefined ? undefined : parseSince(values.since, Date.now());

  const store = openStore(dataDirFrom(values['data-dir']));
  let rows: AuditRow[] | undefined;
  try {
    rows = auditRows(store, {
      ...(values.session !== undefined ? { sessionId: values.session } : {}),
      ...(since !== undefined ? { since } : {}),
    });
  } finally {
    store.close();
  }
  if (!rows) throw new CliError(`No session ${values.session}. List them with: tether sessions`);

  if (values.json) {
    process.stdout.write(auditJson(rows));
  } else if (values.csv) {
    process.stdout.write(auditCsv(rows));
  } else if (rows.length === 0) {
    process.stdout.write('No decisions recorded.\n');
  } else {
    for (const row of rows) process.stdout.write(`${textLine(row)}\n`);
  }
  return 0;
}

function textLine(row: AuditRow): string {
  const when = isoTime(row.at).replace('T', ' ').slice(0, 19);
  const from = row.source ? ` from ${row.source}` : '';
  const rule = row.rule
    ? ` (${row.by === 'hook' ? 'hook' : 'rule'} ${row.rule}${from}${row.scope && row.scope !== 'once' ? `, ${row.scope}` : ''})`
    : '';
  return `${when}  ${row.sessionId}  ${row.action.padEnd(10)} by ${row.by}${rule}  ${row.tool ?? '-'}: ${oneLine(row.what)}  [${row.runner !== undefined ? `runner ${row.runner}: ` : ''}${row.project}]`;
}

/** `--since`: a date or date-time (2026-12-01, 2026-12-01T09:00), or a span back from now (30m, 12h, 7d). */
export function parseSince(text: string, now: number): number {
  const span = /^(\d+)([mhd])$/.exec(text.trim());
  if (span) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[span[2] as 'm' | 'h' | 'd'];
    return now - Number(span[1]) * unit;
  }
  const at = /^\d{4}-\d{2}-\d{2}/.test(text.trim()) ? Date.parse(text.trim()) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new CliError(`--since takes a date (2026-12-01), a date and time (2026-12-01T09:00) or a span (30m, 12h, 7d), not "${text}".`);
  }
  return at;
}
