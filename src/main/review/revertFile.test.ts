import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openShadowRepo } from '../workspace/shadowRepo';
import { revertFile, revertTo } from './revertFile';

const dirs: string[] = [];
function temp(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function setup(files: (workspace: string) => void) {
  const workspace = temp('tether-revert-ws-');
  files(workspace);
  const repo = await openShadowRepo({ workspace, gitDir: path.join(temp('tether-revert-data-'), 'shadow.git') });
  const base = (await repo.snapshot('base')).commit;
  return { workspace, repo, base };
}

describe('revertFile', () => {
  it('puts back the executable bit, a symbolic link and a deleted file, touching nothing else', async () => {
    const { workspace, repo, base } = await setup((ws) => {
      fs.writeFileSync(path.join(ws, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
      fs.symlinkSync('run.sh', path.join(ws, 'link'));
      fs.mkdirSync(path.join(ws, 'deep'));
      fs.writeFileSync(path.join(ws, 'deep/gone.txt'), 'was here\n');
      fs.writeFileSync(path.join(ws, 'other.txt'), 'other\n');
    });
    fs.writeFileSync(path.join(workspace, 'run.sh'), 'echo changed\n');
    fs.chmodSync(path.join(workspace, 'run.sh'), 0o644);
    fs.unlinkSync(path.join(workspace, 'link'));
    fs.writeFileSync(path.join(workspace, 'link'), 'a file now\n');
    fs.rmSync(path.join(workspace, 'deep'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'other.txt'), 'other, changed\n');

    await revertFile(repo, base, 'run.sh', { kind: 'file' });
    expect(fs.readFileSync(path.join(workspace, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(fs.statSync(path.join(workspace, 'run.sh')).mode & 0o111).not.toBe(0);
    await revertFile(repo, base, 'link', { kind: 'file' });
    expect(fs.readlinkSync(path.join(workspace, 'link'))).toBe('run.sh');
    expect(await revertFile(repo, base, 'deep/gone.txt', { kind: 'file' })).toMatchObject({
      note: 'deep/gone.txt (whole file; it had been deleted, so it was restored)',
    });
    expect(fs.readFileSync(path.join(workspace, 'deep/gone.txt'), 'utf8')).toBe('was here\n');
    expect(fs.readFileSync(path.join(workspace, 'other.txt'), 'utf8')).toBe('other, changed\n');
  });

  it('refuses a path that leaves the workspace through a linked folder, and a hunk of a file that is not UTF-8', async () => {
    const outside = temp('tether-revert-out-');
    const { workspace, repo, base } = await setup((ws) => {
      fs.writeFileSync(path.join(ws, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    });
    fs.symlinkSync(outside, path.join(workspace, 'out'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'keep\n');
    await expect(revertFile(repo, base, 'out/secret.txt', { kind: 'file' })).rejects.toThrow(/leads outside the workspace/);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep\n');
    fs.writeFileSync(path.join(workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x21, 0x0a]));
    await expect(revertFile(repo, base, 'latin1.txt', { kind: 'hunk', index: 0, fingerprint: 'x' })).rejects.toThrow(
      /not valid UTF-8.*Revert the whole file/,
    );
    await expect(revertFile(repo, base, '.git/config', { kind: 'file' })).rejects.toThrow(/\.git folder/);
  });

  it('refuses a hunk of a binary file, whichever side holds the NUL, and says it is binary', async () => {
    const { workspace, repo, base } = await setup((ws) => {
      fs.writeFileSync(path.join(ws, 'was.bin'), 'a\0b\n');
      fs.writeFileSync(path.join(ws, 'now.bin'), 'a\nb\n');
    });
    fs.writeFileSync(path.join(workspace, 'was.bin'), 'a\nc\n');
    fs.writeFileSync(path.join(workspace, 'now.bin'), 'a\0c\n');
    for (const file of ['was.bin', 'now.bin']) {
      await expect(revertFile(repo, base, file, { kind: 'hunk', index: 0, fingerprint: 'x' })).rejects.toThrow(
        /binary file.*Revert the whole file/,
      );
    }
    expect(fs.readFileSync(path.join(workspace, 'now.bin'), 'utf8')).toBe('a\0c\n');
  });

  it('refuses a path whose folder became a dangling link out of the workspace, or a link loop', async () => {
    const outside = temp('tether-revert-out-');
    const { workspace, repo, base } = await setup((ws) => {
      fs.mkdirSync(path.join(ws, 'sub'));
      fs.writeFileSync(path.join(ws, 'sub', 'a.txt'), 'a\n');
      fs.mkdirSync(path.join(ws, 'loop'));
      fs.writeFileSync(path.join(ws, 'loop', 'b.txt'), 'b\n');
    });
    fs.rmSync(path.join(workspace, 'sub'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'missing'), path.join(workspace, 'sub'));
    await expect(revertFile(repo, base, 'sub/a.txt', { kind: 'file' })).rejects.toThrow(/leads outside the workspace/);
    expect(fs.existsSync(path.join(outside, 'missing'))).toBe(false);
    fs.rmSync(path.join(workspace, 'loop'), { recursive: true });
    fs.symlinkSync(path.join(workspace, 'loop'), path.join(workspace, 'loop'));
    await expect(revertFile(repo, base, 'loop/b.txt', { kind: 'file' })).rejects.toThrow(/leads outside the workspace/);
  });

  it('refuses, and writes nothing, when the file is no longer what the change was worked out from', async () => {
    const { workspace } = await setup((ws) => fs.writeFileSync(path.join(ws, 'a.txt'), 'one\nTWO\nthree\n'));
    const file = path.join(workspace, 'a.txt');
    const origin = { mode: '100644', bytes: Buffer.from('one\ntwo\nthree\n') };
    const seen = { mode: '100644', bytes: Buffer.from('one\nTWO\nthree\n') };
    const changedSince: Array<[string, () => void]> = [
      ['content', () => fs.writeFileSync(file, 'one\nTWO\nthree\nfour\n')],
      ['mode', () => fs.chmodSync(file, 0o755)],
      ['removed', () => fs.rmSync(file)],
      ['a link', () => fs.symlinkSync('elsewhere', file)],
    ];
    for (const [what, change] of changedSince) {
      fs.rmSync(file, { force: true });
      fs.writeFileSync(file, seen.bytes, { mode: 0o644 });
      fs.chmodSync(file, 0o644);
      if (what === 'a link') fs.rmSync(file);
      change();
      const left = fs.lstatSync(file, { throwIfNoEntry: false });
      const bytes = left?.isFile() ? fs.readFileSync(file) : null;
      for (const target of [{ kind: 'file' as const }, { kind: 'hunk' as const, index: 0, fingerprint: 'x' }]) {
        expect(() => revertTo(workspace, 'a.txt', origin, target, seen), what).toThrow(
          /changed since its diff was worked out.*nothing was reverted/,
        );
      }
      expect(fs.lstatSync(file, { throwIfNoEntry: false })?.mode).toBe(left?.mode);
      if (bytes) expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    }
    // A file expected gone that is there again is refused too.
    expect(() => revertTo(workspace, 'a.txt', origin, { kind: 'file' }, null)).toThrow(/changed since/);
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, seen.bytes, { mode: 0o644 });
    revertTo(workspace, 'a.txt', origin, { kind: 'file' }, seen);
    expect(fs.readFileSync(file, 'utf8')).toBe('one\ntwo\nthree\n');
  });
});
