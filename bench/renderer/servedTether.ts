import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedModel, type ScriptedModel, type Turn } from '../../test/fixtures/scriptedModel';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The build to serve: out/ (what `npm run build` writes), or another folder inside the repository
 * given as TETHER_BENCH_OUT (an unminified build to profile, say; inside, so its bundles find node_modules).
 */
export const buildDir = path.resolve(repoRoot, process.env.TETHER_BENCH_OUT ?? 'out');

/** Why the built app cannot be served, or null when it can. */
export function missingBuild(): string | null {
  for (const file of ['main/cli.js', 'renderer/index.html']) {
    const built = path.join(buildDir, file);
    if (!existsSync(built)) return `${built} is missing: run \`npx electron-vite build\` (npm run bench:renderer does) first`;
  }
  return null;
}

export interface ServedTether {
  url: string;
  workspace: string;
  dataDir: string;
  model: ScriptedModel;
  close(): Promise<void>;
}

export interface ServeOptions {
  turns?: Turn[];
  /** Runs after the data folder and workspace exist and before `tether serve` starts on them. */
  prepare?(folders: { dataDir: string; workspace: string; baseUrl: string }): void | Promise<void>;
}

/**
 * The built `tether serve` in its own process, as e2e/support/servedApp.ts starts it (a fresh data
 * folder, a copy of the failing-test fixture as the workspace, the scripted model), with a hook to
 * write data before the server opens the store.
 */
export async function serveTether(options: ServeOptions = {}): Promise<ServedTether> {
  const base = mkdtempSync(path.join(tmpdir(), 'tether-bench-'));
  const workspace = path.join(base, 'workspace');
  const dataDir = path.join(base, 'data');
  cpSync(path.join(repoRoot, 'test/fixtures/repos/failing-test'), workspace, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  const model = await startScriptedModel({ turns: options.turns ?? [] });
  writeFileSync(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ model: { baseUrl: model.baseUrl, api: 'chat', model: 'scripted-model' } }),
  );
  let child: ChildProcess | undefined;
  try {
    await options.prepare?.({ dataDir, workspace, baseUrl: model.baseUrl });
    child = spawn(process.execPath, [path.join(buildDir, 'main/cli.js'), 'serve', '--cwd', workspace, '--data-dir', dataDir], {
      env: { ...process.env, TETHER_API_KEY: 'bench-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await addressOf(child);
    const running = child;
    return {
      url,
      workspace,
      dataDir,
      model,
      async close() {
        if (running.exitCode === null) {
          const exited = new Promise((resolve) => running.once('exit', resolve));
          running.kill('SIGINT');
          await exited;
        }
        await model.close();
        rmSync(base, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill('SIGKILL');
    await model.close();
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
}

function addressOf(child: ChildProcess): Promise<string> {
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = stdout.match(/http:\/\/127\.0\.0\.1:\d+\/#token=\S+/)?.[0];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`tether serve exited ${code} before printing its address:\n${stderr}`)));
  });
}
