import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/shared/contract';
import { workspaceFile } from '../../src/renderer/src/lib/workspacePath';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { harness } from './storeHarness';

// Paths in the conversation that open a file's diff: which text counts as a workspace file, and what a click does.

describe('which text names a workspace file', () => {
  const workspace = '/home/me/project';

  it('takes relative paths, bare file names with an extension, and absolute paths inside the workspace', () => {
    expect(workspaceFile('src/price.js', workspace)).toEqual({ path: 'src/price.js' });
    expect(workspaceFile('./src/price.js', workspace)).toEqual({ path: 'src/price.js' });
    expect(workspaceFile('package.json', workspace)).toEqual({ path: 'package.json' });
    expect(workspaceFile('.eslintrc.json', workspace)).toEqual({ path: '.eslintrc.json' });
    expect(workspaceFile('bin/tether', workspace)).toEqual({ path: 'bin/tether' });
    expect(workspaceFile('/home/me/project/src/a.ts', workspace)).toEqual({ path: 'src/a.ts' });
    expect(workspaceFile('/home/me/project/src/a.ts', `${workspace}/`)).toEqual({ path: 'src/a.ts' });
    expect(workspaceFile('src/a.ts:12', workspace)).toEqual({ path: 'src/a.ts', line: 12 });
    expect(workspaceFile('src/a.ts:12:5', workspace)).toEqual({ path: 'src/a.ts', line: 12 });
  });

  it('refuses ways out of the workspace', () => {
    for (const text of [
      '../secret.txt',
      'src/../../etc/passwd',
      '/etc/passwd',
      '/home/me/project-other/a.ts',
      '/home/me/project',
      '~/.ssh/id_rsa',
      '.git/config',
      'src/.GIT/hooks/pre-commit',
      'src//a.ts',
    ]) {
      expect(workspaceFile(text, workspace), text).toBeNull();
    }
  });

  it('refuses what is not a path: URLs, commands, options, versions, numbers, code', () => {
    for (const text of [
      'https://example.com/a.js',
      'file:///home/me/project/a.ts',
      'npm test',
      'rm -rf src',
      '--force',
      '-v.txt',
      'v1.2.3',
      '1.5',
      'e.g.',
      'foo()',
      'a.b()',
      'x => x',
      'const',
      'README',
      '',
      'src/1/2',
      'a'.repeat(401) + '.ts',
      'C:\\Users\\a.ts',
      'src/a.ts; rm -rf /',
      '$(whoami).ts',
    ]) {
      expect(workspaceFile(text, workspace), text).toBeNull();
    }
  });
});

describe('opening a file named in the conversation', () => {
  const files: FileChange[] = [{ path: 'src/a.ts', status: 'modified', additions: 1, deletions: 1, binary: false }];

  function setup() {
    const api = new FakeApi({
      'session:events': () =>
        storedEvents('s1', [{ type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'b', maxSteps: 3 }]),
      'diff:files': () => files,
      'diff:file': ({ path }) => ({ path, before: 'a', after: 'b', language: 'typescript', binary: false, hunks: [] }),
    });
    const { store } = harness(api, 0);
    store.getState().selectSession('s1');
    return { api, store };
  }

  it('selects a file the session changed in its diff', async () => {
    const { api, store } = setup();
    await settle();
    await store.getState().openFileInDiff('s1', 'src/a.ts');
    expect(store.getState().diffPath.s1).toBe('src/a.ts');
    expect(store.getState().fileDiff).toMatchObject({ sessionId: 's1', path: 'src/a.ts', status: 'ready' });
    expect(api.callsTo('diff:file').at(-1)).toEqual({ sessionId: 's1', path: 'src/a.ts' });
    expect(store.getState().reviewNotice.s1).toBeUndefined();
  });

  it('says a file has no changes instead of asking for its diff', async () => {
    const { api, store } = setup();
    await settle();
    const asked = api.callsTo('diff:file').length;
    await store.getState().openFileInDiff('s1', 'README.md');
    expect(api.callsTo('diff:file').length).toBe(asked);
    expect(store.getState().reviewNotice.s1).toEqual({ kind: 'info', message: 'README.md has no changes in this session.' });
    await store.getState().setDiffScope('s1', 'turn');
    await store.getState().openFileInDiff('s1', 'README.md');
    expect(store.getState().reviewNotice.s1?.message).toBe('README.md has no changes since your last message.');
  });

  it('opens a review column the person folded, and says "no changes" in a toast while the column is folded', async () => {
    const { store } = setup();
    await settle();
    store.getState().setLayout({ reviewCollapsed: true });
    await store.getState().openFileInDiff('s1', 'README.md');
    expect(store.getState().reviewNotice.s1).toBeUndefined();
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'info', message: 'README.md has no changes in this session.' });
    await store.getState().openFileInDiff('s1', 'src/a.ts');
    expect(store.getState().layout.reviewCollapsed).toBe(false);
    expect(store.getState().diffPath.s1).toBe('src/a.ts');
  });
});
