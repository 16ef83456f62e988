import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { startScriptedModel } from './fixtures/scriptedModel';
import { closedAfterEach } from './support/loopLifetime';
import { tempDir } from './support/tempDirs';
import { toolOutputs } from './support/toolResults';

// Issue 31: a memory hog run unasked in auto mode ends alone, inside the sandbox, and the model and
// the person are told which limit it hit; the limits come from the person's settings.

const loop = closedAfterEach();

describe('command limits through the real loop and sandbox', () => {
  it('ends a memory hog at the limit the settings give, says so, and the next command runs', async () => {
    const dataDir = tempDir('tether-data-');
    writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ commandLimits: { memoryMiB: 256 } }));
    const core = (loop.core = createCore({ dataDir }));
    const server = (loop.server = await startScriptedModel({
      turns: [
        { toolCalls: [{ id: 'hog', name: 'run_command', arguments: { command: `python3 -c "b = bytearray(700 * 1024 * 1024)"` } }] },
        { toolCalls: [{ id: 'after', name: 'run_command', arguments: { command: 'echo still here' } }] },
        { text: 'Done.' },
      ],
    }));
    const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
    const sessionId = core.createSession({ workspace: tempDir('tether-ws-'), task: 'use a lot of memory', model, maxSteps: 5 });
    await core.run(sessionId, {
      model,
      mode: 'auto',
      broker: new HeadlessBroker({ unleashed: false }),
      signal: new AbortController().signal,
    });
    const told = toolOutputs(server.requests[server.requests.length - 1]!);
    expect(told.get('hog')).toMatch(/MemoryError/);
    expect(told.get('hog')).toMatch(
      /ran into its memory limit \(256 MiB per process; commandLimits\.memoryMiB in settings\.json raises it\)/,
    );
    expect(told.get('after')).toMatch(/still here[\s\S]*exit code 0/);
  }, 60_000);
});
