import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProgramResolver, isBashBuiltin } from './programResolver';

let root: string;
let workspace: string;
let system: string;

function executable(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\n');
  fs.chmodSync(file, 0o755);
  return file;
}

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-resolve-')));
  workspace = path.join(root, 'ws');
  system = path.join(root, 'sys');
  fs.mkdirSync(workspace);
  fs.mkdirSync(system);
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('createProgramResolver', () => {
  it('finds a program on PATH outside the workspace as a system program', () => {
    executable(path.join(system, 'ls'));
    expect(createProgramResolver(workspace, system).resolve('ls', false)).toEqual({ kind: 'system', path: path.join(system, 'ls') });
  });

  it('takes the first executable match, skipping files that are not executable', () => {
    const other = path.join(root, 'other');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'ls'), 'not executable');
    executable(path.join(system, 'ls'));
    expect(createProgramResolver(workspace, `${other}:${system}`).resolve('ls', false)).toMatchObject({
      kind: 'system',
      path: path.join(system, 'ls'),
    });
  });

  it('calls a program found in a workspace folder on PATH a workspace program', () => {
    executable(path.join(workspace, 'bin', 'ls'));
    executable(path.join(system, 'ls'));
    expect(createProgramResolver(workspace, `${path.join(workspace, 'bin')}:${system}`).resolve('ls', false).kind).toBe('workspace');
  });

  it('does not trust a program found after a workspace folder on PATH, which a write there would shadow', () => {
    fs.mkdirSync(path.join(workspace, 'bin'));
    executable(path.join(system, 'ls'));
    expect(createProgramResolver(workspace, `${path.join(workspace, 'bin')}:${system}`).resolve('ls', false).kind).toBe('untrusted');
  });

  it('follows symbolic links: a system name that leads into the workspace is a workspace program', () => {
    const target = executable(path.join(workspace, 'evil'));
    fs.symlinkSync(target, path.join(system, 'ls'));
    expect(createProgramResolver(workspace, system).resolve('ls', false).kind).toBe('workspace');
  });

  it('sees through a symbolic link to the workspace root itself', () => {
    const link = path.join(root, 'link-to-ws');
    fs.symlinkSync(workspace, link);
    const resolver = createProgramResolver(link, system);
    expect(resolver.workspaceRoot).toBe(workspace);
    expect(resolver.isInsideWorkspace(path.join(workspace, 'a', 'b'))).toBe(true);
    expect(resolver.isInsideWorkspace(`${workspace}-sibling`)).toBe(false);
  });

  it('does not trust PATH with an empty or relative entry before the match', () => {
    executable(path.join(system, 'ls'));
    expect(createProgramResolver(workspace, `:${system}`).resolve('ls', false).kind).toBe('untrusted');
    expect(createProgramResolver(workspace, `bin:${system}`).resolve('ls', false).kind).toBe('untrusted');
  });

  it('does not trust relative paths, and trusts absolute ones only in system or PATH folders', () => {
    const resolver = createProgramResolver(workspace, system);
    expect(resolver.resolve('./ls', false).kind).toBe('untrusted');
    expect(resolver.resolve('bin/ls', false).kind).toBe('untrusted');
    expect(resolver.resolve('/usr/bin/env', false).kind).toBe('system');
    expect(resolver.resolve(executable(path.join(system, 'cat')), false).kind).toBe('system');
    expect(resolver.resolve(executable(path.join(root, 'elsewhere', 'cat')), false).kind).toBe('untrusted');
    expect(resolver.resolve(executable(path.join(workspace, 'cat')), false).kind).toBe('workspace');
  });

  it('answers builtins without PATH, except for a program a wrapper execs', () => {
    const resolver = createProgramResolver(workspace, '/nonexistent');
    expect(resolver.resolve('echo', false)).toEqual({ kind: 'builtin' });
    expect(resolver.resolve('echo', true)).toEqual({ kind: 'missing' });
    expect(isBashBuiltin('cd')).toBe(true);
    expect(isBashBuiltin('ls')).toBe(false);
  });

  it('reports a program found nowhere as missing', () => {
    expect(createProgramResolver(workspace, system).resolve('nope', false)).toEqual({ kind: 'missing' });
  });
});
