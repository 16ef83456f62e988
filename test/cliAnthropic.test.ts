import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from './fixtures/scriptedModel';
import { assertCliBuilt, cliSetUp, closeCliModels, runCli } from './support/cli';
import { removeTempDirs } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// `tether run --api anthropic`: the built CLI in a child process, the scripted model speaking
// Anthropic Messages over real HTTP, a real SQLite file.

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeCliModels();
  removeTempDirs();
});

const setUp = (turns: Turn[], apiKey?: string) =>
  cliSetUp(turns, { api: 'anthropic', model: 'claude-sonnet-4-6', ...(apiKey ? { apiKey } : {}) });

describe('tether run --api anthropic', () => {
  it('runs a tool call and answers end to end, logging the session as Anthropic', async () => {
    const { env, flags, server } = await setUp([
      { reasoning: 'Read it first.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/price.js' } }] },
      { text: 'It discounts a price.' },
    ]);
    const result = await runCli(['run', 'read the code', '--json', '--max-tokens', '4000', ...flags], env);
    expect(result.code, result.stderr).toBe(0);
    // The loop's own steps (other features add events of their own between them: checkpoints...).
    const steps = new Set([
      'session.started',
      'user.messaged',
      'model.requested',
      'model.responded',
      'tool.started',
      'tool.finished',
      'session.finished',
    ]);
    expect(result.events.map((stored) => stored.event.type).filter((type) => steps.has(type))).toEqual([
      'session.started',
      'user.messaged',
      'model.requested',
      'model.responded',
      'tool.started',
      'tool.finished',
      'model.requested',
      'model.responded',
      'session.finished',
    ]);
    expect(result.events[0]?.event).toMatchObject({
      type: 'session.started',
      api: 'anthropic',
      model: 'claude-sonnet-4-6',
      baseUrl: server.baseUrl,
    });
    const posts = server.received.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(posts[0]?.headers.authorization).toBe('Bearer test-key');
    expect(server.requests[0]).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 4000, stream: true });
    expect(allToolOutputs(server.requests[1]!)[0]).toMatch(/discounted/);
  });

  it('prints the answer on stdout, and takes the key from ANTHROPIC_API_KEY when TETHER_API_KEY is unset', async () => {
    const { env, flags } = await setUp([{ text: 'The answer is 42.' }], 'sk-ant-scripted');
    const result = await runCli(['run', 'what is it?', ...flags], { ...env, TETHER_API_KEY: '', ANTHROPIC_API_KEY: 'sk-ant-scripted' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('The answer is 42.');
    expect(result.stderr).toMatch(/anthropic API at/);
  });

  it('fails with exit 3 and says which key to set when the server refuses it', async () => {
    const { env, flags } = await setUp([{ text: 'never' }], 'sk-ant-right');
    const result = await runCli(['run', 'hi', ...flags], { ...env, TETHER_API_KEY: 'sk-wrong' });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/401 from .*the API key was refused.*TETHER_API_KEY or ANTHROPIC_API_KEY/);
  });
});
