import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from './fixtures/scriptedModel';
import { closeServices, openServices, type OpenedServices } from './support/appServices';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Two sessions in one folder, through the contract the UI uses, with real shadow repositories and
// the real store: each session's diff shows what its own steps changed, never the other's or the
// person's, and a revert or an accept never touches a change the session did not make.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

const numbered = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const edit = (file: string, from: string, to: string) => ({
  name: 'edit_file',
  arguments: { path: file, old_string: from, new_string: to },
});

function folder(): string {
  const dir = tempDir('tether-shared-');
  writeFileSync(path.join(dir, 'shared.txt'), numbered);
  writeFileSync(path.join(dir, 'other.txt'), 'other\n');
  return dir;
}

/** Runs one turn of a session (its first, when `sessionId` is absent) and waits for it to end. */
async function turn(opened: OpenedServices, dir: string, turns: Turn[], sessionId?: string): Promise<string> {
  const finished = opened.events.filter((stored) => stored.event.type === 'session.finished').length;
  opened.server.push(...turns, { text: 'Done.' });
  let id = sessionId;
  if (id) await opened.handlers['session:send']({ sessionId: id, text: 'go on' });
  else id = (await opened.handlers['session:start']({ workspace: dir, task: 'work', mode: 'auto-edit' })).sessionId;
  await opened.waitForCount('session.finished', finished + 1);
  return id;
}

const paths = async (opened: OpenedServices, sessionId: string, scope?: 'turn' | 'session') =>
  (await opened.handlers['diff:files']({ sessionId, ...(scope ? { scope } : {}) })).map(
    (file) => `${file.status} ${file.path} +${file.additions} -${file.deletions}`,
  );

