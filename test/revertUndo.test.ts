import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequestBody, Turn } from './fixtures/scriptedModel';
import { closeServices, openServices, type OpenedServices } from './support/appServices';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Undoing a revert from the live diff, through the contract the UI uses: the file comes back exactly
// as the revert found it, only while nothing changed it since, and the model hears of it only when
// it had heard of the revert.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\r\n`).join('');
const edit = (file: string, from: string, to: string) => ({
  name: 'edit_file',
  arguments: { path: file, old_string: from, new_string: to },
});

function workspace(): string {
  const dir = tempDir('tether-undo-');
  writeFileSync(path.join(dir, 'a.txt'), lines);
  writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(path.join(dir, 'run.sh'), 0o644);
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src/b.txt'), 'b\n');
  return dir;
}

const told = (body: ScriptedRequestBody) => JSON.stringify(body.messages ?? body.input);

async function sessionThatEdited(turns: Turn[], whileRunning?: (opened: OpenedServices) => Promise<void>) {
  const dir = workspace();
  const opened = await openServices({ turns: [...turns, { text: 'Done.' }] });
  const { sessionId } = await opened.handlers['session:start']({ workspace: dir, task: 'edit', mode: 'auto-edit' });
  await whileRunning?.(opened);
  await opened.waitForCount('session.finished', 1);
  return { ...opened, dir, sessionId };
}

