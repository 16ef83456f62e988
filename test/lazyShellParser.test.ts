import { describe, expect, it } from 'vitest';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { isShellParserReady } from '../src/main/shell/parser';
import { startScriptedModel, type Turn } from './fixtures/scriptedModel';
import { closedAfterEach } from './support/loopLifetime';
import { tempDir } from './support/tempDirs';

// The shell parser (tree-sitter's WebAssembly: 32 MB of memory and a garbage collection to make
// room for it) loads with the first command the policy reads, not with every run (issue 20). Its own
// file: the parser is loaded once per process, and vitest gives each file a fresh one.

const loop = closedAfterEach();

async function run(turns: Turn[], options: { unleashed?: boolean } = {}) {
  const core = (loop.core = createCore({ dataDir: tempDir('tether-data-') }));
  const server = (loop.server = await startScriptedModel({ turns }));
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace: tempDir('tether-ws-'), task: 'task', model, maxSteps: 5 });
  const outcome = await core.run(sessionId, {
    model,
    broker: new HeadlessBroker({ unleashed: options.unleashed ?? true }),
    mode: 'ask',
    signal: new AbortController().signal,
  });
  return { outcome, events: core.store.events.list(sessionId) };
}

describe('the shell parser loads when a command is first checked', () => {
  it('is not loaded by a run that answers, nor by one that only reads files; the first command loads it and is read by it', async () => {
    const answered = await run([{ text: 'Nothing to do.' }]);
    expect(answered.outcome.status).toBe('done');
    const read = await run([{ toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'Done.' }]);
    expect(read.outcome.status).toBe('done');
    expect(isShellParserReady()).toBe(false);

    // Headless and not unleashed, what would ask is denied: a line the parser finds only reads runs on
    // its own, and one whose second command writes is refused.
    const commanded = await run(
      [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi && ls' } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi; touch made.txt' } }] },
        { text: 'Done.' },
      ],
      { unleashed: false },
    );
    expect(isShellParserReady()).toBe(true);
    const finished = commanded.events.flatMap(({ event }) => (event.type === 'tool.finished' ? [event] : []));
    expect(finished.map((event) => event.outcome)).toEqual(['ok', 'denied']);
  });
});
