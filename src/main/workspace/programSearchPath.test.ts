import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFolderToAvoid, trustedSearchPath } from './programSearchPath';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-path-')));
  made.push(dir);
  return dir;
}

describe('the PATH Tether looks up its own programs in', () => {
  it('drops empty and relative entries, which resolve against the folder a program starts in', () => {
    const value = ['', '.', 'node_modules/.bin', '/usr/local/bin', '', '/usr/bin', './bin'].join(':');
    expect(trustedSearchPath(value, [])).toBe('/usr/local/bin:/usr/bin');
    expect(trustedSearchPath(':/usr/bin:', [])).toBe('/usr/bin');
  });

  it('drops entries inside a workspace, also when a link leads there, and keeps the rest in order', () => {
    const root = folder();
    const workspace = path.join(root, 'project');
    fs.mkdirSync(path.join(workspace, 'node_modules', '.bin'), { recursive: true });
    fs.symlinkSync(path.join(workspace, 'node_modules', '.bin'), path.join(root, 'linked-bin'));
    const value = [`${workspace}/node_modules/.bin`, '/usr/bin', `${root}/linked-bin`, `${root}/project-tools`, workspace].join(':');
    expect(trustedSearchPath(value, [workspace])).toBe(`/usr/bin:${root}/project-tools`);
  });

  it('avoids the folder Tether was started in only when it is a project, never the home folder or a folder above it', () => {
    const home = folder();
    const project = path.join(home, 'code', 'app');
    fs.mkdirSync(project, { recursive: true });
    expect(startFolderToAvoid(project, home)).toBe(project);
    expect(startFolderToAvoid(home, home)).toBeUndefined();
    expect(startFolderToAvoid(path.dirname(home), home)).toBeUndefined();
    expect(startFolderToAvoid('/', home)).toBeUndefined();
  });
});
