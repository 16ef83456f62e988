import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/toolError';
import { openWorkspace } from './paths';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-paths-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  fs.mkdirSync(path.join(base, 'ws-evil'));
  fs.symlinkSync(outside, path.join(root, 'link-out'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
  fs.symlinkSync(path.join(outside, 'not-yet', 'file.txt'), path.join(root, 'dangling-out'));
  fs.symlinkSync('src', path.join(root, 'link-in'));
  fs.symlinkSync('nothing-here', path.join(root, 'dangling-in'));
  fs.symlinkSync('../../outside', path.join(root, 'src', 'relative-out'));
  fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
  fs.symlinkSync(root, path.join(base, 'ws-alias'));
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('openWorkspace().resolve accepts paths inside the workspace', () => {
  const cases: [given: () => string, expected: () => string][] = [
    [() => 'src/a.ts', () => path.join(root, 'src/a.ts')],
    [() => './src/a.ts', () => path.join(root, 'src/a.ts')],
    [() => 'src/deep/../a.ts', () => path.join(root, 'src/a.ts')],
    [() => '', () => root],
    [() => '.', () => root],
    [() => 'src/', () => path.join(root, 'src')],
    [() => path.join(root, 'src', 'a.ts'), () => path.join(root, 'src/a.ts')],
    [() => 'new/folder/file.ts', () => path.join(root, 'new/folder/file.ts')],
    [() => 'link-in/a.ts', () => path.join(root, 'src/a.ts')],
    [() => 'link-in/new.ts', () => path.join(root, 'src/new.ts')],
    [() => 'dangling-in', () => path.join(root, 'nothing-here')],
    [() => './~notes.txt', () => path.join(root, '~notes.txt')],
    [() => 'src/~backup', () => path.join(root, 'src/~backup')],
    [() => path.join(base, 'ws-alias', 'src', 'a.ts'), () => path.join(root, 'src/a.ts')],
  ];
  it.each(cases.map(([given, expected], index) => ({ index, given, expected })))('case $index', ({ given, expected }) => {
    expect(openWorkspace(root).resolve(given())).toBe(expected());
  });
});

describe('openWorkspace().resolve refuses paths that leave the workspace', () => {
  const cases: { name: string; given: () => string; resolvesTo?: () => string; mentions?: string }[] = [
    { name: '.. escape', given: () => '../outside/secret.txt', resolvesTo: () => path.join(outside, 'secret.txt') },
    { name: '.. escape after a folder', given: () => 'src/../../outside', resolvesTo: () => outside },
    { name: 'absolute path outside', given: () => '/etc/passwd', resolvesTo: () => '/etc/passwd' },
    {
      name: 'sibling folder sharing the prefix',
      given: () => path.join(base, 'ws-evil', 'x'),
      resolvesTo: () => path.join(base, 'ws-evil', 'x'),
    },
    {
      name: 'symlink to an outside folder',
      given: () => 'link-out/secret.txt',
      resolvesTo: () => path.join(outside, 'secret.txt'),
      mentions: 'symbolic link',
    },
    {
      name: 'symlink to an outside file',
      given: () => 'secret-link',
      resolvesTo: () => path.join(outside, 'secret.txt'),
      mentions: 'symbolic link',
    },
    { name: 'new file under a symlink out', given: () => 'link-out/new.txt', resolvesTo: () => path.join(outside, 'new.txt') },
    { name: 'dangling symlink pointing out', given: () => 'dangling-out', resolvesTo: () => path.join(outside, 'not-yet', 'file.txt') },
    {
      name: 'relative symlink pointing out',
      given: () => 'src/relative-out/secret.txt',
      resolvesTo: () => path.join(outside, 'secret.txt'),
    },
    { name: 'home folder', given: () => '~', mentions: 'home folder' },
    { name: 'file in the home folder', given: () => '~/.ssh/id_rsa', mentions: os.homedir() },
    { name: "another user's home", given: () => '~root/.bashrc', mentions: 'user "root"' },
    { name: 'NUL byte', given: () => 'src/a.ts\0.png', mentions: 'NUL' },
    { name: 'symlink loop', given: () => 'loop-a/x', mentions: 'loop' },
  ];
  it.each(cases)('$name', ({ given, resolvesTo, mentions }) => {
    const workspace = openWorkspace(root);
    let caught: unknown;
    try {
      workspace.resolve(given());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolError);
    const message = (caught as Error).message;
    expect(message).toContain(JSON.stringify(given()));
    if (!mentions?.includes('loop')) expect(message).toContain(`Only paths inside ${root} are allowed`);
    if (resolvesTo) expect(message).toContain(`resolves to ${resolvesTo()}`);
    if (mentions) expect(message).toContain(mentions);
  });
});

describe('openWorkspace', () => {
  it('canonicalises the root, so a workspace opened through a symlink reports its real folder', () => {
    expect(openWorkspace(path.join(base, 'ws-alias')).root).toBe(root);
  });

  it('gives paths relative to the root with forward slashes, "." for the root itself', () => {
    const workspace = openWorkspace(root);
    expect(workspace.relative(path.join(root, 'src', 'deep', 'x.ts'))).toBe('src/deep/x.ts');
    expect(workspace.relative(root)).toBe('.');
  });

  it('refuses to open a folder that does not exist, naming it', () => {
    expect(() => openWorkspace(path.join(base, 'missing'))).toThrow(/Cannot open workspace .*missing/);
  });

  it('refuses to open a file as a workspace', () => {
    expect(() => openWorkspace(path.join(root, 'src', 'a.ts'))).toThrow(/not a folder/);
  });
});
