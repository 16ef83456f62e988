import { parseArgs } from 'node:util';
import { plural } from '../../shared/costs';
import { foldEvents } from '../../shared/session';
import { openStore } from '../store/store';
import { CliError, dataDirFrom } from './cliError';
import { formatCost, formatProjectCost, formatUsage, projectTotals } from './costTable';
import { formatEvent } from './formatEvent';
import { sessionsUsage } from './usage';

export async function sessionsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${sessionsUsage}\n`);
    return 0;
  }
  const store = openStore(dataDirFrom(values['data-dir']));
  try {
    const [verb, id] = positionals;
    if (verb === undefined) {
      const sessions = store.sessions.list();
      if (values.json) {
        process.stdout.write(`${JSON.stringify(sessions)}\n`);
      } else if (sessions.length === 0) {
        process.stdout.write('No sessions yet. Start one with: tether run "<task>"\n');
      } else {
        for (const s of sessions) {
          const when = new Date(s.updatedAt).toISOString().replace('T', ' ').slice(0, 16);
          process.stdout.write(
            `${s.id}  ${s.status.padEnd(9)}  ${when}  ${s.model}  ${formatUsage(s.usage)}  ${formatCost(s)}  ${s.title}\n`,
          );
        }
        const paths = new Map(store.projects.list().map((project) => [project.id, project.path]));
        process.stdout.write('\nPer project:\n');
        for (const total of projectTotals(sessions)) {
          const where = (total.projectId !== null ? paths.get(total.projectId) : undefined) ?? '(no project)';
          const count = plural(total.sessions, 'session');
          process.stdout.write(`  ${where}  ${count}  ${formatUsage(total.usage)}  ${formatProjectCost(total)}\n`);
        }
      }
      return 0;
    }
    if (verb !== 'show' || !id) throw new CliError(sessionsUsage);
    const session = store.sessions.get(id);
    if (!session) throw new CliError(`No session ${id}. List them with: tether sessions`);
    const events = store.events.list(id);
    if (values.json) {
      for (const stored of events) process.stdout.write(`${JSON.stringify(stored)}\n`);
      return 0;
    }
    const state = foldEvents(events);
    process.stdout.write(
      `Session ${id}: ${session.title}\n${state.workspace} · ${state.model} · ${state.status} · ${state.steps} steps\n` +
        `${formatUsage(session.usage)} · ${formatCost(session)}\n\n`,
    );
    for (const stored of events) {
      for (const line of formatEvent(stored, { full: true })) process.stdout.write(`${String(stored.seq).padStart(4)}  ${line}\n`);
    }
    return 0;
  } finally {
    store.close();
  }
}
