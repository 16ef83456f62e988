import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, dataDirFrom } from './cliError';
import { serveUsage } from './usage';
import { createAppServices } from '../app/createServices';
import { DEFAULT_DESK_LISTEN } from '../app/desk/deskServices';
import type { CreateAppServices } from '../app/appServices';
import { startServeHost, type ServeHost } from '../host/serve';
import { keepServePort, lastServePort } from '../host/servePort';

type Signal = 'SIGINT' | 'SIGTERM';

export interface ServeCommandDeps {
  createAppServices?: CreateAppServices;
  /** The built renderer (out/renderer): the entry that starts this knows where the build put it. */
  rendererDir: string;
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Where SIGINT and SIGTERM arrive (the process). */
  signals?: { once(signal: Signal, listener: () => void): unknown; off(signal: Signal, listener: () => void): unknown };
  /** How a second Ctrl+C ends a shutdown that hangs. */
  exit?: (code: number) => void;
}

export async function serveCommand(argv: string[], deps: ServeCommandDeps): Promise<number> {
  const stdout = deps.stdout ?? process.stdout;
  const stderr = deps.stderr ?? process.stderr;
  const signals = deps.signals ?? process;
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      cwd: { type: 'string' },
      'data-dir': { type: 'string' },
      'remote-runs': { type: 'boolean', default: false },
      'desk-host': { type: 'string' },
      'desk-port': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    stdout.write(`${serveUsage}\n`);
    return 0;
  }
  const port = parsePort(values.port);
  if (!values['remote-runs'] && (values['desk-host'] !== undefined || values['desk-port'] !== undefined)) {
    throw new CliError('--desk-host and --desk-port say where remote runs connect; they come with --remote-runs.');
  }
  const listen = {
    host: values['desk-host'] ?? DEFAULT_DESK_LISTEN.host,
    port: values['desk-port'] === undefined ? DEFAULT_DESK_LISTEN.port : parsePort(values['desk-port'], '--desk-port'),
  };
  const cwd = existingFolder(values.cwd ?? process.cwd());
  const { rendererDir } = deps;
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new CliError(
      `The browser UI is not built: ${path.join(rendererDir, 'index.html')} is missing. Run \`npm run build\`, then try again.`,
    );
  }

  const dataDir = dataDirFrom(values['data-dir']);
  const services = await (deps.createAppServices ?? createAppServices)({
    dataDir,
    host: 'serve',
    cwd,
    ...(values['remote-runs'] ? { remoteRuns: { listen } } : {}),
  });
  const start = (at: number) => startServeHost({ handlers: services.handlers, subscribe: services.subscribe, rendererDir, port: at });
  // No --port: the port of the last run if it is free, so a tab still open there finds this run.
  const previous = values.port === undefined ? lastServePort(dataDir) : undefined;
  let host: ServeHost;
  try {
    host = await start(previous ?? port).catch((error: unknown) => {
      if (previous === undefined || !isPortRefusal(error)) throw error;
      return start(0);
    });
  } catch (error) {
    await services.close();
    if (isPortRefusal(error)) throw new CliError(error instanceof Error ? error.message : String(error));
    throw error;
  }
  if (values.port === undefined) keepServePort(dataDir, host.port);

  stdout.write(`${host.url}\n`);
  if (values['remote-runs']) {
    const desk = await services.handlers['remote:get']({});
    if (desk.state === 'listening') {
      stderr.write(
        `tether serve: remote runs report to ${desk.url}${desk.fingerprint ? ` (certificate SHA-256 ${desk.fingerprint}: give it to runners as --desk-fingerprint)` : ''}.\n`,
      );
    } else stderr.write(`tether serve: ${desk.problem ?? 'remote runs are off.'}\n`);
  }
  stderr.write(
    `tether serve: open the address above in a browser on this machine; it carries this run's access token, so keep it to yourself. Ctrl+C stops.\n`,
  );

  const signal = await new Promise<Signal>((resolve) => {
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    const done = (received: Signal) => {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
      resolve(received);
    };
    signals.once('SIGINT', onInt);
    signals.once('SIGTERM', onTerm);
  });

  stderr.write(`tether serve: ${signal}, stopping (press Ctrl+C again to stop at once).\n`);
  const exit = deps.exit ?? ((code: number) => process.exit(code));
  const force = () => exit(130);
  signals.once('SIGINT', force);
  try {
    await host.close();
    await services.close();
  } finally {
    signals.off('SIGINT', force);
  }
  stderr.write('tether serve: stopped.\n');
  return 0;
}

function isPortRefusal(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'EADDRINUSE' || code === 'EACCES';
}

function parsePort(value: string | undefined, flag = '--port', lowest = 0): number {
  if (value === undefined) return 0;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= lowest && port <= 65535)) {
    throw new CliError(`${flag} must be a number from ${lowest} to 65535${lowest === 0 ? ' (0 picks a free one)' : ''}, not "${value}".`);
  }
  return port;
}

function existingFolder(folder: string): string {
  const resolved = path.resolve(folder);
  let isFolder = false;
  try {
    isFolder = statSync(resolved).isDirectory();
  } catch {
    // Missing or unreadable: said below.
  }
  if (!isFolder) throw new CliError(`--cwd ${resolved} is not a folder; give an existing folder.`);
  return resolved;
}
