import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../../../test/support/tempDirs';
import { rankFiles, WorkspaceFiles } from './workspaceFiles';

afterEach(() => removeTempDirs());

function workspace(): string {
  const dir = tempDir('tether-files-');
  const files: Record<string, string> = {
    'src/a.ts': '',
    'src/app.tsx': '',
    'src/deep/alpha.ts': '',
    'lib/src/a.js': '',
    'README.md': '',
    '.github/workflows/ci.yml': '',
    '.gitignore': 'node_modules/\n*.log\ndist\n',
    'node_modules/pkg/index.js': '',
    'debug.log': '',
    'dist/out.js': '',
    '.git/config': '',
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** Every file of the test workspace a mention can offer: what .gitignore keeps, hidden ones too, never .git. */
const LISTED = ['.github/workflows/ci.yml', '.gitignore', 'README.md', 'lib/src/a.js', 'src/a.ts', 'src/app.tsx', 'src/deep/alpha.ts'];

describe('workspace files for @-mentions', () => {
  it('lists what .gitignore keeps, hidden files too, never .git, best match first', async () => {
    const dir = workspace();
    const index = new WorkspaceFiles();
    const all = await index.complete(dir, '', 100);
    expect([...all.files].sort()).toEqual(LISTED);
    expect((await index.complete(dir, 'src/a')).files).toEqual(['src/a.ts', 'src/app.tsx', 'lib/src/a.js']);
    expect((await index.complete(dir, 'SRC/A')).files).toEqual(['src/a.ts', 'src/app.tsx', 'lib/src/a.js']);
    expect((await index.complete(dir, 'alp')).files).toEqual(['src/deep/alpha.ts']);
  });

  it('matches nothing outside the workspace, whatever is typed', async () => {
    const dir = workspace();
    const index = new WorkspaceFiles();
    for (const query of [
      '../',
      '../../etc/passwd',
      '/etc/passwd',
      `${dir}/src/a.ts`,
      '~/.ssh',
      'node_modules/pkg',
      '.git/config',
      'debug.log',
    ]) {
      expect((await index.complete(dir, query)).files, query).toEqual([]);
    }
  });

  it('never follows links, so a link loop or a link out of the workspace lists nothing more', async () => {
    const dir = workspace();
    const outside = tempDir('tether-outside-');
    writeFileSync(path.join(outside, 'secret.txt'), '');
    symlinkSync(dir, path.join(dir, 'src/loop'));
    symlinkSync(outside, path.join(dir, 'out'));
    const { files } = await new WorkspaceFiles().complete(dir, '', 200);
    expect(files.some((file) => file.includes('secret') || file.startsWith('src/loop/'))).toBe(false);
  });

  it('caps the matches and a huge folder, and says it did', async () => {
    const dir = tempDir('tether-many-');
    for (let i = 0; i < 120; i++) writeFileSync(path.join(dir, `file${i}.txt`), '');
    expect(await new WorkspaceFiles().complete(dir, 'file', 10)).toMatchObject({ truncated: true });
    expect((await new WorkspaceFiles().complete(dir, 'file', 10)).files).toHaveLength(10);
    const capped = await new WorkspaceFiles({ maxFiles: 50 }).complete(dir, 'file1', 200);
    expect(capped.truncated).toBe(true);
    expect(await new WorkspaceFiles().complete(dir, 'file119', 10)).toEqual({ files: ['file119.txt'], truncated: false });
  });

  it('keeps a listing for a few seconds, then lists again', async () => {
    const dir = workspace();
    let now = 1_000;
    const index = new WorkspaceFiles({ freshMs: 5_000, now: () => now });
    expect((await index.complete(dir, 'new.ts')).files).toEqual([]);
    writeFileSync(path.join(dir, 'src/new.ts'), '');
    now += 1_000;
    expect((await index.complete(dir, 'new.ts')).files).toEqual([]);
    now += 5_000;
    expect((await index.complete(dir, 'new.ts')).files).toEqual(['src/new.ts']);
  });

  it('walks the folder itself, still keeping to .gitignore, where there is neither ripgrep nor git', async () => {
    const dir = workspace();
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const { files } = await new WorkspaceFiles().complete(dir, '', 100);
      expect([...files].sort()).toEqual(LISTED);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('answers from 50,000 files quickly once listed', async () => {
    const dir = tempDir('tether-50k-');
    for (let folder = 0; folder < 100; folder++) {
      mkdirSync(path.join(dir, `pkg${folder}`, 'src'), { recursive: true });
      for (let file = 0; file < 500; file++) writeFileSync(path.join(dir, `pkg${folder}`, 'src', `module${file}.ts`), '');
    }
    const index = new WorkspaceFiles();
    let started = performance.now();
    const first = await index.complete(dir, 'pkg42/src/module49');
    const firstMs = performance.now() - started;
    started = performance.now();
    const second = await index.complete(dir, 'module499');
    const secondMs = performance.now() - started;
    console.log(`50,000 files: first answer ${firstMs.toFixed(0)} ms (listing), next ${secondMs.toFixed(1)} ms`);
    expect(first.files[0]).toBe('pkg42/src/module49.ts');
    expect(second.files).toHaveLength(50);
    expect(second.truncated).toBe(true);
    expect(firstMs).toBeLessThan(3_000);
    expect(secondMs).toBeLessThan(100);
  }, 60_000);
});

describe('ranking', () => {
  it('puts a path that starts with the query first, then a name that does, then the rest by position and length', () => {
    const files = ['x/y/readme.md', 'readme.md', 'docs/README.md', 'a/breadme.txt', 'readme/long/path.md'];
    expect(rankFiles(files, 'readme', 10)).toEqual([
      'readme.md',
      'readme/long/path.md',
      'x/y/readme.md',
      'docs/README.md',
      'a/breadme.txt',
    ]);
    expect(rankFiles(files, './readme.md', 1)).toEqual(['readme.md']);
  });
});

describe('where there is no ripgrep', () => {
  it("lists with git, and git never runs the repository's fsmonitor (a program the repository's config names)", async () => {
    const dir = workspace();
    const marker = path.join(tempDir('tether-marker-'), 'ran');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const monitor = path.join(dir, 'monitor.sh');
    writeFileSync(monitor, `#!/bin/sh\necho ran >> '${marker}'\n`, { mode: 0o755 });
    execFileSync('git', ['config', 'core.fsmonitor', monitor], { cwd: dir });
    execFileSync('git', ['add', '-A'], {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_VALUE_0: 'false' },
    });
    // Control: the person's own git, listing the same way, runs it.
    execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: dir, stdio: 'ignore' });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    // A PATH with git and no rg.
    const bin = tempDir('tether-bin-');
    symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), path.join(bin, 'git'));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const found = await new WorkspaceFiles().complete(dir, 'alpha', 10);
      expect(found.files).toEqual(['src/deep/alpha.ts']);
    } finally {
      process.env.PATH = saved;
    }
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'never ran').toBe('never ran');
  });
});
