import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { EventOf } from '../src/shared/events';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { startScriptedModel, type ScriptedModel, type ScriptedRequestBody } from './fixtures/scriptedModel';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Instruction files through the real loop and store: the root's in the system prompt, nested ones in
// the conversation where they were found, and a system prompt that never changes.

let core: Core;
let server: ScriptedModel;

beforeEach(async () => {
  core = createCore({ dataDir: tempDir('tether-data-') });
  server = await startScriptedModel();
});

afterEach(async () => {
  core.close();
  await server.close();
  removeTempDirs();
});

function workspace(): string {
  const root = tempDir('tether-ws-');
  const files: Record<string, string> = {
    'AGENTS.md': 'Use tabs. Run npm test before answering.',
    'src/AGENTS.md': 'Everything in src is ESM.',
    'src/auth/AGENTS.md': 'Never log tokens.',
    'src/auth/CLAUDE.md': 'Sessions expire after 30 minutes.',
    'src/auth/login.js': 'export function login() {}\n',
    'src/util.js': 'export const id = (x) => x;\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const userTexts = (body: ScriptedRequestBody) =>
  (body.input ?? []).flatMap((item) => (item.role === 'user' && typeof item.content === 'string' ? [item.content] : []));

it('puts the root files in a system prompt that stays byte-identical, and nested ones in the conversation, nearest first', async () => {
  const root = workspace();
  server.push(
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/auth/login.js' } }] },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/util.js' } }] },
    { text: 'Read both.' },
  );
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace: root, task: 'read the auth code', model, maxSteps: 10 });
  const run = (message?: string) =>
    core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: true }),
      signal: new AbortController().signal,
      ...(message ? { message, resume: true } : {}),
    });
  expect((await run()).status).toBe('done');

  const [first, second, third] = server.requests;
  expect(first!.instructions).toContain('<instructions path="AGENTS.md">\nUse tabs. Run npm test before answering.\n</instructions>');
  expect(first!.instructions).not.toContain('Never log tokens');
  expect(second!.instructions).toBe(first!.instructions);
  expect(third!.instructions).toBe(first!.instructions);

  // Found after the read in src/auth: one message, nearest folder first, right after the read's result.
  const note = userTexts(second!).find((text) => text.includes('instruction files found'));
  expect(note).toBeDefined();
  const order = ['src/auth/AGENTS.md', 'src/auth/CLAUDE.md', 'src/AGENTS.md'].map((file) => note!.indexOf(`<instructions path="${file}">`));
  expect(order.every((index) => index >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  expect(note).not.toContain('path="AGENTS.md"');
  const input = second!.input ?? [];
  expect(input.at(-1)).toMatchObject({ role: 'user', content: note });
  expect(input.at(-2)).toMatchObject({ type: 'function_call_output' });
  // The next request carries the same note at the same place, once: the prefix grows, never changes.
  expect(JSON.stringify(third!.input).startsWith(JSON.stringify(input).slice(0, -1))).toBe(true);
  expect(userTexts(third!).filter((text) => text === note)).toHaveLength(1);

  const loaded = core.store.events
    .list(sessionId)
    .flatMap((stored) => (stored.event.type === 'instructions.loaded' ? [stored.event as EventOf<'instructions.loaded'>] : []));
  expect(loaded.map((event) => [event.placement, event.files.map((file) => file.path)])).toEqual([
    ['system', ['AGENTS.md']],
    ['conversation', ['src/auth/AGENTS.md', 'src/auth/CLAUDE.md', 'src/AGENTS.md']],
  ]);

  // A later run keeps the prompt the session started with, even after the file changed on disk.
  writeFileSync(path.join(root, 'AGENTS.md'), 'Use spaces now.');
  server.push({ text: 'Still here.' });
  expect((await run('anything else?')).status).toBe('done');
  expect(server.requests.at(-1)!.instructions).toBe(first!.instructions);
});
