import { parseArgs } from 'node:util';
import { auditEntries, type AuditEntry } from '../../shared/auditTrail';
import type { Json } from '../../shared/json';
import { openStore } from '../store/store';
import { CliError, dataDirFrom } from './cliError';
import { csvRecord } from './csv';
import { auditUsage } from './usage';

/** One decision as `tether audit` prints it: the log's entry with its session's project. */
type AuditRow = AuditEntry & { project: string };

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
];

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
  let rows: AuditRow[];
  try {
    const projects = new Map(store.projects.list().map((project) => [project.id, project.path]));
    let sessions = store.sessions.list();
    if (values.session !== undefined) {
      const session = store.sessions.get(values.session);
      if (!session) throw new CliError(`No session ${values.session}. List them with: tether sessions`);
      sessions = [session];
    }
    rows = sessions.flatMap((session) => {
      const project = (session.projectId !== null ? projects.get(session.projectId) : undefined) ?? session.workspace;
      return auditEntries(store.events.list(session.id)).map((entry) => ({ ...entry, project }));
    });
  } finally {
    store.close();
  }
  rows = rows.filter((row) => since === undefined || row.at >= since).sort((a, b) => a.at - b.at || a.seq - b.seq);

  if (values.json) {
    process.stdout.write(`${JSON.stringify(rows.map((row) => ({ ...row, time: isoTime(row.at) })) as unknown as Json)}\n`);
  } else if (values.csv) {
    process.stdout.write(csvRecord(CSV_COLUMNS));
    for (const row of rows) process.stdout.write(csvRecord(csvFields(row)));
  } else if (rows.length === 0) {
    process.stdout.write('No decisions recorded.\n');
  } else {
    for (const row of rows) process.stdout.write(`${textLine(row)}\n`);
  }
  return 0;
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
  ];
}

function textLine(row: AuditRow): string {
  const when = isoTime(row.at).replace('T', ' ').slice(0, 19);
  const from = row.source ? ` from ${row.source}` : '';
  const rule = row.rule
    ? ` (${row.by === 'hook' ? 'hook' : 'rule'} ${row.rule}${from}${row.scope && row.scope !== 'once' ? `, ${row.scope}` : ''})`
    : '';
  // One line per decision: a summary's own line breaks would make it look like several.
  const what = row.what.replace(/\s*\n\s*/g, ' ⏎ ');
  return `${when}  ${row.sessionId}  ${row.action.padEnd(10)} by ${row.by}${rule}  ${row.tool ?? '-'}: ${what}  [${row.project}]`;
}

function isoTime(at: number): string {
  return new Date(at).toISOString();
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
