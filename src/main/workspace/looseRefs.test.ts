import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { RefConflict, updateLooseRefs } from './looseRefs';

const created: string[] = [];
let gitDir: string;
let one: string;
let two: string;

function git(args: string[], input?: string): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, PATH: process.env.PATH },
    stdio: 'pipe',
    ...(input === undefined ? {} : { input }),
  })
    .toString('utf8')
    .trim();
}

beforeEach(() => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-loose-refs-')));
  created.push(base);
  gitDir = path.join(base, 'repo.git');
  execFileSync('git', ['init', '--quiet', '--bare', gitDir]);
  const tree = git(['mktree'], '');
  const identity = ['-c', 'user.name=T', '-c', 'user.email=t@l'];
  one = git([...identity, 'commit-tree', tree, '-m', 'one']);
  two = git([...identity, 'commit-tree', tree, '-p', one, '-m', 'two']);
});

afterAll(() => {
  for (const folder of created) fs.rmSync(folder, { recursive: true, force: true });
});

const resolve = (name: string) => execFileSync('git', ['--git-dir', gitDir, 'rev-parse', '-q', '--verify', name]).toString().trim();
const locks = () => fs.readdirSync(path.join(gitDir, 'refs'), { recursive: true }).filter((name) => String(name).endsWith('.lock'));

describe('updateLooseRefs', () => {
  it('creates refs git then reads, in new folders, and moves them on when they are where the caller expects', async () => {
    expect(await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: one, expected: null }])).toBe(true);
    expect(
      await updateLooseRefs(gitDir, [
        { name: 'refs/tether/latest', commit: two, expected: one },
        { name: 'refs/tether/sessions/s1/base', commit: two },
      ]),
    ).toBe(true);
    expect(resolve('refs/tether/latest')).toBe(two);
    expect(resolve('refs/tether/sessions/s1/base')).toBe(two);
    expect(fs.readFileSync(path.join(gitDir, 'refs', 'tether', 'latest'), 'utf8')).toBe(`${two}\n`);
    expect(locks()).toEqual([]);
  });

  it('moves none of the refs when one is not where the caller expects, and says which', async () => {
    await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: one }]);
    const stale = updateLooseRefs(gitDir, [
      { name: 'refs/tether/sessions/s1/base', commit: two },
      { name: 'refs/tether/latest', commit: two, expected: null },
    ]);
    await expect(stale).rejects.toThrow(RefConflict);
    await expect(stale).rejects.toThrow(`refs/tether/latest is at ${one} but was expected at nothing`);
    await expect(updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: two, expected: two }])).rejects.toThrow(RefConflict);
    expect(resolve('refs/tether/latest')).toBe(one);
    expect(fs.existsSync(path.join(gitDir, 'refs', 'tether', 'sessions', 's1', 'base'))).toBe(false);
    expect(locks()).toEqual([]);
  });

  it('lets exactly one of two updaters racing from the same value win', async () => {
    await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: one }]);
    const results = await Promise.allSettled([
      updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: two, expected: one }]),
      updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: one, expected: one }]),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(locks()).toEqual([]);
  });

  it("waits out another process's lock, as git's own, and reports one that stays without removing it", async () => {
    await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: one }]);
    const lockFile = path.join(gitDir, 'refs', 'tether', 'latest.lock');
    fs.writeFileSync(lockFile, '');
    setTimeout(() => fs.rmSync(lockFile), 150);
    expect(await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: two, expected: one }])).toBe(true);
    expect(resolve('refs/tether/latest')).toBe(two);

    fs.writeFileSync(lockFile, '');
    const started = Date.now();
    await expect(updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: one, expected: two }])).rejects.toThrow(
      /latest\.lock is held by another process/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fs.existsSync(lockFile)).toBe(true);
    expect(resolve('refs/tether/latest')).toBe(two);
  });

  it('is refused by a git update-ref that expected the old value, and refuses one after git moved the ref', async () => {
    await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: one }]);
    await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: two, expected: one }]);
    expect(() => git(['update-ref', 'refs/tether/latest', one, one])).toThrow();
    git(['update-ref', 'refs/tether/latest', one, two]);
    await expect(updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: two, expected: two }])).rejects.toThrow(RefConflict);
    // A git and this taking turns on one ref: every update lands, none is lost.
    const gits = Array.from(
      { length: 10 },
      () =>
        new Promise<void>((done) => spawn('git', ['--git-dir', gitDir, 'update-ref', 'refs/tether/other', one]).on('close', () => done())),
    );
    for (let i = 0; i < 10; i++) await updateLooseRefs(gitDir, [{ name: 'refs/tether/mine', commit: i % 2 ? one : two }]);
    await Promise.all(gits);
    expect(resolve('refs/tether/mine')).toBe(one);
    expect(resolve('refs/tether/other')).toBe(one);
  });

  it('leaves a packed ref, and a reftable repository, to git: nothing is written and the caller is told', async () => {
    git(['update-ref', 'refs/tether/latest', one]);
    git(['pack-refs', '--all']);
    expect(fs.existsSync(path.join(gitDir, 'refs', 'tether', 'latest'))).toBe(false);
    expect(await updateLooseRefs(gitDir, [{ name: 'refs/tether/latest', commit: two, expected: one }])).toBe(false);
    expect(resolve('refs/tether/latest')).toBe(one);
    expect(locks()).toEqual([]);

    fs.mkdirSync(path.join(gitDir, 'reftable'));
    expect(await updateLooseRefs(gitDir, [{ name: 'refs/tether/new', commit: two }])).toBe(false);
    expect(fs.existsSync(path.join(gitDir, 'refs', 'tether', 'new'))).toBe(false);
  });
});
