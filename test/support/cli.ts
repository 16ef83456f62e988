import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelApi } from '../../src/shared/conversation';
import type { StoredEvent } from '../../src/shared/events';
import { startScriptedModel, type ScriptedModel, type Turn } from '../fixtures/scriptedModel';
import { fixtureRepo, tempDir } from './tempDirs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/tether.js');

/** Tests of the CLI run the built artifact, as a user would; `npm test` builds it first. */
export function assertCliBuilt(): void {
  if (!existsSync(path.join(root, 'out/main/cli.js'))) {
    throw new Error('out/main/cli.js is missing: run `npm run build` (npm test does) before the CLI tests.');
  }
}

export interface CliRun {
  child: ChildProcess;
  /** Every JSON event printed so far (with --json). */
  events: StoredEvent[];
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  /** Resolves with the first event that matches. */
  waitForEvent(match: (stored: StoredEvent) => boolean, timeoutMs?: number): Promise<StoredEvent>;
}

export function startCli(args: string[], env: Record<string, string>, options: { cwd?: string } = {}): CliRun {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, TETHER_API_KEY: 'test-key', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let out = '';
  let err = '';
  const events: StoredEvent[] = [];
  const waiters: Array<() => void> = [];
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith('{')) events.push(JSON.parse(line) as StoredEvent);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    events,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitForEvent(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No matching event within ${timeoutMs} ms.\nstdout:\n${out}\nstderr:\n${err}`);
        await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), exited, new Promise((r) => setTimeout(r, 100))]);
      }
    },
  };
}

export async function runCli(args: string[], env: Record<string, string>, options: { cwd?: string } = {}) {
  const run = startCli(args, env, options);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr(), events: run.events };
}

const cliServers: ScriptedModel[] = [];

/**
 * A scripted model playing `turns`, the failing-test fixture repository, a fresh TETHER_HOME, and
 * the flags that point `tether run` at them. `closeCliModels` (in afterEach) stops the servers.
 */
export async function cliSetUp(turns: Turn[], options: { api?: ModelApi; model?: string; apiKey?: string } = {}) {
  const server = await startScriptedModel({ turns, ...(options.apiKey ? { apiKey: options.apiKey } : {}) });
  cliServers.push(server);
  const repo = fixtureRepo('failing-test');
  const env = { TETHER_HOME: tempDir('tether-home-') };
  const flags = [
    '--cwd',
    repo,
    '--base-url',
    server.baseUrl,
    '--model',
    options.model ?? 'scripted-model',
    '--api',
    options.api ?? 'responses',
  ];
  return { server, repo, env, flags };
}

export async function closeCliModels(): Promise<void> {
  await Promise.all(cliServers.splice(0).map((server) => server.close()));
}
