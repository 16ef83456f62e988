import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requests } from '../src/shared/contract';
import type { SessionEvent, StoredEvent } from '../src/shared/events';
import { openStore } from '../src/main/store/store';
import type { ScriptedModel, Turn } from './fixtures/scriptedModel';
import { closeServices, openServices } from './support/appServices';
import { assertCliBuilt, cliSetUp, closeCliModels, runCli } from './support/cli';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';

// A project's default mode (the answer to the first-open question) through the app services'
// handlers, as the UI reaches them, with real bubblewrap; and `tether run`, which never reads it.

let server: ScriptedModel | undefined;

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeServices();
  await closeCliModels();
  server = undefined;
  removeTempDirs();
});

async function open(dataDir: string, turns: Turn[] = []) {
  const app = await openServices({ dataDir, turns, ...(server ? { server } : {}) });
  server = app.server;
  return app;
}

const of = <T extends SessionEvent['type']>(events: StoredEvent[], type: T) =>
  events.flatMap((stored) => (stored.event.type === type ? [stored.event as Extract<SessionEvent, { type: T }>] : []));

const touch = (file: string): Turn => ({ toolCalls: [{ name: 'run_command', arguments: { command: `touch ${file}` } }] });

describe('a project’s default mode', () => {
  it('is not set until the person answers, is kept in the store across a restart, and starts the project’s new sessions', async () => {
    const repo = realpathSync(fixtureRepo('failing-test'));
    const dataDir = tempDir('tether-data-');
    const first = await open(dataDir, [touch('auto.txt'), { text: 'Touched.' }]);
    const project = await first.handlers['projects:open']({ path: repo });
    expect(project.defaultMode).toBeNull();
    expect(await first.handlers['projects:setDefaultMode']({ projectId: project.id, mode: 'auto' })).toEqual({
      ...project,
      defaultMode: 'auto',
    });
    await first.close();

    const second = await open(dataDir);
    expect((await second.handlers['projects:list']({})).find((listed) => listed.id === project.id)?.defaultMode).toBe('auto');
    expect((await second.handlers['projects:open']({ path: repo })).defaultMode).toBe('auto');
    const { sessionId } = await second.handlers['session:start']({ workspace: repo, task: 'touch a file' });
    const summary = (await second.handlers['sessions:list']({})).find((listed) => listed.id === sessionId);
    expect(summary).toMatchObject({ mode: 'auto' });
    expect(summary?.autoWorksAsAsk).toBeUndefined();
    await second.waitForEvent('session.finished');
    const events = await second.handlers['session:events']({ sessionId, afterSeq: 0 });
    // The sandbox held the command, so nobody was asked.
    expect(of(events, 'approval.asked')).toEqual([]);
    expect(of(events, 'tool.finished')).toMatchObject([{ outcome: 'ok', metadata: { sandbox: 'sandboxed' } }]);
    expect(existsSync(path.join(repo, 'auto.txt'))).toBe(true);
  });

  it('gives way to a mode asked for at the start, and to the settings where the project has none', async () => {
    const repo = realpathSync(fixtureRepo('failing-test'));
    const app = await open(tempDir('tether-data-'), [{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const project = await app.handlers['projects:open']({ path: repo });
    const modeOf = async (sessionId: string) => (await app.handlers['sessions:list']({})).find((listed) => listed.id === sessionId)?.mode;

    const plain = await app.handlers['session:start']({ workspace: repo, task: 'no default yet' });
    expect(await modeOf(plain.sessionId)).toBe('ask');
    await app.handlers['projects:setDefaultMode']({ projectId: project.id, mode: 'auto-edit' });
    const asked = await app.handlers['session:start']({ workspace: repo, task: 'explicit', mode: 'read-only' });
    expect(await modeOf(asked.sessionId)).toBe('read-only');
    const defaulted = await app.handlers['session:start']({ workspace: repo, task: 'the project default' });
    expect(await modeOf(defaulted.sessionId)).toBe('auto-edit');
    // A session already started keeps its mode.
    expect(await modeOf(plain.sessionId)).toBe('ask');
    await app.waitForCount('session.finished', 3);
  });

  it('refuses an unknown project, and the contract refuses unleashed or a made-up mode as a default', async () => {
    const app = await open(tempDir('tether-data-'));
    await expect(app.handlers['projects:setDefaultMode']({ projectId: 'p_missing', mode: 'auto' })).rejects.toThrow(/no project p_missing/);
    const input = requests['projects:setDefaultMode'].input;
    expect(input.safeParse({ projectId: 'p1', mode: 'auto' }).success).toBe(true);
    expect(input.safeParse({ projectId: 'p1', mode: 'unleashed' }).success).toBe(false);
    expect(input.safeParse({ projectId: 'p1', mode: 'yolo' }).success).toBe(false);
  });

  it('says on the session why auto works as ask when no sandbox is available', async () => {
    const repo = realpathSync(fixtureRepo('failing-test'));
    const app = await open(tempDir('tether-data-'), [{ text: 'Nothing to do.' }]);
    const { sessionId } = await app.handlers['session:start']({ workspace: repo, task: 'look', mode: 'auto' });
    await app.waitForEvent('session.finished');
    expect((await app.handlers['sessions:list']({}))[0]?.autoWorksAsAsk).toBeUndefined();

    // This host's sandbox is looked up on its PATH: one with git but no bubblewrap has none.
    const bin = tempDir('tether-bin-');
    mkdirSync(bin, { recursive: true });
    symlinkSync('/usr/bin/git', path.join(bin, 'git'));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const summary = await app.handlers['session:setMode']({ sessionId, mode: 'auto' });
      expect(summary.autoWorksAsAsk).toMatch(/bubblewrap/);
      expect((await app.handlers['session:setMode']({ sessionId, mode: 'ask' })).autoWorksAsAsk).toBeUndefined();
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('tether run', () => {
  it('keeps ask in a project whose default is auto: the command is asked about (headless: denied); --mode auto runs it', async () => {
    const { env, flags, repo } = await cliSetUp([touch('cli.txt'), { text: 'Could not.' }, touch('cli.txt'), { text: 'Touched.' }]);
    const store = openStore(env.TETHER_HOME);
    store.projects.setDefaultMode(store.projects.ensure(realpathSync(repo)).id, 'auto');
    store.close();

    const plain = await runCli(['run', 'touch a file', '--json', ...flags], env);
    expect(plain.code).toBe(0);
    expect(of(plain.events, 'approval.asked')).toHaveLength(1);
    expect(of(plain.events, 'tool.finished').map((event) => event.outcome)).toEqual(['denied']);
    expect(existsSync(path.join(repo, 'cli.txt'))).toBe(false);

    const auto = await runCli(['run', 'touch a file', '--json', '--mode', 'auto', ...flags], env);
    expect(auto.code).toBe(0);
    expect(of(auto.events, 'approval.asked')).toEqual([]);
    expect(of(auto.events, 'tool.finished')).toMatchObject([{ outcome: 'ok', metadata: { sandbox: 'sandboxed' } }]);
    expect(existsSync(path.join(repo, 'cli.txt'))).toBe(true);
  });
});
