import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requests } from '../src/shared/contract';
import { closeServices, openServices } from './support/appServices';
import { removeTempDirs, tempDir } from './support/tempDirs';

// The completions the UI asks main for: workspace files for @-mentions, folders for "Open a folder…",
// and the folder picker that only the desktop app has.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

describe('completions through the contract', () => {
  it('lists a project’s and a session’s files for an @-mention, and refuses an unknown one', async () => {
    const dir = tempDir('tether-mention-');
    writeFileSync(path.join(dir, 'alpha.ts'), '');
    writeFileSync(path.join(dir, 'beta.ts'), '');
    const { handlers, waitForCount } = await openServices({ turns: [{ text: 'Hi.' }] });
    const project = await handlers['projects:open']({ path: dir });
    expect(await handlers['workspace:files']({ projectId: project.id, query: 'alp' })).toEqual({ files: ['alpha.ts'], truncated: false });
    const { sessionId } = await handlers['session:start']({ workspace: dir, task: 'hello' });
    await waitForCount('session.finished', 1);
    expect((await handlers['workspace:files']({ sessionId, query: '.ts' })).files.sort()).toEqual(['alpha.ts', 'beta.ts']);
    await expect(handlers['workspace:files']({ projectId: 'nope', query: '' })).rejects.toThrow(/no project nope/);
    await expect(handlers['workspace:files']({ sessionId: 'nope', query: '' })).rejects.toThrow(/nope/);
  });

  it('takes a session or a project, not both and not neither, and bounds the query', () => {
    const input = requests['workspace:files'].input;
    expect(input.safeParse({ sessionId: 's', query: 'a' }).success).toBe(true);
    expect(input.safeParse({ projectId: 'p', query: 'a' }).success).toBe(true);
    expect(input.safeParse({ sessionId: 's', projectId: 'p', query: 'a' }).success).toBe(false);
    expect(input.safeParse({ query: 'a' }).success).toBe(false);
    expect(input.safeParse({ sessionId: 's', query: 'a'.repeat(1001) }).success).toBe(false);
    expect(input.safeParse({ sessionId: 's', query: 'a', limit: 10_000 }).success).toBe(false);
    expect(requests['folders:complete'].input.safeParse({ typed: 'x'.repeat(5000) }).success).toBe(false);
  });

  it('completes folders, and refuses the folder picker under tether serve', async () => {
    const dir = tempDir('tether-open-');
    const { handlers } = await openServices();
    expect((await handlers['folders:complete']({ typed: `${path.dirname(dir)}/${path.basename(dir).slice(0, -2)}` })).folders).toContain(
      `${dir}/`,
    );
    await expect(handlers['folders:pick']({})).rejects.toThrow(/needs the desktop app/);
  });
});
