import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store';
import { storeWithSession } from '../../../../test/support/storedSession';
import { SessionDiffs } from './sessionDiffs';
import { SessionShadowRepos } from '../../checkpoints/sessionShadowRepos';

let dirs: string[] = [];
let store: Store | undefined;

afterEach(() => {
  store?.close();
  store = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}

/** A session of its own store over `workspace`, and its live diff. */
function sessionIn(workspace: string) {
  const dataDir = temp('tether-diffs-data-');
  const { store: opened, sessionId: id } = storeWithSession(dataDir, workspace);
  store = opened;
  return { id, store: opened, diffs: new SessionDiffs(opened, new SessionShadowRepos(opened, dataDir)) };
}

/**
 * A session over a workspace holding `files`, with one step of its own, as the loop records it: the
 * files before it ran (`files`) and after (`changed` written over them).
 */
async function sessionWithOneStep(files: Record<string, string>, changed: Record<string, string>) {
  const workspace = temp('tether-diffs-ws-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(workspace, name), text);
  const session = sessionIn(workspace);
  const { id, store: opened, diffs } = session;
  await diffs.takeBase(id);
  const repo = await diffs.repoFor(id);
  const before = await repo.snapshot('before the call');
  for (const [name, text] of Object.entries(changed)) fs.writeFileSync(path.join(workspace, name), text);
  const after = await repo.snapshot('after the call');
  opened.events.append(id, {
    type: 'checkpoint.created',
    callId: 'c1',
    commit: after.commit,
    changed: true,
    skipped: 0,
    before: before.commit,
  });
  return { ...session, workspace, repo };
}

describe('the live diff', () => {
  it('waits for the starting snapshot when asked while it is still being taken, instead of failing', async () => {
    const workspace = temp('tether-diffs-ws-');
    for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(workspace, `file${i}.txt`), `line ${i}\n`);
    const { id, diffs } = sessionIn(workspace);

    const base = diffs.takeBase(id);
    // Asked at once, as the UI does when a session opens.
    await expect(diffs.files(id)).resolves.toEqual([]);
    await base;

    // Changed by hand, not by one of the session's steps: not the session's change.
    fs.writeFileSync(path.join(workspace, 'file1.txt'), 'changed\n');
    expect(await diffs.files(id)).toEqual([]);
  });

  it('shares one snapshot and one reading of the steps between a list and a file asked together, and a revert takes its own', async () => {
    const { id, diffs, workspace, repo } = await sessionWithOneStep(
      { 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' },
      { 'a.txt': 'one\nTWO\n', 'b.txt': 'B\n' },
    );

    const labels: string[] = [];
    const snapshot = repo.snapshot.bind(repo);
    repo.snapshot = (label, options) => {
      labels.push(label);
      return snapshot(label, options);
    };
    const [file, list] = await Promise.all([diffs.file(id, 'a.txt'), diffs.files(id)]);
    expect(list.map((change) => change.path)).toEqual(['a.txt', 'b.txt']);
    expect(file).toMatchObject({ path: 'a.txt', before: 'one\ntwo\n', after: 'one\nTWO\n' });
    expect(labels).toEqual(['diff against the workspace']);

    // Asked one after the other, each takes its own (the folder may have changed in between).
    labels.length = 0;
    await diffs.files(id);
    await diffs.file(id, 'b.txt');
    expect(labels).toEqual(['diff against the workspace', 'diff against the workspace']);

    // A revert acts on what it reads: it never joins a snapshot taken for showing.
    labels.length = 0;
    const showing = diffs.files(id);
    await diffs.revert(id, { path: 'b.txt' });
    await showing;
    expect(labels.filter((label) => label === 'diff against the workspace')).toHaveLength(2);
    expect(fs.readFileSync(path.join(workspace, 'b.txt'), 'utf8')).toBe('b\n');
  });

  it('reads the folder again when the person refreshes, where a reading under way began before their change', async () => {
    const { id, diffs, workspace, repo } = await sessionWithOneStep({ 'a.txt': 'one\n' }, { 'a.txt': 'two\n' });

    // A reading for showing that has read the folder, and is slow to answer.
    const snapshot = repo.snapshot.bind(repo);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const labels: string[] = [];
    let read = false;
    repo.snapshot = async (label, options) => {
      labels.push(label);
      const taken = await snapshot(label, options);
      if (!read) {
        read = true;
        await held;
      }
      return taken;
    };
    const showing = diffs.files(id);
    while (!read) await new Promise((resolve) => setTimeout(resolve, 5));
    // The session's step is undone by hand meanwhile: the file is as before the session.
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'one\n');
    const refreshed = diffs.files(id, 'session', true);
    // The older reading answers only once the refresh has had every chance to join it.
    const deadline = Date.now() + 1_000;
    while (labels.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    expect(await refreshed).toEqual([]);
    expect((await showing).map((change) => change.path)).toEqual(['a.txt']);
    expect(labels).toHaveLength(2);
  });
});
