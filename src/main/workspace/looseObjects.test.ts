import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { treeOfLooseCommit, writeLooseCommit } from './looseObjects';

const created: string[] = [];
let gitDir: string;
const savedTz = process.env.TZ;

beforeEach(() => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-loose-objects-')));
  created.push(base);
  gitDir = path.join(base, 'repo.git');
});

afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

afterAll(() => {
  for (const folder of created) fs.rmSync(folder, { recursive: true, force: true });
});

function git(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): string {
  const clean: NodeJS.ProcessEnv = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, PATH: process.env.PATH, ...env };
  return execFileSync('git', ['--git-dir', gitDir, ...args], { env: clean, ...(input === undefined ? {} : { input }) })
    .toString('utf8')
    .trim();
}

function init(format: 'sha1' | 'sha256' = 'sha1'): { tree: string } {
  execFileSync('git', ['init', '--quiet', '--bare', `--object-format=${format}`, gitDir], { env: { PATH: process.env.PATH } });
  const blob = git(['hash-object', '-w', '--stdin'], {}, 'hello\n');
  return { tree: git(['mktree'], {}, `100644 blob ${blob}\thello.txt\n`) };
}

/** What `git commit-tree` writes for the same tree, parent, message, identity and time. */
function commitTree(tree: string, message: string, date: string, parent?: string): string {
  const who = {
    GIT_AUTHOR_NAME: 'Tether',
    GIT_AUTHOR_EMAIL: 'tether@localhost',
    GIT_COMMITTER_NAME: 'Tether',
    GIT_COMMITTER_EMAIL: 'tether@localhost',
  };
  return git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message], {
    ...who,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  });
}

describe('writeLooseCommit', () => {
  it('writes byte for byte the commit git commit-tree writes, in time zones east and west and at half hours', () => {
    const { tree } = init();
    const when = new Date(1_700_000_000_000);
    const cases: Array<[string, string]> = [
      ['UTC', '+0000'],
      ['Asia/Kolkata', '+0530'],
      ['America/St_Johns', '-0330'],
      ['Pacific/Chatham', '+1345'],
    ];
    let parent: string | undefined;
    for (const [zone, offset] of cases) {
      process.env.TZ = zone;
      const message = `session s1 after call_${zone}`;
      const ours = writeLooseCommit(gitDir, { tree, ...(parent ? { parent } : {}), message, identity: 'Tether <tether@localhost>', when });
      expect(ours).toBe(commitTree(tree, message, `1700000000 ${offset}`, parent));
      parent = ours;
    }
    expect(git(['fsck', '--strict', '--no-dangling'])).toBe('');
    expect(git(['rev-list', '--count', parent!])).toBe(String(cases.length));
  });

  it('keeps a message with several lines and non-ASCII letters exactly, ending it with one line break as git does', () => {
    const { tree } = init();
    const message = 'rewind preview\n\nfür Sitzung «s1»\n\n\n';
    const id = writeLooseCommit(gitDir, { tree, message, identity: 'Tether <tether@localhost>' });
    expect(git(['cat-file', 'commit', id]).split('\n\n').slice(1).join('\n\n')).toBe('rewind preview\n\nfür Sitzung «s1»');
    expect(git(['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('hashes with SHA-256 in a repository made with that object format', () => {
    const { tree } = init('sha256');
    expect(tree).toHaveLength(64);
    const id = writeLooseCommit(gitDir, { tree, message: 'start', identity: 'Tether <tether@localhost>' });
    expect(id).toHaveLength(64);
    expect(git(['cat-file', '-t', id])).toBe('commit');
    expect(git(['rev-parse', `${id}^{tree}`])).toBe(tree);
    expect(git(['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('writes the object once, read-only, and leaves no temporary file when it is already there', () => {
    const { tree } = init();
    const when = new Date(1_700_000_000_000);
    const first = writeLooseCommit(gitDir, { tree, message: 'same', identity: 'Tether <tether@localhost>', when });
    const again = writeLooseCommit(gitDir, { tree, message: 'same', identity: 'Tether <tether@localhost>', when });
    expect(again).toBe(first);
    const folder = path.join(gitDir, 'objects', first.slice(0, 2));
    expect(fs.readdirSync(folder)).toEqual([first.slice(2)]);
    expect(fs.statSync(path.join(folder, first.slice(2))).mode & 0o222).toBe(0);
  });

  it('refuses what would make a malformed commit: ids that are not ids, an identity over lines, a NUL in the message', () => {
    const { tree } = init();
    const identity = 'Tether <tether@localhost>';
    expect(() => writeLooseCommit(gitDir, { tree: 'HEAD', message: 'x', identity })).toThrow(/not an object id/);
    expect(() => writeLooseCommit(gitDir, { tree, parent: `${tree}\nparent ${tree}`, message: 'x', identity })).toThrow(/not an object id/);
    expect(() => writeLooseCommit(gitDir, { tree, message: 'x', identity: 'Tether <t@l>\ncommitter Eve <e@x>' })).toThrow(/Name <email>/);
    expect(() => writeLooseCommit(gitDir, { tree, message: 'x\0y', identity })).toThrow(/NUL/);
    expect(fs.readdirSync(path.join(gitDir, 'objects')).filter((name) => /^[0-9a-f]{2}$/.test(name))).toHaveLength(2);
  });
});

describe('treeOfLooseCommit', () => {
  it("reads a loose commit's tree, and answers nothing for a packed commit, a blob, a missing object or a path", () => {
    const { tree } = init();
    const commit = writeLooseCommit(gitDir, { tree, message: 'start', identity: 'Tether <tether@localhost>' });
    expect(treeOfLooseCommit(gitDir, commit)).toBe(tree);
    const blob = git(['hash-object', '-w', '--stdin'], {}, 'hello\n');
    expect(treeOfLooseCommit(gitDir, blob)).toBeUndefined();
    expect(treeOfLooseCommit(gitDir, '0'.repeat(40))).toBeUndefined();
    expect(treeOfLooseCommit(gitDir, '../../config')).toBeUndefined();
    git(['update-ref', 'refs/tether/latest', commit]);
    git(['repack', '-a', '-d', '-q']);
    git(['prune-packed']);
    expect(treeOfLooseCommit(gitDir, commit)).toBeUndefined();
  });
});
