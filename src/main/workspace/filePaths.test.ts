import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPath, isInside, physicalPath, realFolder, SymlinkLoopError } from './filePaths';

let base = '';
let ws = '';
beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-file-paths-')));
  ws = path.join(base, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(path.join(base, 'outside'));
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), '');
  fs.writeFileSync(path.join(base, 'outside', 'x'), '');
  fs.symlinkSync(path.join(base, 'outside'), path.join(ws, 'outdir'));
  fs.symlinkSync(path.join(base, 'outside', 'missing'), path.join(ws, 'dangling'));
  fs.symlinkSync('../../outside/missing-too', path.join(ws, 'src', 'dangling-rel'));
  fs.symlinkSync('dangling', path.join(ws, 'to-dangling'));
  fs.symlinkSync(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
  fs.symlinkSync(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
  fs.symlinkSync('self', path.join(ws, 'self'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('isInside', () => {
  it.each([
    ['/w', '/w', true],
    ['/w/a', '/w', true],
    ['/w/a/b', '/w/', true],
    ['/w/..cache', '/w', true],
    ['/w-sibling', '/w', false],
    ['/wx/a', '/w', false],
    ['/', '/w', false],
    ['/w/../x', '/w', false],
    ['/anything', '/', true],
  ])('%s in %s: %s', (target, folder, inside) => {
    expect(isInside(target, folder)).toBe(inside);
  });
});

describe('physicalPath: where the kernel opens a path', () => {
  it('is the real path of what exists', () => {
    expect(physicalPath(path.join(ws, 'outdir', 'x'))).toBe(path.join(base, 'outside', 'x'));
    expect(physicalPath(path.join(ws, 'src', 'a.ts'))).toBe(path.join(ws, 'src', 'a.ts'));
  });

  it('follows a dangling link to the missing place it names, absolute, relative or through another link', () => {
    expect(physicalPath(path.join(ws, 'dangling'))).toBe(path.join(base, 'outside', 'missing'));
    expect(physicalPath(path.join(ws, 'src', 'dangling-rel'))).toBe(path.join(base, 'outside', 'missing-too'));
    expect(physicalPath(path.join(ws, 'to-dangling'))).toBe(path.join(base, 'outside', 'missing'));
  });

  it('applies a `..` after a link to where the link points', () => {
    expect(physicalPath(`${ws}/outdir/../x`)).toBe(path.join(base, 'x'));
    expect(physicalPath(`${ws}/outdir/../outside/new`)).toBe(path.join(base, 'outside', 'new'));
    expect(physicalPath(`${ws}/src/../src/a.ts`)).toBe(path.join(ws, 'src', 'a.ts'));
  });

  it('appends what is missing as written', () => {
    expect(physicalPath(path.join(ws, 'src', 'new', 'deeper.ts'))).toBe(path.join(ws, 'src', 'new', 'deeper.ts'));
    expect(physicalPath(path.join(ws, 'outdir', 'new', 'file'))).toBe(path.join(base, 'outside', 'new', 'file'));
  });

  it.each(['loop-a', 'self', 'loop-b/x'])('throws SymlinkLoopError for a loop (%s)', (name) => {
    expect(() => physicalPath(path.join(ws, name))).toThrow(SymlinkLoopError);
  });
});

describe('canonicalPath: `..` folded first, then the links followed', () => {
  it('folds `..` as written before following links', () => {
    expect(canonicalPath(`${ws}/outdir/../src/a.ts`)).toBe(path.join(ws, 'src', 'a.ts'));
    expect(physicalPath(`${ws}/outdir/../src/a.ts`)).toBe(path.join(base, 'src', 'a.ts'));
  });

  it('follows a dangling link', () => {
    expect(canonicalPath(path.join(ws, 'dangling'))).toBe(path.join(base, 'outside', 'missing'));
  });
});

describe('realFolder', () => {
  it('is the real path of a folder, through a link', () => {
    expect(realFolder(path.join(ws, 'outdir'))).toEqual({ path: path.join(base, 'outside') });
  });

  it('says what is wrong with a file, a missing folder or a dangling link', () => {
    expect(realFolder(path.join(ws, 'src', 'a.ts'))).toEqual({ problem: 'not-a-folder' });
    expect(realFolder(path.join(ws, 'nope'))).toEqual({ problem: 'missing' });
    expect(realFolder(path.join(ws, 'dangling'))).toEqual({ problem: 'missing' });
  });
});
