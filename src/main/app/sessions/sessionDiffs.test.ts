import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/store';
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

describe('the live diff', () => {
  it('waits for the starting snapshot when asked while it is still being taken, instead of failing', async () => {
    const dataDir = temp('tether-diffs-data-');
    const workspace = temp('tether-diffs-ws-');
    for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(workspace, `file${i}.txt`), `line ${i}\n`);
    store = openStore(dataDir);
    const project = store.projects.ensure(workspace);
    const { id } = store.sessions.create({
      workspace,
      projectId: project.id,
      model: 'm',
      api: 'chat',
      baseUrl: 'http://127.0.0.1:9',
      maxSteps: 5,
    });
    const diffs = new SessionDiffs(store, new SessionShadowRepos(store, dataDir));

    const base = diffs.takeBase(id);
    // Asked at once, as the UI does when a session opens.
    await expect(diffs.files(id)).resolves.toEqual([]);
    await base;

    // Changed by hand, not by one of the session's steps: not the session's change.
    fs.writeFileSync(path.join(workspace, 'file1.txt'), 'changed\n');
    expect(await diffs.files(id)).toEqual([]);
  });
});