describe('undoing a revert', () => {
  it('puts a reverted hunk back byte for byte, line endings included, and then the undo is spent', async () => {
    const { handlers, dir, sessionId, events } = await sessionThatEdited([
      { toolCalls: [edit('a.txt', 'line 3\r\n', 'LINE THREE\r\n'), edit('a.txt', 'line 9\r\n', 'line 9\r\nextra\r\n')] },
    ]);
    const edited = readFileSync(path.join(dir, 'a.txt'));
    const diff = await handlers['diff:file']({ sessionId, path: 'a.txt' });
    const done = await handlers['diff:revert']({ sessionId, path: 'a.txt', hunk: { index: 1, fingerprint: diff.hunks![1]!.fingerprint } });
    expect(done).toMatchObject({ path: 'a.txt', note: 'a.txt line 10 (hunk)' });
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).not.toContain('extra');

    expect(await handlers['diff:undoRevert']({ sessionId, undoId: done.undoId })).toEqual({ path: 'a.txt', note: 'a.txt line 10 (hunk)' });
    expect(readFileSync(path.join(dir, 'a.txt')).equals(edited)).toBe(true);
    expect(events.at(-1)?.event).toEqual({
      type: 'changes.revert_undone',
      path: 'a.txt',
      hunks: [{ oldStart: 9, oldLines: 0, newStart: 10, newLines: 1 }],
      note: 'a.txt line 10 (hunk)',
      // What the undo put back is the session's change again: the live diff shows it as such.
      snapshots: { before: expect.any(String), after: expect.any(String) },
    });
    await expect(handlers['diff:undoRevert']({ sessionId, undoId: done.undoId })).rejects.toThrow(/can no longer be undone/);
    expect((await handlers['diff:file']({ sessionId, path: 'a.txt' })).hunks).toHaveLength(2);
  });

  it('refuses when the file changed since the revert, in content, mode, or by being removed or replaced, and overwrites nothing', async () => {
    const { handlers, dir, sessionId, server, waitForCount } = await sessionThatEdited([
      { toolCalls: [edit('a.txt', 'line 3\r\n', 'LINE THREE\r\n')] },
    ]);
    let runs = 1;
    const file = path.join(dir, 'a.txt');
    const changes: Array<{ what: string; change(): void; check(): void }> = [
      {
        what: 'content',
        change: () => writeFileSync(file, 'by hand\n'),
        check: () => expect(readFileSync(file, 'utf8')).toBe('by hand\n'),
      },
      {
        what: 'same length',
        change: () => writeFileSync(file, lines.replace('line 1', 'LINE 1')),
        check: () => expect(readFileSync(file, 'utf8')).toContain('LINE 1'),
      },
      { what: 'mode', change: () => chmodSync(file, 0o755), check: () => expect(statSync(file).mode & 0o777).toBe(0o755) },
      { what: 'removed', change: () => renameSync(file, `${file}.moved`), check: () => expect(existsSync(file)).toBe(false) },
      {
        what: 'a link',
        change: () => {
          rmSync(file);
          symlinkSync('src/b.txt', file);
        },
        check: () => expect(readlinkSync(file)).toBe('src/b.txt'),
      },
    ];
    for (const { what, change, check } of changes) {
      if (existsSync(`${file}.moved`)) renameSync(`${file}.moved`, file);
      chmodSync(file, 0o644);
      // The person puts the file back, and the agent makes its change again: only its own changes are in its diff.
      writeFileSync(file, lines);
      server.push({ toolCalls: [edit('a.txt', 'line 3\r\n', 'LINE THREE\r\n')] }, { text: 'Again.' });
      await handlers['session:send']({ sessionId, text: `again, before the ${what} change` });
      await waitForCount('session.finished', ++runs);
      const diff = await handlers['diff:file']({ sessionId, path: 'a.txt' });
      const done = await handlers['diff:revert']({
        sessionId,
        path: 'a.txt',
        hunk: { index: 0, fingerprint: diff.hunks![0]!.fingerprint },
      });
      change();
      await expect(handlers['diff:undoRevert']({ sessionId, undoId: done.undoId }), what).rejects.toThrow(
        /a\.txt changed after it was reverted, so the revert was not undone/,
      );
      check();
      if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(file);
    }
  });

  it('undoes whole-file reverts: a new file deleted comes back, a deleted file restored goes again, the executable bit follows', async () => {
    const { handlers, dir, sessionId } = await sessionThatEdited(
      [
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'src/new.txt', content: 'fresh\n' } },
            // Changes a command of the session made show in its diff as the tools' do.
            { name: 'run_command', arguments: { command: 'chmod 750 run.sh && rm src/b.txt' } },
          ],
        },
      ],
      (opened) =>
        opened.waitForEvent('approval.asked').then(({ event }) => {
          if (event.type !== 'approval.asked') throw new Error('not a request');
          return opened.handlers['approval:answer']({ approvalId: event.approvalId, action: 'allow', scope: 'once' });
        }),
    );
    const runSh = path.join(dir, 'run.sh');

    const newFile = path.join(dir, 'src/new.txt');
    const created = await handlers['diff:revert']({ sessionId, path: 'src/new.txt' });
    expect(existsSync(newFile)).toBe(false);
    await handlers['diff:undoRevert']({ sessionId, undoId: created.undoId });
    expect(readFileSync(newFile, 'utf8')).toBe('fresh\n');

    const chmodded = await handlers['diff:revert']({ sessionId, path: 'run.sh' });
    expect(statSync(runSh).mode & 0o111).toBe(0);
    await handlers['diff:undoRevert']({ sessionId, undoId: chmodded.undoId });
    expect(statSync(runSh).mode & 0o7777).toBe(0o750);

    const restored = await handlers['diff:revert']({ sessionId, path: 'src/b.txt' });
    expect(readFileSync(path.join(dir, 'src/b.txt'), 'utf8')).toBe('b\n');
    await handlers['diff:undoRevert']({ sessionId, undoId: restored.undoId });
    expect(existsSync(path.join(dir, 'src/b.txt'))).toBe(false);
  });

  it('only the latest revert can be undone, an unknown id or session is refused, and an undo waits for the agent to stop', async () => {
    const { handlers, dir, sessionId, server, waitForCount } = await sessionThatEdited([
      { toolCalls: [edit('a.txt', 'line 3\r\n', 'LINE THREE\r\n'), edit('src/b.txt', 'b\n', 'B\n')] },
    ]);
    const first = await handlers['diff:revert']({ sessionId, path: 'a.txt' });
    const second = await handlers['diff:revert']({ sessionId, path: 'src/b.txt' });
    await expect(handlers['diff:undoRevert']({ sessionId, undoId: first.undoId })).rejects.toThrow(/only a session’s latest revert/);
    await expect(handlers['diff:undoRevert']({ sessionId, undoId: 'not-an-id' })).rejects.toThrow(/can no longer be undone/);
    await expect(handlers['diff:undoRevert']({ sessionId: 'no-such-session', undoId: second.undoId })).rejects.toThrow(/no-such-session/);
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(lines);

    server.push({ text: 'Thinking.', delayMs: 1200 });
    await handlers['session:send']({ sessionId, text: 'wait a moment' });
    await expect(handlers['diff:undoRevert']({ sessionId, undoId: second.undoId })).rejects.toThrow(
      /Cannot undo the revert while the agent is working/,
    );
    await waitForCount('session.finished', 2);
    await handlers['diff:undoRevert']({ sessionId, undoId: second.undoId });
    expect(readFileSync(path.join(dir, 'src/b.txt'), 'utf8')).toBe('B\n');
  });

  it('refuses to write through a folder that became a link leading out of the workspace', async () => {
    const { handlers, dir, sessionId } = await sessionThatEdited([{ toolCalls: [edit('src/b.txt', 'b\n', 'B\n')] }]);
    const done = await handlers['diff:revert']({ sessionId, path: 'src/b.txt' });
    const outside = tempDir('tether-outside-');
    writeFileSync(path.join(outside, 'b.txt'), 'b\n');
    renameSync(path.join(dir, 'src'), path.join(dir, 'src.real'));
    symlinkSync(outside, path.join(dir, 'src'));
    await expect(handlers['diff:undoRevert']({ sessionId, undoId: done.undoId })).rejects.toThrow(/leads outside the workspace/);
    expect(readFileSync(path.join(outside, 'b.txt'), 'utf8')).toBe('b\n');
  });

  it('tells the model nothing of a revert undone before it could hear of it, and tells it of an undo after it had', async () => {
    const { handlers, sessionId, server, waitForCount } = await sessionThatEdited([
      { toolCalls: [edit('a.txt', 'line 3\r\n', 'LINE THREE\r\n'), edit('src/b.txt', 'b\n', 'B\n')] },
    ]);
    const quick = await handlers['diff:revert']({ sessionId, path: 'a.txt' });
    await handlers['diff:undoRevert']({ sessionId, undoId: quick.undoId });
    const kept = await handlers['diff:revert']({ sessionId, path: 'src/b.txt' });
    server.push({ text: 'Noted.' });
    await handlers['session:send']({ sessionId, text: 'next' });
    await waitForCount('session.finished', 2);
    const second = told(server.requests.at(-1)!);
    expect(second).toContain('The person reverted these changes: src/b.txt (whole file).');
    expect(second).not.toContain('a.txt (whole file)');
    expect(second).not.toContain('undid');

    await handlers['diff:undoRevert']({ sessionId, undoId: kept.undoId });
    server.push({ text: 'Noted again.' });
    await handlers['session:send']({ sessionId, text: 'and now' });
    await waitForCount('session.finished', 3);
    const third = told(server.requests.at(-1)!);
    expect(third.split('The person reverted these changes').length - 1).toBe(1);
    expect(third).toContain(
      'The person undid their earlier revert of these changes, so your changes are back in the files as you made them: src/b.txt (whole file).',
    );
  });
});
