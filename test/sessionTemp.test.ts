import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createCore } from '../src/main/core';
import { SESSION_TEMP_DAYS, sessionTempDir } from '../src/main/sandbox/sessionTemp';
import { closeServices, openServices } from './support/appServices';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';

// A session's private /tmp through the app's requests: its commands keep what they write there from one
// call to the next, the person can find it from the session header, and it goes with the session.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

it('keeps a session’s /tmp across its commands, shows where it is, and removes it with the session', async () => {
  const { handlers, server, waitForEvent } = await openServices();
  server.push(
    { toolCalls: [{ name: 'run_command', arguments: { command: 'echo draft > /tmp/notes.txt' } }] },
    { toolCalls: [{ name: 'run_command', arguments: { command: 'cat /tmp/notes.txt' } }] },
    { text: 'Read my notes back.' },
  );
  await handlers['projects:open']({ path: fixtureRepo('failing-test') });
  const workspace = (await handlers['projects:list']({}))[0]!.path;
  await handlers['projects:setDefaultMode']({ projectId: (await handlers['projects:list']({}))[0]!.id, mode: 'auto' });
  const { sessionId } = await handlers['session:start']({ workspace, task: 'take notes' });
  await waitForEvent('session.finished');
  expect(server.requests.at(-1)!.messages!.some((message) => String(message.content).includes('draft'))).toBe(true);

  const temp = await handlers['session:sandboxTemp']({ sessionId });
  expect(temp).toMatchObject({ exists: true, sandboxed: true });
  expect(fs.readFileSync(path.join(temp.path, 'notes.txt'), 'utf8')).toBe('draft\n');
  // Only the desktop app opens folders; the browser is told to copy the path.
  expect(await handlers['session:openSandboxTemp']({ sessionId })).toEqual({ opened: false });

  await handlers['session:delete']({ sessionId });
  expect(fs.existsSync(temp.path)).toBe(false);
});

it(`removes, when Tether starts, the /tmp of sessions that are gone or idle for ${SESSION_TEMP_DAYS} days, and keeps the rest`, () => {
  const dataDir = tempDir('tether-data-');
  const core = createCore({ dataDir });
  const workspace = fixtureRepo('failing-test');
  const model = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', api: 'chat' as const };
  const recent = core.createSession({ workspace, task: 'recent', model, maxSteps: 3 });
  const idle = core.createSession({ workspace, task: 'idle', model, maxSteps: 3 });
  core.close();
  for (const id of [recent, idle, 'deleted-session']) {
    fs.mkdirSync(sessionTempDir(dataDir, id), { recursive: true });
    fs.writeFileSync(path.join(sessionTempDir(dataDir, id), 'scratch'), 'x');
  }
  // Eight days from now, the "recent" session would be idle too: move the clock for the idle one only.
  const later = Date.now() + (SESSION_TEMP_DAYS + 1) * 24 * 60 * 60 * 1000;
  const realNow = Date.now;
  Date.now = () => later;
  try {
    createCore({ dataDir }).close();
  } finally {
    Date.now = realNow;
  }
  for (const id of [recent, idle, 'deleted-session']) expect(fs.existsSync(sessionTempDir(dataDir, id)), id).toBe(false);

  // Today, a live session keeps its /tmp; a deleted one's goes.
  const kept = createCore({ dataDir });
  const live = kept.createSession({ workspace, task: 'live', model, maxSteps: 3 });
  kept.close();
  fs.mkdirSync(sessionTempDir(dataDir, live), { recursive: true });
  fs.mkdirSync(sessionTempDir(dataDir, 'deleted-session'), { recursive: true });
  createCore({ dataDir }).close();
  expect(fs.existsSync(sessionTempDir(dataDir, live))).toBe(true);
  expect(fs.existsSync(sessionTempDir(dataDir, 'deleted-session'))).toBe(false);
});
