import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoredEvent } from '../src/shared/events';
import { foldEvents } from '../src/shared/session';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { startScriptedModel, type ScriptedModel } from './fixtures/scriptedModel';
import { assertCliBuilt, runCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Cost through the real loop (priced from the table when the response is logged), the fold, the
// store's totals and the built `tether sessions`.

let server: ScriptedModel;
let dataDir: string;
const sessions: Record<string, string> = {};
let projectA: string;
let projectB: string;

beforeAll(async () => {
  assertCliBuilt();
  server = await startScriptedModel();
  dataDir = tempDir('tether-data-');
  // A local model the person priced themselves.
  writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ models: { 'my-local': { inputPrice: 0, outputPrice: 0 } } }));
  projectA = tempDir('tether-a-');
  projectB = tempDir('tether-b-');
  const core = createCore({ dataDir });
  const runOne = async (
    workspace: string,
    modelId: string,
    usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number },
  ) => {
    server.push({ text: 'Done.', usage });
    const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: modelId, api: 'responses' };
    const sessionId = core.createSession({ workspace, task: `task for ${modelId}`, model, maxSteps: 5 });
    await core.run(sessionId, { model, broker: new HeadlessBroker({ unleashed: true }), signal: new AbortController().signal });
    return sessionId;
  };
  try {
    sessions.gpt41 = await runOne(projectA, 'gpt-4.1', { inputTokens: 10_000, outputTokens: 2_000, cachedInputTokens: 6_000 });
    sessions.unknown = await runOne(projectA, 'scripted-model', { inputTokens: 5_000, outputTokens: 100 });
    sessions.sonnet = await runOne(projectB, 'claude-sonnet-4-5', { inputTokens: 100_000, outputTokens: 10_000 });
    sessions.local = await runOne(projectB, 'my-local', { inputTokens: 3_000, outputTokens: 300 });
  } finally {
    core.close();
  }
});

afterAll(async () => {
  await server.close();
  removeTempDirs();
});

function logOf(sessionId: string): StoredEvent[] {
  const core = createCore({ dataDir });
  try {
    return core.store.events.list(sessionId);
  } finally {
    core.close();
  }
}

describe('session cost', () => {
  it('prices a known model when the response is logged, and folds the total', () => {
    const events = logOf(sessions.gpt41!);
    const responded = events.find((stored) => stored.event.type === 'model.responded')!.event;
    // 4,000 uncached × $2 + 6,000 cached × $0.50 + 2,000 out × $8, per million.
    expect(responded).toMatchObject({ costUsd: 0.027 });
    const state = foldEvents(events);
    expect(state.costUsd).toBeCloseTo(0.027, 12);
    expect(state.unpricedResponses).toBe(0);
  });

  it('leaves an unknown model without a cost: tokens only, never a made-up figure', () => {
    const events = logOf(sessions.unknown!);
    const responded = events.find((stored) => stored.event.type === 'model.responded')!.event;
    expect(responded).not.toHaveProperty('costUsd');
    const state = foldEvents(events);
    expect(state.usage.inputTokens).toBe(5_000);
    expect(state.costUsd).toBe(0);
    expect(state.unpricedResponses).toBe(1);
  });

  it('`tether sessions` shows tokens and cost per session, and sums per project', async () => {
    const result = await runCli(['sessions', '--data-dir', dataDir], {});
    expect(result.code).toBe(0);
    const line = (id: string) => result.stdout.split('\n').find((row) => row.startsWith(id)) ?? '';
    expect(line(sessions.gpt41!)).toMatch(/gpt-4\.1 {2}10k in \(6\.0k cached\) · 2\.0k out {2}\$0\.0270 {2}task for gpt-4\.1/);
    expect(line(sessions.unknown!)).toMatch(/scripted-model {2}5\.0k in · 100 out {2}cost unknown/);
    expect(line(sessions.sonnet!)).toMatch(/100k in · 10k out {2}\$0\.4500/);
    expect(line(sessions.local!)).toMatch(/3\.0k in · 300 out {2}\$0\.0000/);
    const perProject = result.stdout.slice(result.stdout.indexOf('Per project:'));
    expect(perProject).toMatch(
      new RegExp(
        `${escape(projectA)} {2}2 sessions {2}15k in \\(6\\.0k cached\\) · 2\\.1k out {2}\\$0\\.0270 \\+ 1 session at unknown cost`,
      ),
    );
    expect(perProject).toMatch(new RegExp(`${escape(projectB)} {2}2 sessions {2}103k in · 10k out {2}\\$0\\.4500\\n`));

    const shown = await runCli(['sessions', 'show', sessions.sonnet!, '--data-dir', dataDir], {});
    expect(shown.stdout).toMatch(/100k in · 10k out · \$0\.4500/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
