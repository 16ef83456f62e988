import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedModel, type ScriptedModel, type Turn } from '../../test/fixtures/scriptedModel';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `tether serve` as a person starts it: the built CLI in its own process, a fresh data folder, a copy
 * of a fixture repository as the workspace, and the scripted model standing in for the model.
 */
export interface ServedApp {
  url: string;
  workspace: string;
  dataDir: string;
  model: ScriptedModel;
  /** Stops the server (as Ctrl+C does) and starts it again on the same data folder. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startServedApp(
  options: {
    turns?: Turn[];
    fixture?: string;
    /** More of the person's settings (mcpServers, say). */
    settings?: Record<string, unknown>;
    /** More of the server's environment (a PATH without bubblewrap, say). */
    env?: Record<string, string>;
    /** A first run: settings name no model (pass `env` without a key, too, for the welcome to set one up). */
    noModel?: boolean;
    /** More of tether serve's options (--remote-runs, say). */
    serveArgs?: string[];
  } = {},
): Promise<ServedApp> {
  const base = mkdtempSync(path.join(tmpdir(), 'tether-e2e-'));
  const workspace = path.join(base, 'workspace');
  const dataDir = path.join(base, 'data');
  cpSync(path.join(root, 'test/fixtures/repos', options.fixture ?? 'failing-test'), workspace, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  const model = await startScriptedModel({ turns: options.turns ?? [] });
  writeFileSync(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({
      ...(options.noModel ? {} : { model: { baseUrl: model.baseUrl, api: 'chat', model: 'scripted-model' } }),
      ...options.settings,
    }),
  );

  let child: ChildProcess | undefined;
  const app: ServedApp = {
    url: '',
    workspace,
    dataDir,
    model,
    async restart() {
      await stop();
      app.url = await start();
    },
    async close() {
      await stop();
      await model.close();
      rmSync(base, { recursive: true, force: true });
    },
  };

  async function start(): Promise<string> {
    child = spawn(
      process.execPath,
      [path.join(root, 'bin/tether.js'), 'serve', '--cwd', workspace, '--data-dir', dataDir, ...(options.serveArgs ?? [])],
      {
        env: { ...process.env, TETHER_API_KEY: 'test-key', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    return new Promise<string>((resolve, reject) => {
      let stdout = '';
      child!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const url = stdout.match(/http:\/\/127\.0\.0\.1:\d+\/#token=\S+/)?.[0];
        if (url) resolve(url);
      });
      child!.on('exit', (code) => reject(new Error(`tether serve exited ${code} before printing its address:\n${stderr}`)));
    });
  }

  async function stop(): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.on('exit', resolve));
    running.kill('SIGINT');
    await exited;
  }

  app.url = await start();
  return app;
}
