import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchAbsentPaths, type GuardedFolder } from './protectedPaths';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folders() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-protected-')));
  made.push(root);
  const guardedDir = path.join(root, 'git');
  const quarantine = path.join(root, 'quarantine');
  fs.mkdirSync(guardedDir);
  fs.writeFileSync(path.join(guardedDir, 'there-before'), 'the person’s');
  const guarded: GuardedFolder = { folder: guardedDir, keeps: (name) => name === 'kept' || name.endsWith('.lock'), why: 'a test' };
  return { root, guardedDir, quarantine, guarded };
}

describe('a guarded folder', () => {
  it('loses, when the command ends, every name made there that it does not keep, files and folders alike', () => {
    const { guardedDir, quarantine, guarded } = folders();
    const watch = watchAbsentPaths([], quarantine, [guarded]);
    fs.mkdirSync(path.join(guardedDir, 'remotes'));
    fs.writeFileSync(path.join(guardedDir, 'remotes', 'origin'), 'URL: https://example.com/x.git\n');
    fs.writeFileSync(path.join(guardedDir, 'new-name'), 'x');
    fs.symlinkSync('/etc/passwd', path.join(guardedDir, 'a-link'));
    fs.writeFileSync(path.join(guardedDir, 'kept'), 'git’s');
    fs.writeFileSync(path.join(guardedDir, 'index.lock'), 'git’s');
    const moved = watch.close();
    expect(moved.map((entry) => path.basename(entry.path)).sort()).toEqual(['a-link', 'new-name', 'remotes']);
    expect(fs.readdirSync(guardedDir).sort()).toEqual(['index.lock', 'kept', 'there-before']);
    // Kept, not deleted: what was written is where the fence hit says.
    const remotes = moved.find((entry) => entry.path.endsWith('remotes'))!;
    expect(fs.readFileSync(path.join(remotes.movedTo!, 'origin'), 'utf8')).toContain('example.com');
    expect(fs.readlinkSync(moved.find((entry) => entry.path.endsWith('a-link'))!.movedTo!)).toBe('/etc/passwd');
    expect(moved.every((entry) => entry.why === 'a test')).toBe(true);
  });

  it('keeps what was there before the command, even a name it would not keep, and ends with nothing when nothing was made', () => {
    const { guardedDir, quarantine, guarded } = folders();
    const watch = watchAbsentPaths([], quarantine, [guarded]);
    fs.writeFileSync(path.join(guardedDir, 'there-before'), 'changed in place');
    expect(watch.close()).toEqual([]);
    expect(fs.readdirSync(guardedDir)).toEqual(['there-before']);
  });

  it('loses a link, FIFO or socket made at its top or anywhere in the folders it walks, and keeps the ones it had and the one it allows', async () => {
    const { root, guardedDir, quarantine, guarded } = folders();
    const outside = path.join(root, 'outside.txt');
    fs.writeFileSync(outside, 'the person’s');
    fs.mkdirSync(path.join(guardedDir, 'logs', 'refs', 'heads'), { recursive: true });
    // The person's own link, from before the command (a moment before: change times tick coarsely).
    fs.symlinkSync(outside, path.join(guardedDir, 'kept-before'));
    fs.symlinkSync(outside, path.join(guardedDir, 'old-link'));
    await new Promise((resolve) => setTimeout(resolve, 120));
    const watch = watchAbsentPaths([], quarantine, [
      {
        ...guarded,
        keeps: () => true,
        unusual: { walks: (name) => ['logs', 'state', 'objects'].includes(name), mayBe: (name) => name === 'HEAD', why: 'odd' },
      },
    ]);
    fs.mkdirSync(path.join(guardedDir, 'objects'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(guardedDir, 'objects', '17'));
    execFileSync('mkfifo', [path.join(guardedDir, 'logs', 'refs', 'heads', 'fifo')]);
    fs.symlinkSync(outside, path.join(guardedDir, 'logs', 'HEAD'));
    fs.symlinkSync(outside, path.join(guardedDir, 'logs', 'refs', 'heads', 'main'));
    fs.writeFileSync(path.join(guardedDir, 'logs', 'refs', 'heads', 'plain'), 'a reflog');
    fs.rmSync(path.join(guardedDir, 'there-before'));
    fs.symlinkSync(outside, path.join(guardedDir, 'there-before'));
    fs.symlinkSync(outside, path.join(guardedDir, 'FETCH_HEAD'));
    fs.symlinkSync('refs/heads/main', path.join(guardedDir, 'HEAD'));
    // A link-free folder made a link to a folder outside holding a link: the one at the top goes, nothing outside is touched.
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.symlinkSync(outside, path.join(root, 'elsewhere', 'a-link'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(guardedDir, 'state'));
    // An old link of the person's moved in by the command is made by it: a rename sets the change time.
    fs.renameSync(path.join(guardedDir, 'old-link'), path.join(guardedDir, 'logs', 'moved-in'));
    const moved = watch.close().map((entry) => path.relative(guardedDir, entry.path));
    expect(moved.sort()).toEqual([
      'FETCH_HEAD',
      'logs/HEAD',
      'logs/moved-in',
      'logs/refs/heads/fifo',
      'logs/refs/heads/main',
      'objects/17',
      'state',
      'there-before',
    ]);
    expect(fs.readFileSync(outside, 'utf8')).toBe('the person’s');
    expect(fs.readdirSync(guardedDir).sort()).toEqual(['HEAD', 'kept-before', 'logs', 'objects']);
    expect(fs.readdirSync(path.join(guardedDir, 'logs', 'refs', 'heads'))).toEqual(['plain']);
    expect(fs.readdirSync(path.join(root, 'elsewhere'))).toEqual(['a-link']);
  });

  it('finds what is made in a folder it listed a moment before, and what hides among thousands of names', () => {
    const { root, guardedDir, quarantine, guarded } = folders();
    const logs = path.join(guardedDir, 'logs');
    fs.mkdirSync(logs);
    for (let i = 0; i < 25_000; i++) fs.writeFileSync(path.join(logs, `A${String(i).padStart(5, '0')}`), '');
    const watched = {
      ...guarded,
      keeps: () => true,
      unusual: { walks: (name: string) => name === 'logs', mayBe: () => false, why: 'odd' },
    };
    // Listed by the first command, then at once a link by the second: a change within the listing's tick still shows.
    expect(watchAbsentPaths([], quarantine, [watched]).close()).toEqual([]);
    const second = watchAbsentPaths([], quarantine, [watched]);
    fs.symlinkSync(path.join(root, 'outside'), path.join(logs, 'HEAD'));
    expect(second.close().map((entry) => path.relative(guardedDir, entry.path))).toEqual(['logs/HEAD']);
  });

  it('that is gone (a repository removed by the command) ends the watch quietly', () => {
    const { guardedDir, quarantine, guarded } = folders();
    const watch = watchAbsentPaths([], quarantine, [guarded]);
    fs.rmSync(guardedDir, { recursive: true });
    expect(watch.close()).toEqual([]);
  });
});
