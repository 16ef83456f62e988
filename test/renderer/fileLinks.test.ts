import type { Nodes, Root, Text } from 'mdast';
import { describe, expect, it } from 'vitest';
import { FILE_PATH_ATTRIBUTE, remarkFilePaths } from '../../src/renderer/src/features/chat/remarkFilePaths';
import type { FileChange } from '../../src/shared/contract';
import { pathsInText, workspaceFile } from '../../src/renderer/src/lib/workspacePath';
import { selectReviewShown } from '../../src/renderer/src/stores/paneDefaults';
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
    expect(workspaceFile('src/a.ts:12:5', workspace)).toEqual({ path: 'src/a.ts', line: 12, column: 5 });
    expect(workspaceFile('src/a.ts#L12', workspace)).toEqual({ path: 'src/a.ts', line: 12 });
    expect(workspaceFile('src/a.ts#L12C3', workspace)).toEqual({ path: 'src/a.ts', line: 12, column: 3 });
    expect(workspaceFile('src/a.ts#L12-L20', workspace)).toEqual({ path: 'src/a.ts', line: 12 });
    expect(workspaceFile('/home/me/project/src/a.ts:7', workspace)).toEqual({ path: 'src/a.ts', line: 7 });
  });

  it('refuses a place that is nowhere, or a place after something that is not a path', () => {
    for (const text of [
      'src/a.ts:0',
      'src/a.ts:3:0',
      'src/a.ts#L0',
      '../a.ts:3',
      '~/.ssh/id_rsa:1',
      'http://host/a.ts:80',
      'src/a.ts:3:4:5',
    ]) {
      expect(workspaceFile(text, workspace), text).toBeNull();
    }
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

describe('paths in the model’s prose', () => {
  const found = (text: string) => pathsInText(text).map(({ start, end, file }) => ({ text: text.slice(start, end), ...file }));

  it('links a path with folders and an extension, or a file with a place, without the sentence’s full stop', () => {
    expect(found('Changed src/long.js:350 and src/a.ts. See README.md:3, docs/guide.md#L10-L20 and lib/x.py:4:2.')).toEqual([
      { text: 'src/long.js:350', path: 'src/long.js', line: 350 },
      { text: 'src/a.ts', path: 'src/a.ts' },
      { text: 'README.md:3', path: 'README.md', line: 3 },
      { text: 'docs/guide.md#L10-L20', path: 'docs/guide.md', line: 10 },
      { text: 'lib/x.py:4:2', path: 'lib/x.py', line: 4, column: 2 },
    ]);
  });

  it('leaves words alone: and/or, Node.js, fractions, versions, URLs, home and absolute paths, ways out', () => {
    const prose =
      'Use read/write and/or Node.js 1/2 v1.2/3 at https://example.com/src/a.js or file:///etc/a.js, ~/notes/a.md, /etc/passwd.txt, ../up/a.ts, .git/config.ts and a README.md.';
    expect(found(prose)).toEqual([]);
  });
});

describe('links in an answer', () => {
  it('marks a path in prose for a link, keeping the text exactly, and leaves links and code alone', () => {
    const text = (value: string): Text => ({ type: 'text', value });
    const tree: Root = {
      type: 'root',
      children: [
        { type: 'paragraph', children: [text('Changed src/long.js:350 (see '), { type: 'inlineCode', value: 'src/a.ts:3:1' }, text(').')] },
        {
          type: 'paragraph',
          children: [
            { type: 'strong', children: [text('lib/b.py')] },
            { type: 'link', url: 'https://x', children: [text('src/c.js')] },
          ],
        },
        { type: 'code', value: 'src/in/block.js:1' },
      ],
    };
    remarkFilePaths()(tree);
    const marked: string[] = [];
    const walk = (node: Nodes) => {
      if (node.type === 'text' && node.data?.hName === 'span') marked.push(JSON.stringify([node.value, node.data.hProperties]));
      if ('children' in node) node.children.forEach(walk);
    };
    walk(tree);
    expect(marked).toEqual([
      JSON.stringify(['src/long.js:350', { [FILE_PATH_ATTRIBUTE]: 'src/long.js:350' }]),
      JSON.stringify(['lib/b.py', { [FILE_PATH_ATTRIBUTE]: 'lib/b.py' }]),
    ]);
    const first = tree.children[0];
    expect(first?.type === 'paragraph' && first.children.map((node) => ('value' in node ? node.value : ''))).toEqual([
      'Changed ',
      'src/long.js:350',
      ' (see ',
      'src/a.ts:3:1',
      ').',
    ]);
  });
});

describe('opening a file named in the conversation', () => {
  const files: FileChange[] = [{ path: 'src/a.ts', status: 'modified', additions: 1, deletions: 1, binary: false }];

  function setup(extra: ConstructorParameters<typeof FakeApi>[0] = {}) {
    const api = new FakeApi({
      'session:events': () =>
        storedEvents('s1', [{ type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'b', maxSteps: 3 }]),
      'diff:files': () => files,
      'diff:file': ({ path }) => ({ path, status: 'modified', before: 'a', after: 'b', language: 'typescript', binary: false, hunks: [] }),
      'workspace:readFile': ({ path, confirmed }) =>
        path === '.env' && !confirmed
          ? { status: 'asks', path, reason: '.env files usually hold secrets.' }
          : { status: 'shown', path, text: 'text\n', language: 'markdown', size: 5 },
      ...extra,
    });
    const { store } = harness(api, 0);
    store.getState().selectSession('s1');
    return { api, store };
  }

  /** The list of changes, answered only once released: the page has not read it yet. */
  function heldList() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    return {
      release: () => release(),
      answer: async () => {
        await held;
        return files;
      },
    };
  }

  it('selects a file the session changed in its diff, at the line named', async () => {
    const { api, store } = setup();
    await settle();
    await store.getState().openWorkspaceFile('s1', { path: 'src/a.ts', line: 12, column: 4 });
    expect(store.getState().diffPath.s1).toBe('src/a.ts');
    expect(store.getState().fileDiff).toMatchObject({ sessionId: 's1', path: 'src/a.ts', status: 'ready' });
    expect(store.getState().diffReveal).toMatchObject({ sessionId: 's1', path: 'src/a.ts', line: 12, column: 4 });
    expect(api.callsTo('diff:file').at(-1)).toEqual({ sessionId: 's1', path: 'src/a.ts' });
    expect(api.callsTo('workspace:readFile')).toEqual([]);
  });

  it('opens a file changed since the list was read in its diff, not read-only as unchanged', async () => {
    let listed: FileChange[] = [];
    const { api, store } = setup({ 'diff:files': () => listed });
    await settle();
    expect(store.getState().diffs.s1).toMatchObject({ status: 'ready', files: [] });
    // The session's last step changed it; the list's refresh waits its moment.
    listed = files;
    store.getState().scheduleDiffRefresh('s1');
    await store.getState().openWorkspaceFile('s1', { path: 'src/a.ts', line: 2 });
    expect(store.getState().workspaceFile).toBeNull();
    expect(store.getState().diffPath.s1).toBe('src/a.ts');
    expect(api.callsTo('workspace:readFile')).toEqual([]);
  });

  it('opens a file the session did not change read-only, as main reads it, and goes back to the changes', async () => {
    const { api, store } = setup();
    await settle();
    const asked = api.callsTo('diff:file').length;
    await store.getState().openWorkspaceFile('s1', { path: 'README.md', line: 3 });
    expect(api.callsTo('diff:file').length).toBe(asked);
    expect(api.callsTo('workspace:readFile')).toEqual([{ sessionId: 's1', path: 'README.md' }]);
    expect(store.getState().workspaceFile).toMatchObject({ sessionId: 's1', path: 'README.md', line: 3, status: 'ready' });
    expect(store.getState().workspaceFile?.view).toMatchObject({ status: 'shown', text: 'text\n' });
    store.getState().closeWorkspaceFile('s1');
    expect(store.getState().workspaceFile).toBeNull();
  });

  it('shows a file a read rule asks about only once the person confirms', async () => {
    const { api, store } = setup();
    await settle();
    await store.getState().openWorkspaceFile('s1', { path: '.env' });
    expect(store.getState().workspaceFile).toMatchObject({ status: 'asks', view: { reason: '.env files usually hold secrets.' } });
    await store.getState().confirmWorkspaceFile('s1');
    expect(api.callsTo('workspace:readFile').at(-1)).toEqual({ sessionId: 's1', path: '.env', confirmed: true });
    expect(store.getState().workspaceFile).toMatchObject({ status: 'ready', view: { status: 'shown' } });
  });

  it('says why main refused a file', async () => {
    const { store } = setup({
      'workspace:readFile': ({ path }) => {
        throw new Error(`${path} is outside the workspace.`);
      },
    });
    await settle();
    await store.getState().openWorkspaceFile('s1', { path: 'x/../../etc/passwd.txt' });
    expect(store.getState().workspaceFile).toMatchObject({ status: 'error', error: 'x/../../etc/passwd.txt is outside the workspace.' });
  });

  it('on a page that has not read the list yet, asks for the list and the file together, before the column is drawn, and the file once', async () => {
    // Opening the column draws the diff panel (the diff editor, the first time), which holds the
    // page's main thread: both requests must be on their way by then.
    const list = heldList();
    const { api, store } = setup({
      'diff:files': list.answer,
    });
    await settle();
    expect(store.getState().diffs.s1?.status).not.toBe('ready');
    store.getState().setLayout({ reviewCollapsed: true });
    const askedWhenDrawn: number[] = [];
    store.subscribe((state, before) => {
      if (before.layout.reviewCollapsed && !state.layout.reviewCollapsed) askedWhenDrawn.push(api.callsTo('diff:file').length);
    });
    const opening = store.getState().openWorkspaceFile('s1', { path: 'src/a.ts', line: 7 });
    expect(askedWhenDrawn).toEqual([1]);
    list.release();
    await opening;
    expect(api.callsTo('diff:file')).toEqual([{ sessionId: 's1', path: 'src/a.ts' }]);
    expect(store.getState().fileDiff).toMatchObject({ sessionId: 's1', path: 'src/a.ts', status: 'ready' });
    expect(store.getState().diffPath.s1).toBe('src/a.ts');
    expect(store.getState().diffReveal).toMatchObject({ path: 'src/a.ts', line: 7 });
  });

  it('with the list read, asks for a changed file before the folded column is drawn, once, and opens it at its line', async () => {
    const { api, store } = setup();
    await settle();
    store.getState().setLayout({ reviewCollapsed: true });
    const asked = api.callsTo('diff:file').length;
    const askedWhenDrawn: number[] = [];
    store.subscribe((state, before) => {
      if (before.layout.reviewCollapsed && !state.layout.reviewCollapsed) askedWhenDrawn.push(api.callsTo('diff:file').length - asked);
    });
    await store.getState().openWorkspaceFile('s1', { path: 'src/a.ts', line: 9 });
    expect(askedWhenDrawn).toEqual([1]);
    expect(api.callsTo('diff:file').length - asked).toBe(1);
    expect(store.getState().diffReveal).toMatchObject({ path: 'src/a.ts', line: 9 });
    expect(store.getState().fileDiff).toMatchObject({ path: 'src/a.ts', status: 'ready' });
  });

  it('of two links clicked before the list arrives, opens the later one', async () => {
    // The list was read before the session's last step; its refresh is due when the person clicks
    // one path, then another: the first click reads the list, the second waits for that reading.
    let listed: FileChange[] = [];
    let answerList = () => {};
    const both: FileChange[] = [...files, { path: 'src/b.ts', status: 'modified', additions: 1, deletions: 0, binary: false }];
    const { store } = setup({
      'diff:files': async () => {
        if (listed.length > 0) await new Promise<void>((resolve) => (answerList = resolve));
        return listed;
      },
    });
    await settle();
    expect(store.getState().diffs.s1).toMatchObject({ status: 'ready', files: [] });
    listed = both;
    store.getState().scheduleDiffRefresh('s1');
    const first = store.getState().openWorkspaceFile('s1', { path: 'src/a.ts', line: 1 });
    const second = store.getState().openWorkspaceFile('s1', { path: 'src/b.ts', line: 2 });
    answerList();
    await Promise.all([first, second]);
    await settle();
    expect(store.getState().fileDiff).toMatchObject({ path: 'src/b.ts', status: 'ready' });
    expect(store.getState().diffPath.s1).toBe('src/b.ts');
    expect(store.getState().diffReveal).toMatchObject({ path: 'src/b.ts', line: 2 });
  });

  it('drops the file asked for ahead when the list says the session did not change it, and shows it read-only', async () => {
    const list = heldList();
    const { api, store } = setup({
      'diff:files': list.answer,
      'diff:file': ({ path }) => {
        if (path !== 'src/a.ts') throw new Error(`The session did not change ${path}.`);
        return { path, status: 'modified', before: 'a', after: 'b', language: 'typescript', binary: false, hunks: [] };
      },
    });
    await settle();
    const opening = store.getState().openWorkspaceFile('s1', { path: 'README.md', line: 3 });
    list.release();
    await opening;
    await settle();
    expect(api.callsTo('diff:file')).toContainEqual({ sessionId: 's1', path: 'README.md' });
    expect(store.getState().workspaceFile).toMatchObject({ path: 'README.md', line: 3, status: 'ready' });
    // The list's first file is what the diff shows, as before the link.
    expect(store.getState().fileDiff).toMatchObject({ path: 'src/a.ts', status: 'ready' });
    // A later look at that file asks again: the answer asked ahead is not kept.
    await store.getState().selectDiffFile('s1', 'README.md');
    expect(api.callsTo('diff:file').filter((call) => (call as { path: string }).path === 'README.md')).toHaveLength(2);
  });

  it('opens a review column that was folded (by the person, or by a narrow window)', async () => {
    const { store } = setup();
    await settle();
    store.getState().setLayout({ reviewCollapsed: true });
    await store.getState().openWorkspaceFile('s1', { path: 'src/a.ts' });
    expect(store.getState().layout.reviewCollapsed).toBe(false);
    store.getState().setLayout({ reviewCollapsed: undefined });
    store.getState().setRoomyWindow(false);
    expect(selectReviewShown(store.getState(), 's1')).toBe(false);
    await store.getState().openWorkspaceFile('s1', { path: 'README.md' });
    expect(selectReviewShown(store.getState(), 's1')).toBe(true);
  });
});
