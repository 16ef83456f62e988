import { createServer } from 'node:net';
import type { ScriptedModel, Turn } from '../fixtures/scriptedModel';
import { cliSetUp, startCli, type CliRun } from './cli';

// A remote run as a test starts it: kept apart from desk.ts, which builds the app's services, so the
// browser tests (which cannot load the main build's .txt imports) can start one too.

/** A free port on loopback, for a desk that must come back on the same one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** `tether run --desk` in a child process, its own data folder and scripted model, `--json` events on stdout. */
export async function startRunner(options: {
  desk: string;
  token?: string;
  turns: Turn[];
  wait?: string;
  extra?: string[];
  env?: Record<string, string>;
  /** Prepares the workspace before the run starts (a git origin, say). */
  beforeStart?(repo: string): void;
}): Promise<CliRun & { repo: string; home: string; server: ScriptedModel }> {
  const { env, flags, repo, server } = await cliSetUp(options.turns);
  options.beforeStart?.(repo);
  const run = startCli(
    ['run', 'remote task', '--json', '--desk', options.desk, '--desk-wait', options.wait ?? '60s', ...flags, ...(options.extra ?? [])],
    { ...env, ...(options.token !== undefined ? { TETHER_DESK_TOKEN: options.token } : {}), ...options.env },
  );
  return Object.assign(run, { repo, home: env.TETHER_HOME, server });
}

/** A run_command turn whose command writes `file` in the workspace: it asks in ask mode. */
export function writeTurn(file: string, text = file): Turn {
  return { toolCalls: [{ name: 'run_command', arguments: { command: `echo ${text} > ${file}` } }] };
}
