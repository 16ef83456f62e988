import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { derivedGitRoot, effectiveFence, supervisorsRoot } from './fence';
import { processFolder, processFolderName, UNOWNED_LEFTOVER_DAYS } from './processFolders';
import { pruneSandboxLeftovers } from './sandboxLeftovers';
import { ensureSessionTemp, pruneSessionTemps, runTempDir, sessionTempDir, tempRoot } from './sessionTemp';
import { unreadableSupervisor } from './unreadableSupervisor';

// Real folders in a real data folder, and a real second process making its own the way Tether does:
// what a crash leaves goes, what a process running beside this one uses stays.

let root: string;
let dataDir: string;
let workspace: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-leftovers-')));
  dataDir = path.join(root, 'data');
  workspace = path.join(root, 'ws');
  fs.mkdirSync(workspace, { recursive: true });
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

interface TetherFolders {
  pid: number;
  supervisor: string;
  derivedGit: string;
  runTemp: string;
}

/** Folders a profile and a project server of this process hold, made as the sandbox makes them. */
function makeFolders(): Omit<TetherFolders, 'pid'> {
  const fence = effectiveFence({ workspace, dataDir });
  const profileId = randomUUID();
  const supervisor = unreadableSupervisor('/bin/true', fence.supervisors, profileId).copy;
  const derivedGit = path.join(fence.darkHome!.derivedGit, profileId);
  fs.mkdirSync(derivedGit, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(derivedGit, 'gitconfig'), '[user]\n\tname = t\n');
  const runTemp = ensureSessionTemp(runTempDir(dataDir));
  return { supervisor, derivedGit, runTemp };
}

/** A second Tether process that makes the same folders and runs until it is killed. */
async function otherProcess(): Promise<{ child: ChildProcess; folders: TetherFolders }> {
  const program = `
    const { effectiveFence } = await import(${JSON.stringify(path.resolve(__dirname, 'fence.ts'))});
    const { unreadableSupervisor } = await import(${JSON.stringify(path.resolve(__dirname, 'unreadableSupervisor.ts'))});
    const { ensureSessionTemp, runTempDir } = await import(${JSON.stringify(path.resolve(__dirname, 'sessionTemp.ts'))});
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dataDir = ${JSON.stringify(dataDir)};
    const fence = effectiveFence({ workspace: ${JSON.stringify(workspace)}, dataDir });
    const supervisor = unreadableSupervisor('/bin/true', fence.supervisors, 'p1').copy;
    const derivedGit = path.join(fence.darkHome.derivedGit, 'p1');
    fs.mkdirSync(derivedGit, { recursive: true });
    const runTemp = ensureSessionTemp(runTempDir(dataDir));
    console.log(JSON.stringify({ pid: process.pid, supervisor, derivedGit, runTemp }));
    setInterval(() => {}, 60_000);
  `;
  const file = path.join(root, `other-${randomUUID()}.ts`);
  fs.writeFileSync(file, program);
  const child = spawn(path.resolve('node_modules/.bin/jiti'), [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const folders = await new Promise<TetherFolders>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((text) => text.startsWith('{'));
      if (line && out.includes('\n')) resolve(JSON.parse(line) as TetherFolders);
    });
    child.on('exit', (code) => reject(new Error(`the other process ended (${code}) before it made its folders`)));
  });
  return { child, folders };
}

async function killed(child: ChildProcess): Promise<void> {
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await ended;
}

/** A pid no process holds now: a process's that ended. */
async function freedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

function ownName(): { pid: number; start: string; host: string } {
  const [pid, start, host] = path.basename(processFolder(root)).slice('process-'.length).split('-');
  return { pid: Number(pid), start: start!, host: host! };
}

function daysAgo(entry: string, days: number): void {
  const then = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  fs.utimesSync(entry, then, then);
}

