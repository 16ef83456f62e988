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

  it('loses a symbolic link made at its top or anywhere under its link-free folders, and keeps the links it had and the one it allows', () => {
    const { root, guardedDir, quarantine, guarded } = folders();
    const outside = path.join(root, 'outside.txt');
    fs.writeFileSync(outside, 'the person’s');
    fs.mkdirSync(path.join(guardedDir, 'logs', 'refs', 'heads'), { recursive: true });
    fs.symlinkSync(outside, path.join(guardedDir, 'kept-before'));
    const watch = watchAbsentPaths([], quarantine, [
      { ...guarded, keeps: () => true, links: { under: ['logs', 'state'], mayLink: (name) => name === 'HEAD' } },
    ]);
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
    const moved = watch.close().map((entry) => path.relative(guardedDir, entry.path));
    expect(moved.sort()).toEqual(['FETCH_HEAD', 'logs/HEAD', 'logs/refs/heads/main', 'state', 'there-before']);
    expect(fs.readFileSync(outside, 'utf8')).toBe('the person’s');
    expect(fs.readdirSync(guardedDir).sort()).toEqual(['HEAD', 'kept-before', 'logs']);
    expect(fs.readdirSync(path.join(guardedDir, 'logs', 'refs', 'heads'))).toEqual(['plain']);
    expect(fs.readdirSync(path.join(root, 'elsewhere'))).toEqual(['a-link']);
  });

  it('that is gone (a repository removed by the command) ends the watch quietly', () => {
    const { guardedDir, quarantine, guarded } = folders();
    const watch = watchAbsentPaths([], quarantine, [guarded]);
    fs.rmSync(guardedDir, { recursive: true });
    expect(watch.close()).toEqual([]);
  });
});
