import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequestBody, Turn } from './fixtures/scriptedModel';
import { closeServices, openServices } from './support/appServices';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Per-hunk review in the live diff, through the contract the UI uses: revert a hunk or a file (and
// nothing else), accept, the two scopes, and what the model is told.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

const open = (turns: Turn[] = []) => openServices({ turns });

const aBefore = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const bBefore = 'alpha\r\nbeta\r\n';
const binary = Buffer.from([0, 1, 2, 3, 255, 0, 10, 13]);

function workspace(): string {
  const dir = tempDir('tether-review-');
  writeFileSync(path.join(dir, 'a.txt'), aBefore);
  writeFileSync(path.join(dir, 'b.txt'), bBefore);
  mkdirSync(path.join(dir, 'bin'));
  writeFileSync(path.join(dir, 'bin/c.bin'), binary);
  return dir;
}

const edit = (file: string, from: string, to: string) => ({
  name: 'edit_file',
  arguments: { path: file, old_string: from, new_string: to },
});

function noteCount(body: ScriptedRequestBody): number {
  return JSON.stringify(body.messages ?? body.input).split('The person reverted these changes').length - 1;
}

describe('per-hunk review', () => {
  it('reverts one hunk and whole files exactly, tells the model once, and scopes the diff to the last turn', async () => {
    const dir = workspace();
    const { handlers, waitForCount, events, server } = await open([
      {
        toolCalls: [
          edit('a.txt', 'line 3\n', 'LINE THREE\n'),
          edit('a.txt', 'line 15\n', 'line 15\nextra\n'),
          edit('b.txt', 'beta', 'BETA'),
          { name: 'write_file', arguments: { path: 'd.txt', content: 'new\n' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'edit things', mode: 'auto-edit' });
    await waitForCount('session.finished', 1);

    expect((await handlers['diff:files']({ sessionId })).map((file) => `${file.status} ${file.path}`)).toEqual([
      'modified a.txt',
      'modified b.txt',
      'added d.txt',
    ]);
    const aDiff = await handlers['diff:file']({ sessionId, path: 'a.txt' });
    expect(aDiff.hunks?.map(({ fingerprint: _f, ...range }) => range)).toEqual([
      { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
      { oldStart: 15, oldLines: 0, newStart: 16, newLines: 1 },
    ]);
    const aAfter = readFileSync(path.join(dir, 'a.txt'));
    const bAfter = readFileSync(path.join(dir, 'b.txt'));

    // A fingerprint from a stale view is refused, and nothing changes.
    await expect(
      handlers['diff:revert']({ sessionId, path: 'a.txt', hunk: { index: 1, fingerprint: aDiff.hunks![0]!.fingerprint } }),
    ).rejects.toThrow(/no longer what the diff showed/);
    expect(readFileSync(path.join(dir, 'a.txt')).equals(aAfter)).toBe(true);

    await handlers['diff:revert']({ sessionId, path: 'a.txt', hunk: { index: 1, fingerprint: aDiff.hunks![1]!.fingerprint } });
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(aBefore.replace('line 3\n', 'LINE THREE\n'));
    expect(readFileSync(path.join(dir, 'b.txt')).equals(bAfter)).toBe(true);
    expect(readFileSync(path.join(dir, 'd.txt'), 'utf8')).toBe('new\n');
    expect(readFileSync(path.join(dir, 'bin/c.bin')).equals(binary)).toBe(true);

    const aNow = readFileSync(path.join(dir, 'a.txt'));
    await handlers['diff:revert']({ sessionId, path: 'b.txt' });
    expect(readFileSync(path.join(dir, 'b.txt'), 'latin1')).toBe(bBefore);
    expect(readFileSync(path.join(dir, 'a.txt')).equals(aNow)).toBe(true);
    await handlers['diff:revert']({ sessionId, path: 'd.txt' });
    expect(existsSync(path.join(dir, 'd.txt'))).toBe(false);
    await expect(handlers['diff:revert']({ sessionId, path: 'bin/c.bin' })).rejects.toThrow(/nothing to revert/);
    await expect(handlers['diff:revert']({ sessionId, path: '../outside.txt' })).rejects.toThrow(/not a path inside the workspace/);

    expect((await handlers['diff:files']({ sessionId })).map((file) => file.path)).toEqual(['a.txt']);
    expect(
      events
        .filter((stored) => stored.event.type === 'changes.reverted')
        .map((stored) => stored.event.type === 'changes.reverted' && stored.event.note),
    ).toEqual(['a.txt line 16 (hunk)', 'b.txt (whole file)', 'd.txt (whole file; it was new, so it was deleted)']);

    // The next request carries one note naming all three, at the point where they happened.
    server.push({ toolCalls: [edit('a.txt', 'line 5\n', 'LINE FIVE\n')] }, { text: 'Edited line 5.' });
    await handlers['session:send']({ sessionId, text: 'now line 5' });
    await waitForCount('session.finished', 2);
    const [first, done, second, third] = server.requests;
    expect(noteCount(first!) + noteCount(done!)).toBe(0);
    expect(noteCount(second!)).toBe(1);
    expect(JSON.stringify(second!.messages)).toContain(
      'The person reverted these changes: a.txt line 16 (hunk), b.txt (whole file), d.txt (whole file; it was new, so it was deleted).',
    );
    expect(noteCount(third!)).toBe(1);
    const messages = second!.messages!.map(
      (message) => `${String(message.role)}:${typeof message.content === 'string' ? message.content.slice(0, 24) : ''}`,
    );
    expect(messages.slice(-2)).toEqual(['user:The person reverted thes', 'user:now line 5']);

    // The last turn shows only what the last message led to; the session shows everything.
    const turnFiles = await handlers['diff:files']({ sessionId, scope: 'turn' });
    expect(turnFiles.map((file) => [file.path, file.additions, file.deletions])).toEqual([['a.txt', 1, 1]]);
    const turnDiff = await handlers['diff:file']({ sessionId, path: 'a.txt', scope: 'turn' });
    expect(turnDiff.hunks?.map((hunk) => hunk.newStart)).toEqual([5]);
    const sessionDiff = await handlers['diff:file']({ sessionId, path: 'a.txt', scope: 'session' });
    expect(sessionDiff.hunks?.map((hunk) => hunk.newStart)).toEqual([3, 5]);

    // Reverting in the turn scope goes back to where the turn started, not to the session's start.
    await handlers['diff:revert']({ sessionId, path: 'a.txt', scope: 'turn' });
    expect(readFileSync(path.join(dir, 'a.txt')).equals(aNow)).toBe(true);
  });

  it('accepting moves the base: accepted changes leave the list, later ones show', async () => {
    const dir = workspace();
    const { handlers, waitForCount, events, server } = await open([
      { toolCalls: [edit('a.txt', 'line 2\n', 'LINE TWO\n')] },
      { text: 'Done.' },
    ]);
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'edit', mode: 'auto-edit' });
    await waitForCount('session.finished', 1);
    expect(await handlers['diff:files']({ sessionId })).toHaveLength(1);

    await handlers['diff:accept']({ sessionId });
    expect(await handlers['diff:files']({ sessionId })).toEqual([]);
    expect(await handlers['diff:files']({ sessionId, scope: 'turn' })).toEqual([]);
    expect(events.some((stored) => stored.event.type === 'changes.accepted' && stored.event.scope === 'session')).toBe(true);

    // A change made by hand is the person's, not the session's: it is not listed, and cannot be reverted from here.
    writeFileSync(path.join(dir, 'b.txt'), 'changed by hand\n');
    expect(await handlers['diff:files']({ sessionId })).toEqual([]);
    await expect(handlers['diff:revert']({ sessionId, path: 'b.txt' })).rejects.toThrow(
      /b\.txt has no change made by this session.*nothing to revert/,
    );
    expect(readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('changed by hand\n');

    server.push(
      { toolCalls: [edit('a.txt', 'LINE TWO\n', 'line two, again\n'), edit('b.txt', 'by hand', 'by the agent')] },
      { text: 'Done.' },
    );
    await handlers['session:send']({ sessionId, text: 'more' });
    await waitForCount('session.finished', 2);
    expect((await handlers['diff:files']({ sessionId })).map((file) => file.path)).toEqual(['a.txt', 'b.txt']);
    // Reverting after an accept goes back to the accepted state (and the person's edit), not to the session's start.
    await handlers['diff:revert']({ sessionId, path: 'b.txt' });
    expect(readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('changed by hand\n');
    await handlers['diff:revert']({ sessionId, path: 'a.txt' });
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toContain('LINE TWO');
  });

  it('accepting the last turn clears it, while the session view still lists the change', async () => {
    const dir = workspace();
    const { handlers, waitForCount } = await open([{ toolCalls: [edit('a.txt', 'line 2\n', 'LINE TWO\n')] }, { text: 'Done.' }]);
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'edit', mode: 'auto-edit' });
    await waitForCount('session.finished', 1);
    await handlers['diff:accept']({ sessionId, scope: 'turn' });
    expect(await handlers['diff:files']({ sessionId, scope: 'turn' })).toEqual([]);
    expect((await handlers['diff:files']({ sessionId, scope: 'session' })).map((file) => file.path)).toEqual(['a.txt']);
  });

  it('accepts one file, leaving the others listed, and an accept (of one file or all) can be undone', async () => {
    const dir = workspace();
    const { handlers, waitForCount, server } = await open([
      { toolCalls: [edit('a.txt', 'line 2\n', 'LINE TWO\n'), edit('b.txt', 'beta', 'BETA')] },
      { text: 'Done.' },
    ]);
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'edit', mode: 'auto-edit' });
    await waitForCount('session.finished', 1);
    const listed = async (scope?: 'turn') =>
      (await handlers['diff:files']({ sessionId, ...(scope ? { scope } : {}) })).map((file) => file.path);
    const aEdited = readFileSync(path.join(dir, 'a.txt'), 'utf8');

    const one = await handlers['diff:accept']({ sessionId, path: 'a.txt' });
    expect(one.note).toBe('a.txt');
    expect(await listed()).toEqual(['b.txt']);
    expect(await listed('turn')).toEqual(['b.txt']);
    // Accepting writes nothing.
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(aEdited);
    await expect(handlers['diff:accept']({ sessionId, path: 'a.txt' })).rejects.toThrow(
      /a\.txt has no change made by this session.*nothing to accept/,
    );

    // A later change to the accepted file shows against the accepted text, not the session's start.
    server.push({ toolCalls: [edit('a.txt', 'line 9\n', 'LINE NINE\n')] }, { text: 'Done.' });
    await handlers['session:send']({ sessionId, text: 'more' });
    await waitForCount('session.finished', 2);
    expect(await listed()).toEqual(['a.txt', 'b.txt']);
    const aDiff = await handlers['diff:file']({ sessionId, path: 'a.txt' });
    expect(aDiff.before).toBe(aEdited);

    const all = await handlers['diff:accept']({ sessionId });
    expect(all.note).toBe('the session’s changes');
    expect(await listed()).toEqual([]);
    expect(await handlers['diff:undoAccept']({ sessionId, acceptSeq: all.acceptSeq })).toEqual({ note: 'the session’s changes' });
    expect(await listed()).toEqual(['a.txt', 'b.txt']);
    await expect(handlers['diff:undoAccept']({ sessionId, acceptSeq: all.acceptSeq })).rejects.toThrow(/already undone/);

    // Undoing the one-file accept puts the first change to a.txt back in the list too.
    await handlers['diff:undoAccept']({ sessionId, acceptSeq: one.acceptSeq });
    expect((await handlers['diff:file']({ sessionId, path: 'a.txt' })).before).toBe(aBefore);
    await expect(handlers['diff:undoAccept']({ sessionId, acceptSeq: 1 })).rejects.toThrow(/no accept at event 1/);
  });

  it('answers a file from the list’s work only while the folder stands still: a change made in between shows', async () => {
    const dir = workspace();
    const { handlers, waitForCount } = await open([{ toolCalls: [edit('a.txt', 'line 2\n', 'LINE TWO\n')] }, { text: 'Done.' }]);
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'edit', mode: 'auto-edit' });
    await waitForCount('session.finished', 1);
    expect(await handlers['diff:files']({ sessionId })).toMatchObject([{ path: 'a.txt', additions: 1, deletions: 1 }]);
    const first = await handlers['diff:file']({ sessionId, path: 'a.txt' });
    expect(first.after).toContain('LINE TWO');
    writeFileSync(path.join(dir, 'a.txt'), first.after.replace('line 19\n', 'line nineteen, by hand\n'));
    const again = await handlers['diff:file']({ sessionId, path: 'a.txt' });
    expect(again.after).toContain('line nineteen, by hand');
    // The person's line is theirs: it is in both sides, and the session's hunk alone is listed.
    expect(again.before).toContain('line nineteen, by hand');
    expect(again.hunks?.map((hunk) => hunk.newStart)).toEqual([2]);
  });

  it('says a new file is added and a deleted one deleted, so neither is drawn against an empty other side', async () => {
    const dir = workspace();
    const opened = await open([
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'd.txt', content: 'new\n' } },
          { name: 'run_command', arguments: { command: 'rm b.txt' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const { handlers, waitForCount } = opened;
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'edit', mode: 'auto-edit' });
    const { event } = await opened.waitForEvent('approval.asked');
    if (event.type !== 'approval.asked') throw new Error('not a request');
    await handlers['approval:answer']({ approvalId: event.approvalId, action: 'allow', scope: 'once' });
    await waitForCount('session.finished', 1);
    expect(await handlers['diff:file']({ sessionId, path: 'd.txt' })).toMatchObject({ status: 'added', before: '', after: 'new\n' });
    expect(await handlers['diff:file']({ sessionId, path: 'b.txt' })).toMatchObject({ status: 'deleted', before: bBefore, after: '' });
  });

  it('refuses a revert while the agent is working, and a hunk revert of a binary file', async () => {
    const dir = workspace();
    const { handlers, waitForCount } = await open([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'e.bin', content: 'a\u0000b' } }] },
      { text: 'Done.', delayMs: 1500 },
    ]);
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'edit', mode: 'auto-edit' });
    await waitForCount('tool.finished', 1);
    await expect(handlers['diff:revert']({ sessionId, path: 'e.bin' })).rejects.toThrow(/Cannot revert e\.bin while the agent is working/);
    await waitForCount('session.finished', 1);
    const diff = await handlers['diff:file']({ sessionId, path: 'e.bin' });
    expect(diff.binary).toBe(true);
    expect(diff.hunks).toBeUndefined();
    await expect(handlers['diff:revert']({ sessionId, path: 'e.bin', hunk: { index: 0, fingerprint: 'x' } })).rejects.toThrow(
      /binary file.*Revert the whole file/,
    );
    await handlers['diff:revert']({ sessionId, path: 'e.bin' });
    expect(existsSync(path.join(dir, 'e.bin'))).toBe(false);
  });
});
