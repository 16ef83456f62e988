import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from './fixtures/scriptedModel';
import { closeServices, openServices } from './support/appServices';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Worktree sessions: a session on its own branch in its own folder, merged, squashed or discarded at
// the end, against real git repositories in temporary folders.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

function repository(): string {
  const dir = realpathSync(tempDir('tether-wt-repo-'));
  git(dir, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(path.join(dir, 'app.txt'), 'one\ntwo\nthree\n');
  writeFileSync(path.join(dir, 'notes.txt'), 'keep me\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '--quiet', '-m', 'start');
  return dir;
}

async function open(turns: Turn[]) {
  const app = await openServices({ turns });
  return { ...app, finished: () => app.waitForEvent('session.finished') };
}

const editApp: Turn[] = [
  {
    toolCalls: [
      { name: 'edit_file', arguments: { path: 'app.txt', old_string: 'two\n', new_string: 'TWO\n' } },
      { name: 'write_file', arguments: { path: 'added.txt', content: 'new file\n' } },
    ],
  },
  { text: 'Done.' },
];

async function worktreeSession(repo: string, turns: Turn[] = editApp) {
  const app = await open(turns);
  const project = await app.handlers['projects:open']({ path: repo });
  expect(await app.handlers['worktree:configure']({ projectId: project.id, enabled: true })).toMatchObject({ enabled: true });
  const { sessionId } = await app.handlers['session:start']({ workspace: repo, task: 'Change line two', mode: 'auto-edit' });
  await app.finished();
  const created = app.events.find((stored) => stored.event.type === 'worktree.created')!.event;
  if (created.type !== 'worktree.created') throw new Error('no worktree');
  return { ...app, sessionId, created };
}

describe('worktree sessions', () => {
  it('work on a new branch in their own folder; the main checkout is untouched until the work is squashed back as one commit', async () => {
    const repo = repository();
    const head = git(repo, 'rev-parse', 'HEAD');
    const { handlers, sessionId, created, dataDir } = await worktreeSession(repo);

    expect(created).toMatchObject({ repo, baseCommit: head });
    expect(created.branch).toMatch(/^tether\/[0-9a-z]{8}$/);
    expect(created.path.startsWith(realpathSync(dataDir))).toBe(true);
    expect((await handlers['sessions:list']({}))[0]).toMatchObject({ id: sessionId, workspace: created.path });
    expect(readFileSync(path.join(created.path, 'app.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(readFileSync(path.join(repo, 'app.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(existsSync(path.join(repo, 'added.txt'))).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    // The live diff follows the worktree.
    expect((await handlers['diff:files']({ sessionId })).map((file) => file.path)).toEqual(['added.txt', 'app.txt']);

    const result = await handlers['worktree:finish']({ sessionId, action: 'squash', message: 'Change line two' });
    expect(result).toMatchObject({ action: 'squash', into: 'main' });
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(result.commit);
    expect(git(repo, 'rev-list', '--count', `${head}..HEAD`)).toBe('1');
    expect(git(repo, 'rev-list', '--parents', '-n', '1', 'HEAD').split(' ')).toHaveLength(2);
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('Change line two');
    expect(readFileSync(path.join(repo, 'app.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(readFileSync(path.join(repo, 'added.txt'), 'utf8')).toBe('new file\n');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(existsSync(created.path)).toBe(false);
    expect(git(repo, 'branch', '--list', created.branch)).toBe('');
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(created.path);

    const log = await handlers['session:events']({ sessionId, afterSeq: 0 });
    expect(log.map((stored) => stored.event.type)).toContain('worktree.finished');
    await expect(handlers['worktree:finish']({ sessionId, action: 'discard' })).rejects.toThrow(/already squashed/);
  });

  it('merges with a merge commit whose second parent is the branch', async () => {
    const repo = repository();
    const head = git(repo, 'rev-parse', 'HEAD');
    const { handlers, sessionId, created } = await worktreeSession(repo);
    const tipBefore = await handlers['worktree:finish']({ sessionId, action: 'merge' });
    const parents = git(repo, 'rev-list', '--parents', '-n', '1', 'HEAD').split(' ');
    expect(parents[0]).toBe(tipBefore.commit);
    expect(parents[1]).toBe(head);
    expect(parents).toHaveLength(3);
    expect(git(repo, 'log', '-1', '--format=%s')).toBe(`Merge branch '${created.branch}' into main`);
    expect(readFileSync(path.join(repo, 'app.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(existsSync(created.path)).toBe(false);
    expect(git(repo, 'branch', '--list', created.branch)).toBe('');
  });

  it('discards: the worktree and its branch are gone and the main checkout never changed', async () => {
    const repo = repository();
    const head = git(repo, 'rev-parse', 'HEAD');
    const { handlers, sessionId, created } = await worktreeSession(repo);
    await expect(handlers['session:delete']({ sessionId })).rejects.toThrow(/still has its worktree.*discard it first/);
    expect(await handlers['worktree:finish']({ sessionId, action: 'discard' })).toEqual({ action: 'discard' });
    await handlers['session:delete']({ sessionId });
    expect(existsSync(created.path)).toBe(false);
    expect(git(repo, 'branch', '--list', 'tether/*')).toBe('');
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('refuses to squash into a dirty main checkout, naming the files, and changes nothing', async () => {
    const repo = repository();
    const head = git(repo, 'rev-parse', 'HEAD');
    const { handlers, sessionId, created } = await worktreeSession(repo);
    writeFileSync(path.join(repo, 'notes.txt'), 'edited by the person\n');
    await expect(handlers['worktree:finish']({ sessionId, action: 'squash' })).rejects.toThrow(
      /uncommitted changes to notes\.txt.*nothing was changed/,
    );
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(path.join(repo, 'notes.txt'), 'utf8')).toBe('edited by the person\n');
    expect(existsSync(created.path)).toBe(true);

    git(repo, 'checkout', '--quiet', '--', 'notes.txt');
    // An untracked file where the work would write one: git refuses to move the checkout, and nothing moves.
    writeFileSync(path.join(repo, 'added.txt'), "the person's own file\n");
    await expect(handlers['worktree:finish']({ sessionId, action: 'squash' })).rejects.toThrow(
      /nothing was changed there.*untracked working tree files would be overwritten/s,
    );
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(path.join(repo, 'added.txt'), 'utf8')).toBe("the person's own file\n");
    rmSync(path.join(repo, 'added.txt'));
    const result = await handlers['worktree:finish']({ sessionId, action: 'squash' });
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(result.commit);
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('Change line two');
  });

  it('reports a merge conflict with its files and applies nothing', async () => {
    const repo = repository();
    const { handlers, sessionId, created } = await worktreeSession(repo);
    writeFileSync(path.join(repo, 'app.txt'), 'one\nzwei\nthree\n');
    git(repo, 'commit', '--quiet', '-am', 'the person changed line two too');
    const head = git(repo, 'rev-parse', 'HEAD');
    await expect(handlers['worktree:finish']({ sessionId, action: 'merge' })).rejects.toThrow(
      /would conflict in app\.txt\. Nothing was changed in/,
    );
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(readFileSync(path.join(repo, 'app.txt'), 'utf8')).toBe('one\nzwei\nthree\n');
    expect(existsSync(created.path)).toBe(true);
    // It can still be thrown away.
    await handlers['worktree:finish']({ sessionId, action: 'discard' });
    expect(existsSync(created.path)).toBe(false);
  });

  it('cannot be turned on for a folder that is not a git repository; sessions there work in place', async () => {
    const folder = realpathSync(tempDir('tether-plain-'));
    writeFileSync(path.join(folder, 'app.txt'), 'one\ntwo\nthree\n');
    const app = await open(editApp);
    const project = await app.handlers['projects:open']({ path: folder });
    await expect(app.handlers['worktree:configure']({ projectId: project.id, enabled: true })).rejects.toThrow(
      /not in a git repository.*work in the folder itself/,
    );
    expect(await app.handlers['worktree:setting']({ projectId: project.id })).toMatchObject({
      enabled: false,
      unavailable: expect.stringMatching(/git init/),
    });
    const { sessionId } = await app.handlers['session:start']({ workspace: folder, task: 'Change line two', mode: 'auto-edit' });
    await app.finished();
    expect(app.events.some((stored) => stored.event.type === 'worktree.created')).toBe(false);
    expect(readFileSync(path.join(folder, 'app.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    await expect(app.handlers['worktree:finish']({ sessionId, action: 'squash' })).rejects.toThrow(/not in a worktree of its own/);
  });
});
