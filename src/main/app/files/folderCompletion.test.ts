import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../../../test/support/tempDirs';
import { completeFolders } from './folderCompletion';

afterEach(() => removeTempDirs());

function home(): string {
  const dir = tempDir('tether-home-');
  for (const folder of ['code/tether', 'code/tern', 'Code2', 'code3', '.config/tether', '.cache', 'docs'])
    mkdirSync(path.join(dir, folder), { recursive: true });
  writeFileSync(path.join(dir, 'code.txt'), '');
  writeFileSync(path.join(dir, 'code/template.md'), '');
  symlinkSync(path.join(dir, 'docs'), path.join(dir, 'code-link'));
  symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'code-broken'));
  symlinkSync(path.join(dir, 'code-loop-b'), path.join(dir, 'code-loop-a'));
  symlinkSync(path.join(dir, 'code-loop-a'), path.join(dir, 'code-loop-b'));
  symlinkSync(path.join(dir, 'code.txt'), path.join(dir, 'code-file-link'));
  return dir;
}

describe('folder completion for "Open a folder…"', () => {
  it('offers the sub-folders that start with the typed name, as typed, each ending in a slash; folder links count, files and broken links do not', async () => {
    const dir = home();
    expect(await completeFolders(`${dir}/co`)).toEqual({
      folders: [`${dir}/code/`, `${dir}/code-link/`, `${dir}/Code2/`, `${dir}/code3/`],
      truncated: false,
    });
    expect((await completeFolders(`${dir}/code/te`)).folders).toEqual([`${dir}/code/tern/`, `${dir}/code/tether/`]);
    expect((await completeFolders(`${dir}/code/`)).folders).toEqual([`${dir}/code/tern/`, `${dir}/code/tether/`]);
  });

  it('expands ~ to the home folder and keeps ~ in what it offers', async () => {
    const dir = home();
    expect((await completeFolders('~/code/t', { home: dir })).folders).toEqual(['~/code/tern/', '~/code/tether/']);
    expect((await completeFolders('~', { home: dir })).folders).toEqual(['~/code/', '~/code-link/', '~/Code2/', '~/code3/', '~/docs/']);
    expect((await completeFolders('~/', { home: dir })).folders).toContain('~/docs/');
  });

  it('shows hidden folders only when the typed name starts with a dot', async () => {
    const dir = home();
    expect((await completeFolders('~/', { home: dir })).folders.some((folder) => folder.includes('/.'))).toBe(false);
    expect((await completeFolders('~/.', { home: dir })).folders).toEqual(['~/.cache/', '~/.config/']);
    expect((await completeFolders('~/.con', { home: dir })).folders).toEqual(['~/.config/']);
  });

  it('gives nothing for what it cannot or must not complete', async () => {
    const dir = home();
    for (const typed of [
      '',
      'code',
      './code',
      '../',
      '~root/',
      '~other/x',
      `${dir}/nowhere/`,
      `${dir}/code.txt/`,
      `${dir}/code-loop-a/`,
      `${dir}/co\0de`,
    ]) {
      expect(await completeFolders(typed, { home: dir }), JSON.stringify(typed)).toEqual({ folders: [], truncated: false });
    }
  });

  it('follows .. as the folder it names', async () => {
    const dir = home();
    expect((await completeFolders(`${dir}/code/../do`)).folders).toEqual([`${dir}/code/../docs/`]);
  });

  it('answers quickly from a huge folder, saying the list is cut', async () => {
    const dir = tempDir('tether-huge-');
    for (let i = 0; i < 3_000; i++) mkdirSync(path.join(dir, `d${i}`));
    const started = performance.now();
    const matches = await completeFolders(`${dir}/d`, { maxScanned: 1_000 });
    const ms = performance.now() - started;
    expect(matches.folders).toHaveLength(50);
    expect(matches.truncated).toBe(true);
    expect(ms).toBeLessThan(1_000);
    // Past the scan, a name is not found: the list says it was cut rather than that nothing matched.
    expect((await completeFolders(`${dir}/d2999`, { maxScanned: 1_000 })).truncated).toBe(true);
  }, 60_000);
});
