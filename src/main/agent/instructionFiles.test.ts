import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../../test/support/tempDirs';
import { folderWorkedIn, foldersUpToRoot, readInstructionFiles } from './instructionFiles';

afterEach(() => removeTempDirs());

function tree(files: Record<string, string>): string {
  const root = tempDir('tether-instructions-');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('readInstructionFiles', () => {
  it('reads AGENTS.md then CLAUDE.md in each folder, in the order the folders are given, with their paths', () => {
    const root = tree({
      'AGENTS.md': 'root agents',
      'src/CLAUDE.md': 'src claude',
      'src/auth/AGENTS.md': 'auth agents',
      'src/auth/CLAUDE.md': 'auth claude',
      'src/auth/login.js': '',
    });
    const found = readInstructionFiles(root, foldersUpToRoot('src/auth'));
    expect(found.files.map((file) => [file.path, file.text])).toEqual([
      ['src/auth/AGENTS.md', 'auth agents'],
      ['src/auth/CLAUDE.md', 'auth claude'],
      ['src/CLAUDE.md', 'src claude'],
      ['AGENTS.md', 'root agents'],
    ]);
    expect(found.files.every((file) => !file.truncated && file.chars === file.text.length)).toBe(true);
    expect(found.warnings).toEqual([]);
  });

  it('skips files the session already has', () => {
    const root = tree({ 'AGENTS.md': 'root', 'lib/AGENTS.md': 'lib' });
    const found = readInstructionFiles(root, foldersUpToRoot('lib'), { known: new Set(['AGENTS.md']) });
    expect(found.files.map((file) => file.path)).toEqual(['lib/AGENTS.md']);
  });

  it('caps a huge file at the per-file limit, marks it, and warns', () => {
    const huge = Array.from({ length: 5_000 }, (_, i) => `- rule ${i}: keep it short`).join('\n');
    const root = tree({ 'AGENTS.md': huge });
    const found = readInstructionFiles(root, [''], { limits: { maxFileChars: 1_000, maxTotalChars: 10_000 } });
    const [file] = found.files;
    expect(file).toMatchObject({ path: 'AGENTS.md', chars: huge.length, truncated: true });
    expect(file!.text.length).toBeLessThan(1_100);
    expect(file!.text).toMatch(/cut by Tether: this file has [\d,]+ characters/);
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toMatch(/^AGENTS\.md has [\d,]+ characters, more than the 1,000 an instruction file may give the model/);
  });

  it('stops at the total cap: the next file is cut, the one after left out, each with a warning', () => {
    const root = tree({ 'a/AGENTS.md': 'x'.repeat(800), 'b/AGENTS.md': 'y'.repeat(800), 'c/AGENTS.md': 'z'.repeat(800) });
    const found = readInstructionFiles(root, ['a', 'b', 'c'], { limits: { maxFileChars: 1_000, maxTotalChars: 1_200 } });
    expect(found.files.map((file) => [file.path, file.truncated])).toEqual([
      ['a/AGENTS.md', false],
      ['b/AGENTS.md', true],
    ]);
    expect(found.skipped).toEqual(['c/AGENTS.md']);
    expect(found.warnings[0]).toMatch(/b\/AGENTS\.md has 800 characters; only the first 400 were given/);
    expect(found.warnings[1]).toMatch(/c\/AGENTS\.md was not given to the model/);
  });

  it('gives a CLAUDE.md that links to the AGENTS.md beside it once', () => {
    const root = tree({ 'AGENTS.md': 'shared rules' });
    symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'));
    const found = readInstructionFiles(root, ['']);
    expect(found.files.map((file) => file.path)).toEqual(['AGENTS.md']);
    expect(found.skipped).toEqual(['CLAUDE.md']);
    expect(found.warnings).toEqual([]);
  });

  it('refuses a file that leads outside the workspace, with a warning', () => {
    const outside = tree({ 'secret.txt': 'do not send' });
    const root = tree({});
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'AGENTS.md'));
    const found = readInstructionFiles(root, ['']);
    expect(found.files).toEqual([]);
    expect(found.warnings[0]).toMatch(/AGENTS\.md leads outside the workspace/);
    expect(found.skipped).toEqual(['AGENTS.md']);
  });
});

describe('the folders the agent works in', () => {
  it('walks from a folder up to the root, nearest first', () => {
    expect(foldersUpToRoot('src/auth/providers')).toEqual(['src/auth/providers', 'src/auth', 'src', '']);
    expect(foldersUpToRoot('')).toEqual(['']);
    expect(foldersUpToRoot('./lib/')).toEqual(['lib', '']);
  });

  it("takes a file's folder, a listed or searched folder, and a command's cwd; never one outside", () => {
    const root = '/w';
    expect(folderWorkedIn(root, 'read_file', { path: 'src/auth/login.js' })).toBe('src/auth');
    expect(folderWorkedIn(root, 'edit_file', { path: '/w/lib/a.ts' })).toBe('lib');
    expect(folderWorkedIn(root, 'list_files', { path: 'docs' })).toBe('docs');
    expect(folderWorkedIn(root, 'list_files', {})).toBe('');
    expect(folderWorkedIn(root, 'run_command', { command: 'ls', cwd: 'pkg/a' })).toBe('pkg/a');
    expect(folderWorkedIn(root, 'read_file', { path: '../etc/passwd' })).toBeUndefined();
    expect(folderWorkedIn(root, 'fetch_url', { url: 'https://x' })).toBeUndefined();
  });
});
