import { describe, expect, it } from 'vitest';
import { ModelError, type ModelEvent, type ModelProvider, type ModelRequest } from './provider';
import { retryDelay, streamWithRetries, withRetries, type RetryingEvent } from './retry';

const noSleep = async () => {};

describe('retryDelay', () => {
  const server = new ModelError('server', 'boom');

  it('doubles from the base up to the cap, with jitter between half and all of it', () => {
    const low = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 };
    const high = { ...low, random: () => 1 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelay(attempt, server, high))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([1, 2, 3].map((attempt) => retryDelay(attempt, server, low))).toEqual([50, 100, 200]);
  });

  it('waits what retry-after says, up to maxRetryAfterMs', () => {
    const limited = new ModelError('rate_limit', 'slow down', { retryAfterMs: 7000 });
    expect(retryDelay(1, limited)).toBe(7000);
    expect(retryDelay(1, limited, { maxRetryAfterMs: 2000 })).toBe(2000);
    expect(retryDelay(1, new ModelError('rate_limit', 'x', { retryAfterMs: 120_000 }))).toBe(60_000);
  });
});

describe('withRetries', () => {
  it('retries retryable errors and reports each retry', async () => {
    const seen: Array<[number, number, string]> = [];
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw new ModelError(calls === 1 ? 'rate_limit' : 'connection', `fail ${calls}`, { retryAfterMs: 5 });
        return 'ok';
      },
      { sleep: noSleep, onRetry: (attempt, delayMs, error) => seen.push([attempt, delayMs, error.kind]) },
    );
    expect(result).toBe('ok');
    expect(seen).toEqual([
      [1, 5, 'rate_limit'],
      [2, 5, 'connection'],
    ]);
  });

  it('never retries a final error', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new ModelError('not_found', 'no such model');
        },
        { sleep: noSleep },
      ),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'no such model' });
    expect(calls).toBe(1);
  });

  it('tries a garbled response only once more', async () => {
    let calls = 0;
    const failure = withRetries(
      async () => {
        calls++;
        throw new ModelError('bad_response', 'not JSON');
      },
      { sleep: noSleep },
    );
    await expect(failure).rejects.toThrow('not JSON Gave up after 2 attempts.');
    expect(calls).toBe(2);
  });

  it('stops when aborted during the wait', async () => {
    const controller = new AbortController();
    let calls = 0;
    const failure = withRetries(
      async () => {
        calls++;
        throw new ModelError('server', '500');
      },
      { signal: controller.signal, baseDelayMs: 60_000 },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(failure).rejects.toMatchObject({ kind: 'aborted' });
    expect(calls).toBe(1);
  });
});

/** A provider that plays a list of scripted attempts: events, then maybe a throw. */
function scripted(attempts: Array<{ events: ModelEvent[]; error?: ModelError }>): ModelProvider & { calls: number } {
  const provider = {
    api: 'chat' as const,
    calls: 0,
    async *stream(): AsyncGenerator<ModelEvent> {
      const attempt = attempts[provider.calls++];
      if (!attempt) throw new Error('no more attempts');
      yield* attempt.events;
      if (attempt.error) throw attempt.error;
    },
  };
  return provider;
}

const req: ModelRequest = { model: 'm', instructions: '', items: [], tools: [], signal: new AbortController().signal };
const done: ModelEvent = {
  type: 'done',
  items: [],
  usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
  stopReason: 'stop',
};

describe('streamWithRetries', () => {
  it('yields the failed attempt, a retrying event, then the next attempt to its done', async () => {
    const provider = scripted([
      { events: [{ type: 'text_delta', text: 'par' }], error: new ModelError('connection', 'dropped') },
      { events: [{ type: 'text_delta', text: 'whole' }, done] },
    ]);
    const events: Array<ModelEvent | RetryingEvent> = [];
    for await (const event of streamWithRetries(provider, req, { sleep: noSleep, random: () => 0, baseDelayMs: 10 })) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['text_delta', 'retrying', 'text_delta', 'done']);
    expect(events[1]).toMatchObject({ type: 'retrying', attempt: 1, delayMs: 5, reason: 'dropped' });
  });

  it('stops reading at done', async () => {
    const provider = scripted([{ events: [done, { type: 'text_delta', text: 'after' }] }]);
    const events = [];
    for await (const event of streamWithRetries(provider, req, { sleep: noSleep })) events.push(event);
    expect(events).toEqual([done]);
  });

  it('counts a stream that ends without done as a dropped connection', async () => {
    const provider = scripted([{ events: [{ type: 'text_delta', text: 'x' }] }, { events: [done] }]);
    const events = [];
    for await (const event of streamWithRetries(provider, req, { sleep: noSleep })) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['text_delta', 'retrying', 'done']);
    expect(provider.calls).toBe(2);
  });

  it('gives up after maxAttempts with the count in the message and the last error as cause', async () => {
    const last = new ModelError('server', '503 from x.');
    const provider = scripted([
      { events: [], error: new ModelError('server', '500 from x.') },
      { events: [], error: last },
    ]);
    const consume = async () => {
      for await (const _event of streamWithRetries(provider, req, { sleep: noSleep, maxAttempts: 2 })) void _event;
    };
    const error = await consume().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe('503 from x. Gave up after 2 attempts.');
    expect((error as ModelError).cause).toBe(last);
  });
});