describe('two sessions in one folder', () => {
  it('a session that changed nothing has an empty diff while the other’s edits are in the folder', async () => {
    const dir = folder();
    const opened = await openServices();
    // B starts first, so the folder as B found it is before A's edits.
    const b = await turn(opened, dir, []);
    const a = await turn(opened, dir, [
      {
        toolCalls: [
          edit('shared.txt', 'line 3\n', 'LINE THREE\n'),
          { name: 'write_file', arguments: { path: 'new.txt', content: 'from A\n' } },
        ],
      },
    ]);

    expect(await paths(opened, b)).toEqual([]);
    expect(await paths(opened, b, 'turn')).toEqual([]);
    expect(await paths(opened, a)).toEqual(['added new.txt +1 -0', 'modified shared.txt +1 -1']);
    await expect(opened.handlers['diff:file']({ sessionId: b, path: 'shared.txt' })).rejects.toThrow(/no change made by this session/);
    // B's Revert and Accept cannot touch A's work.
    await expect(opened.handlers['diff:revert']({ sessionId: b, path: 'shared.txt' })).rejects.toThrow(/nothing to revert/);
    await expect(opened.handlers['diff:revert']({ sessionId: b, path: 'new.txt' })).rejects.toThrow(/nothing to revert/);
    await opened.handlers['diff:accept']({ sessionId: b });
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toContain('LINE THREE');
    expect(await paths(opened, a)).toEqual(['added new.txt +1 -0', 'modified shared.txt +1 -1']);
  });

  it('both edit one file in different places: each sees only its own hunks, and reverting A’s keeps B’s', async () => {
    const dir = folder();
    const opened = await openServices();
    const b = await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 2\n', 'B was here\n')] }]);
    const a = await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 15\n', 'A was here\n')] }]);
    // B edits again after A, next to nothing of A's.
    await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 8\n', 'B again\n')] }], b);

    const aDiff = await opened.handlers['diff:file']({ sessionId: a, path: 'shared.txt' });
    expect(aDiff.hunks?.map((hunk) => hunk.newStart)).toEqual([15]);
    // Both sides carry B's lines: the only difference is A's.
    expect(aDiff.before).toContain('B was here');
    expect(aDiff.before).toContain('B again');
    expect(aDiff.before).not.toContain('A was here');
    const bDiff = await opened.handlers['diff:file']({ sessionId: b, path: 'shared.txt' });
    expect(bDiff.hunks?.map((hunk) => hunk.newStart)).toEqual([2, 8]);
    expect(bDiff.before).toContain('A was here');
    expect(await paths(opened, b, 'turn')).toEqual(['modified shared.txt +1 -1']);

    await opened.handlers['diff:revert']({
      sessionId: a,
      path: 'shared.txt',
      hunk: { index: 0, fingerprint: aDiff.hunks![0]!.fingerprint },
    });
    const after = readFileSync(path.join(dir, 'shared.txt'), 'utf8');
    expect(after).toBe(numbered.replace('line 2\n', 'B was here\n').replace('line 8\n', 'B again\n'));
    expect(await paths(opened, a)).toEqual([]);
    expect((await opened.handlers['diff:file']({ sessionId: b, path: 'shared.txt' })).hunks?.map((hunk) => hunk.newStart)).toEqual([2, 8]);

    // A whole-file revert by B takes out B's lines only; A's revert (already done) stays done.
    await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 15\n', 'A once more\n')] }], a);
    await opened.handlers['diff:revert']({ sessionId: b, path: 'shared.txt' });
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toBe(numbered.replace('line 15\n', 'A once more\n'));
    expect(await paths(opened, b)).toEqual([]);
    expect(await paths(opened, a)).toEqual(['modified shared.txt +1 -1']);
  });

  it('a hand edit is not shown, in a file the session changed or in another, and survives the session’s revert', async () => {
    const dir = folder();
    const opened = await openServices();
    const a = await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 4\n', 'LINE FOUR\n')] }]);
    writeFileSync(path.join(dir, 'other.txt'), 'edited by the person\n');
    writeFileSync(path.join(dir, 'shared.txt'), readFileSync(path.join(dir, 'shared.txt'), 'utf8').replace('line 18\n', 'by hand\n'));
    writeFileSync(path.join(dir, 'hand.txt'), 'new by hand\n');

    expect(await paths(opened, a)).toEqual(['modified shared.txt +1 -1']);
    const diff = await opened.handlers['diff:file']({ sessionId: a, path: 'shared.txt' });
    expect(diff.hunks?.map((hunk) => hunk.newStart)).toEqual([4]);
    expect(diff.before).toContain('by hand');
    await expect(opened.handlers['diff:revert']({ sessionId: a, path: 'other.txt' })).rejects.toThrow(/nothing to revert/);

    await opened.handlers['diff:revert']({ sessionId: a, path: 'shared.txt' });
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toBe(numbered.replace('line 18\n', 'by hand\n'));
    expect(readFileSync(path.join(dir, 'other.txt'), 'utf8')).toBe('edited by the person\n');
    expect(readFileSync(path.join(dir, 'hand.txt'), 'utf8')).toBe('new by hand\n');
  });

  it('a command the session ran is its change; a hand edit meanwhile in another place is not', async () => {
    const dir = folder();
    const opened = await openServices();
    const answer = opened.waitForEvent('approval.asked').then(({ event }) => {
      if (event.type !== 'approval.asked') throw new Error('not a request');
      // The person edits while the request waits: before the step, so not the command's.
      writeFileSync(path.join(dir, 'other.txt'), 'while asked\n');
      return opened.handlers['approval:answer']({ approvalId: event.approvalId, action: 'allow', scope: 'once' });
    });
    const a = await turn(opened, dir, [
      { toolCalls: [{ name: 'run_command', arguments: { command: "printf 'appended\\n' >> shared.txt" } }] },
    ]);
    await answer;
    expect(await paths(opened, a)).toEqual(['modified shared.txt +1 -0']);
  });

  it('refuses to revert lines another session rewrote since, and never overwrites them', async () => {
    const dir = folder();
    const opened = await openServices();
    const a = await turn(opened, dir, [
      { toolCalls: [edit('shared.txt', 'line 5\n', 'A wrote this\n'), edit('shared.txt', 'line 12\n', 'A here too\n')] },
    ]);
    const seen = await opened.handlers['diff:file']({ sessionId: a, path: 'shared.txt' });
    expect(seen.hunks?.map((hunk) => hunk.newStart)).toEqual([5, 12]);

    // B rewrites A's first change; A's view is stale.
    const b = await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'A wrote this\n', 'B rewrote it\n')] }]);
    const before = readFileSync(path.join(dir, 'shared.txt'), 'utf8');
    await expect(
      opened.handlers['diff:revert']({ sessionId: a, path: 'shared.txt', hunk: { index: 0, fingerprint: seen.hunks![0]!.fingerprint } }),
    ).rejects.toThrow(/no longer what the diff showed/);
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toBe(before);

    // A's view now: only the change of A's that still stands; B's rewrite is B's.
    const now = await opened.handlers['diff:file']({ sessionId: a, path: 'shared.txt' });
    expect(now.hunks?.map((hunk) => hunk.newStart)).toEqual([12]);
    expect((await opened.handlers['diff:file']({ sessionId: b, path: 'shared.txt' })).before).toContain('A wrote this');
    await opened.handlers['diff:revert']({ sessionId: a, path: 'shared.txt' });
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toBe(numbered.replace('line 5\n', 'B rewrote it\n'));
  });

  it('a revert works from the folder as it is when asked: a change made since the diff was loaded, elsewhere, is kept', async () => {
    const dir = folder();
    const opened = await openServices();
    const a = await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 6\n', 'LINE SIX\n')] }]);
    const seen = await opened.handlers['diff:file']({ sessionId: a, path: 'shared.txt' });
    const file = path.join(dir, 'shared.txt');
    writeFileSync(file, readFileSync(file, 'utf8').replace('line 19\n', 'later, by hand\n'));
    await opened.handlers['diff:revert']({
      sessionId: a,
      path: 'shared.txt',
      hunk: { index: 0, fingerprint: seen.hunks![0]!.fingerprint },
    });
    expect(readFileSync(file, 'utf8')).toBe(numbered.replace('line 19\n', 'later, by hand\n'));
  });

  it('moves a session into a worktree of its own with its changes, leaving the other session’s in the folder', async () => {
    const dir = folder();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '--quiet', '--initial-branch=main');
    git('add', '.');
    git('commit', '--quiet', '-m', 'start');
    const opened = await openServices();
    const b = await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 15\n', 'B was here\n')] }]);
    const a = await turn(opened, dir, [
      {
        toolCalls: [
          edit('shared.txt', 'line 3\n', 'A was here\n'),
          { name: 'write_file', arguments: { path: 'new.txt', content: 'from A\n' } },
        ],
      },
    ]);

    const moved = await opened.handlers['worktree:move']({ sessionId: a });
    expect(moved).toMatchObject({ branch: expect.stringMatching(/^tether\//), carried: ['new.txt', 'shared.txt'], leftBehind: [] });
    // The worktree has A's changes on the last commit; the folder keeps B's, and A's are gone from it.
    expect(readFileSync(path.join(moved.path, 'shared.txt'), 'utf8')).toBe(numbered.replace('line 3\n', 'A was here\n'));
    expect(readFileSync(path.join(moved.path, 'new.txt'), 'utf8')).toBe('from A\n');
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toBe(numbered.replace('line 15\n', 'B was here\n'));
    expect(existsSync(path.join(dir, 'new.txt'))).toBe(false);
    const summary = (await opened.handlers['sessions:list']({})).find((session) => session.id === a);
    expect(summary?.workspace).toBe(moved.path);
    expect(await paths(opened, a)).toEqual(['added new.txt +1 -0', 'modified shared.txt +1 -1']);
    expect(await paths(opened, b)).toEqual(['modified shared.txt +1 -1']);

    // A works on in the worktree; a second move is refused.
    await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 8\n', 'A in its worktree\n')] }], a);
    expect(readFileSync(path.join(moved.path, 'shared.txt'), 'utf8')).toContain('A in its worktree');
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).not.toContain('A in its worktree');
    expect(await paths(opened, a)).toEqual(['added new.txt +1 -0', 'modified shared.txt +2 -2']);
    await expect(opened.handlers['worktree:move']({ sessionId: a })).rejects.toThrow(/already works in its own worktree/);

    // A step from before the move cannot have its files rewound (its snapshot is of the folder A
    // left): the preview says why before anything is tried, and a rewind refuses, changing nothing.
    const events = await opened.handlers['session:events']({ sessionId: a, afterSeq: 0 });
    const firstMessage = events.find((stored) => stored.event.type === 'user.messaged')!.seq;
    const preview = await opened.handlers['session:rewindPreview']({ sessionId: a, toSeq: firstMessage });
    expect(preview.filesUnavailable).toMatch(/moved to its own worktree after this step/);
    const before = readFileSync(path.join(moved.path, 'shared.txt'), 'utf8');
    await expect(opened.handlers['session:rewind']({ sessionId: a, toSeq: firstMessage, restore: 'both' })).rejects.toThrow(
      /cannot be rewound to this step: the session moved to its own worktree/,
    );
    expect(readFileSync(path.join(moved.path, 'shared.txt'), 'utf8')).toBe(before);
  });

  it('refuses to move a session outside a git repository, changing nothing', async () => {
    const dir = folder();
    const opened = await openServices();
    const a = await turn(opened, dir, [{ toolCalls: [edit('shared.txt', 'line 3\n', 'A was here\n')] }]);
    await expect(opened.handlers['worktree:move']({ sessionId: a })).rejects.toThrow(
      /cannot move to a worktree: .*not in a git repository/,
    );
    expect(readFileSync(path.join(dir, 'shared.txt'), 'utf8')).toContain('A was here');
    expect(await paths(opened, a)).toEqual(['modified shared.txt +1 -1']);
  });
});
