import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../src/main/core';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { runAnsweredSession, type Asked, type Reply } from './support/answeredSession';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { eventsOf } from './support/events';

// Through the real runner, engine and store: a write's or an edit's request carries the file as it
// is now (so the person sees a diff against it), the call refuses to write a file that changed
// while the request waited, and a command's request carries each part's risk in words.

let core: Core;
let server: ScriptedModel | undefined;

beforeEach(() => {
  core = createCore({ dataDir: tempDir('tether-data-') });
});
afterEach(async () => {
  core.close();
  await server?.close();
  server = undefined;
  removeTempDirs();
});

async function runAnswering(repo: string, turns: Turn[], answer: (asked: Asked) => Reply) {
  server = await startScriptedModel({ turns });
  return runAnsweredSession(core, server.baseUrl, repo, answer);
}

const allow = { action: 'allow', scope: 'once' } as const;

describe('a write’s request shows the file as it is now', () => {
  it('carries the current text of the file it overwrites, and writes once allowed', async () => {
    const repo = fixtureRepo('failing-test');
    writeFileSync(path.join(repo, 'notes.md'), '# Notes\nold line\n');
    const { asked, events } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# Notes\nnew line\n' } }] }, { text: 'done' }],
      () => allow,
    );
    expect(asked[0]?.change).toMatchObject({ path: 'notes.md', file: 'text', segments: ['', '# Notes\nold line\n', ''], firstLine: 1 });
    expect(eventsOf(events, 'tool.finished')[0]?.outcome).toBe('ok');
    expect(readFileSync(path.join(repo, 'notes.md'), 'utf8')).toBe('# Notes\nnew line\n');
  });

  it('refuses to write a file that changed while the request waited, and keeps what is there', async () => {
    const repo = fixtureRepo('failing-test');
    const file = path.join(repo, 'notes.md');
    writeFileSync(file, 'first\n');
    const { events } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'model\n' } }] }, { text: 'done' }],
      () => {
        writeFileSync(file, 'someone else\n');
        return allow;
      },
    );
    const [finished] = eventsOf(events, 'tool.finished');
    expect(finished?.outcome).toBe('error');
    expect(finished?.output).toMatch(
      /notes\.md changed while the request waited for the person, so the diff they allowed is no longer what this call would do; nothing was written/,
    );
    expect(readFileSync(file, 'utf8')).toBe('someone else\n');
  });

  it('refuses to create a file that appeared while the request for a new file waited', async () => {
    const repo = fixtureRepo('failing-test');
    const file = path.join(repo, 'fresh.txt');
    const { asked, events } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'write_file', arguments: { path: 'fresh.txt', content: 'model\n' } }] }, { text: 'done' }],
      () => {
        writeFileSync(file, 'raced\n');
        return allow;
      },
    );
    expect(asked[0]?.change).toMatchObject({ file: 'new', hash: 'absent' });
    expect(eventsOf(events, 'tool.finished')[0]?.output).toMatch(/fresh\.txt was created while the request waited/);
    expect(readFileSync(file, 'utf8')).toBe('raced\n');
  });
});

describe('an edit’s request shows where it lands', () => {
  it('carries the lines around the match and their position, and refuses a file changed meanwhile', async () => {
    const repo = fixtureRepo('failing-test');
    const file = path.join(repo, 'list.txt');
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => `item ${i + 1}`).join('\n') + '\n');
    const { asked, events } = await runAnswering(
      repo,
      [
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'list.txt', old_string: 'item 8', new_string: 'item eight' } }] },
        { text: 'done' },
      ],
      () => {
        writeFileSync(file, `${readFileSync(file, 'utf8')}item 13\n`);
        return allow;
      },
    );
    expect(asked[0]?.change).toMatchObject({
      firstLine: 5,
      segments: ['item 5\nitem 6\nitem 7\n', 'item 8', '\nitem 9\nitem 10\nitem 11\n'],
    });
    expect(eventsOf(events, 'tool.finished')[0]?.outcome).toBe('error');
    expect(readFileSync(file, 'utf8')).toContain('item 8\n');
  });
});

describe('a command’s request says what each part does', () => {
  it('carries the parts of a compound upload with their risks, and the verdict is unchanged', async () => {
    const repo = fixtureRepo('failing-test');
    const command = 'npm test 2>&1 | tee out.txt && curl -X POST https://example.com/upload -d @out.txt && rm -f out.txt';
    const { asked } = await runAnswering(
      repo,
      [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'done' }],
      () => ({ action: 'deny', scope: 'once' }),
    );
    expect(asked[0]?.parts?.map((part) => part.risk)).toEqual(['runs', 'writes', 'sends', 'deletes']);
    expect(asked[0]?.parts?.[2]?.effects[0]?.text).toBe('curl sends out.txt to example.com');
    expect(asked[0]?.commands).toEqual([
      ['npm', 'test'],
      ['tee', 'out.txt'],
      ['curl', '-X', 'POST', 'https://example.com/upload', '-d', '@out.txt'],
      ['rm', '-f', 'out.txt'],
    ]);
    expect(asked[0]?.risk).toBe('exec');
  });
});
