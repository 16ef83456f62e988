import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './store';

/**
 * The app and `tether run` may share one data directory, so two processes append to the same file.
 * The child processes run the real store, bundled from these sources, since Node cannot import
 * TypeScript (or `?raw` SQL) on its own.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-concurrency-'));
  // The bundle imports better-sqlite3 and zod by name; this lets Node find them from the temp dir.
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await build({
    configFile: false,
    logLevel: 'warn',
    root: repoRoot,
    build: {
      ssr: true,
      outDir: path.join(dir, 'bundle'),
      emptyOutDir: true,
      minify: false,
      rollupOptions: {
        input: { store: path.join(here, 'store.ts'), openDatabase: path.join(here, 'sqlite', 'openDatabase.ts') },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  });
  bundle = path.join(dir, 'bundle');
}, 60_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function node(script: string): ChildProcess {
  return spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
}

function output(child: ChildProcess): { lines: string[]; stderr: () => string } {
  const lines: string[] = [];
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return { lines, stderr: () => err };
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer | string): void => {
      seen += chunk.toString();
      if (seen.split('\n').includes(line)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing "${line}"`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('several writers on one database', () => {
  it('keeps seqs consecutive when two connections in one process take turns', () => {
    const file = path.join(dir, 'turns.db');
    const a = openStore({ file });
    const b = openStore({ file });
    try {
      const id = a.sessions.create({ workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:9', maxSteps: 5 }).id;
      const seqs: number[] = [];
      for (let i = 0; i < 10; i++) {
        const writer = i % 3 === 0 ? b : a;
        seqs.push(writer.events.append(id, { type: 'user.messaged', text: `message ${i}` }).seq);
      }
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(a.events.list(id).map((event) => event.seq)).toEqual(seqs);
    } finally {
      a.close();
      b.close();
    }
  });

  it('keeps seqs unique and consecutive when two processes append at the same time', async () => {
    const file = path.join(dir, 'race.db');
    const setup = openStore({ file });
    const id = setup.sessions.create({ workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:9', maxSteps: 5 }).id;
    setup.close();

    const perWriter = 400;
    const writer = (name: string): ChildProcess =>
      node(`
        import { openStore } from ${JSON.stringify(path.join(bundle, 'store.js'))};
        const store = openStore({ file: ${JSON.stringify(file)} });
        console.log('ready');
        process.stdin.once('data', () => {
          for (let i = 0; i < ${perWriter}; i++) {
            store.events.append(${JSON.stringify(id)}, { type: 'user.messaged', text: '${name}:' + i });
          }
          store.close();
          console.log('done');
        });
      `);
    const writers = [writer('a'), writer('b')];
    const logs = writers.map(output);
    await Promise.all(writers.map((child) => waitForLine(child, 'ready')));
    for (const child of writers) child.stdin?.end('go\n');
    const codes = await Promise.all(writers.map(exited));
    expect(codes, logs.map((log) => log.stderr()).join('\n')).toEqual([0, 0]);

    const store = openStore({ file });
    try {
      const events = store.events.list(id);
      expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 2 * perWriter }, (_, i) => i + 1));
      for (const name of ['a', 'b']) {
        // Each writer's own events keep the order it wrote them in.
        const mine = events.flatMap((stored) =>
          stored.event.type === 'user.messaged' && stored.event.text.startsWith(`${name}:`) ? [Number(stored.event.text.slice(2))] : [],
        );
        expect(mine).toEqual(Array.from({ length: perWriter }, (_, i) => i));
      }
      expect(store.sessions.get(id)?.lastSeq).toBe(2 * perWriter);
    } finally {
      store.close();
    }
  }, 60_000);

  it('makes an append wait while another process holds the write lock, then go through', async () => {
    const file = path.join(dir, 'wait.db');
    const store = openStore({ file }, { busyTimeoutMs: 10_000 });
    const id = store.sessions.create({ workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:9', maxSteps: 5 }).id;
    const holdMs = 400;
    const holder = node(`
      import { openDatabase } from ${JSON.stringify(path.join(bundle, 'openDatabase.js'))};
      const db = openDatabase(${JSON.stringify(file)});
      db.exec('BEGIN IMMEDIATE');
      console.log('locked');
      setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${holdMs});
    `);
    const log = output(holder);
    try {
      await waitForLine(holder, 'locked');
      const started = performance.now();
      const stored = store.events.append(id, { type: 'user.messaged', text: 'after the lock' });
      const waited = performance.now() - started;
      expect(stored.seq).toBe(1);
      expect(waited).toBeGreaterThanOrEqual(holdMs / 2);
      expect(await exited(holder), log.stderr()).toBe(0);
    } finally {
      holder.kill();
      store.close();
    }
  }, 30_000);
});