describe('sandbox leftovers', () => {
  it('keeps every folder a Tether process running beside this one uses, and removes them once it is killed', async () => {
    const { child, folders } = await otherProcess();
    for (const made of [folders.supervisor, folders.derivedGit, folders.runTemp]) expect(fs.existsSync(made)).toBe(true);

    expect(pruneSandboxLeftovers(dataDir)).toEqual([]);
    for (const made of [folders.supervisor, folders.derivedGit, folders.runTemp]) expect(fs.existsSync(made)).toBe(true);
    // Its sessions' housekeeping leaves the project server's /tmp alone too.
    expect(pruneSessionTemps(dataDir, () => false)).toEqual([]);
    expect(fs.existsSync(folders.runTemp)).toBe(true);

    await killed(child);
    const removed = pruneSandboxLeftovers(dataDir);
    expect(removed.map((entry) => entry.split('/')[0]).sort()).toEqual(['git', 'supervisor', 'tmp']);
    for (const made of [folders.supervisor, folders.derivedGit, folders.runTemp]) expect(fs.existsSync(made)).toBe(false);
  }, 60_000);

  it('keeps this process’s own folders, and what other processes left goes without touching them', async () => {
    const own = makeFolders();
    const { child, folders } = await otherProcess();
    await killed(child);
    pruneSandboxLeftovers(dataDir);
    for (const made of Object.values(own)) expect(fs.existsSync(made)).toBe(true);
    expect(fs.existsSync(folders.supervisor)).toBe(false);
    expect(fs.readdirSync(supervisorsRoot(dataDir))).toEqual([path.basename(processFolder(supervisorsRoot(dataDir)))]);
  }, 60_000);

  it('removes the folder of a process whose pid another process took since (Linux: its start time differs)', async () => {
    if (process.platform !== 'linux') return;
    const me = ownName();
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)']);
    children.push(live);
    const pid = live.pid!;
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
    const folder = (owner: { pid: number; start: string }): string =>
      path.join(supervisorsRoot(dataDir), processFolderName({ ...owner, host: me.host }));
    const kept = [folder({ pid, start }), folder(me)];
    const reused = [folder({ pid, start: String(Number(start) - 1) }), folder({ pid: me.pid, start: String(Number(me.start) - 1) })];
    for (const made of [...kept, ...reused]) fs.mkdirSync(made, { recursive: true });
    expect(pruneSandboxLeftovers(dataDir).sort()).toEqual(reused.map((made) => `supervisor/${path.basename(made)}`).sort());
    for (const made of kept) expect(fs.existsSync(made)).toBe(true);
  });

  it('never judges a folder made on another machine (a shared data folder), even when its pid is free here', async () => {
    const pid = await freedPid();
    const me = ownName();
    const elsewhere = path.join(
      derivedGitRoot(dataDir),
      processFolderName({ pid, start: '', host: me.host === '00000000' ? '11111111' : '00000000' }),
    );
    const here = path.join(derivedGitRoot(dataDir), processFolderName({ pid, start: '', host: me.host }));
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.mkdirSync(here, { recursive: true });
    expect(pruneSandboxLeftovers(dataDir)).toEqual([`git/${path.basename(here)}`]);
    expect(fs.existsSync(elsewhere)).toBe(true);
  });

  it(`removes folders from before owners were named once untouched for ${UNOWNED_LEFTOVER_DAYS} days, and leaves the sessions' /tmp to their sessions`, () => {
    const oldSupervisor = path.join(supervisorsRoot(dataDir), randomUUID());
    const newSupervisor = path.join(supervisorsRoot(dataDir), randomUUID());
    const oldGit = path.join(derivedGitRoot(dataDir), randomUUID());
    const session = ensureSessionTemp(sessionTempDir(dataDir, 'session-1'));
    for (const folder of [oldSupervisor, newSupervisor, oldGit]) fs.mkdirSync(folder, { recursive: true });
    for (const folder of [oldSupervisor, oldGit, session]) daysAgo(folder, UNOWNED_LEFTOVER_DAYS + 1);
    daysAgo(newSupervisor, UNOWNED_LEFTOVER_DAYS - 1);

    expect(pruneSandboxLeftovers(dataDir).sort()).toEqual([`git/${path.basename(oldGit)}`, `supervisor/${path.basename(oldSupervisor)}`]);
    expect(fs.existsSync(newSupervisor)).toBe(true);
    expect(fs.readdirSync(tempRoot(dataDir))).toEqual(['session-1']);
  });

  it('finds nothing to do in a data folder the sandbox never used', () => {
    expect(pruneSandboxLeftovers(dataDir)).toEqual([]);
  });
});
