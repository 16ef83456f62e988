import { ModelError } from './provider';
import type { ModelEvent, ModelProvider, ModelRequest } from './provider';

/**
 * The one retry policy for model requests: exponential backoff with jitter, the server's
 * retry-after honoured (up to a cap), and only for errors that can pass (429, 5xx, a dropped or
 * garbled stream). A response is acted on only at its `done`, so trying again after a drop is safe;
 * the caller throws away the deltas it saw from the failed attempt when it sees `retrying`.
 */

export interface RetryOptions {
  /** Tries in all, the first included (default 5). */
  maxAttempts: number;
  /** The first backoff (default 1 s); it doubles each try. */
  baseDelayMs: number;
  /** The longest backoff (default 30 s). */
  maxDelayMs: number;
  /** The longest retry-after honoured (default 60 s); a server asking for more is asked again sooner. */
  maxRetryAfterMs: number;
  onRetry?: (attempt: number, delayMs: number, error: ModelError) => void;
  signal?: AbortSignal;
  /** Replaces the timer (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Replaces Math.random for the jitter (tests). */
  random?: () => number;
}

export const DEFAULT_RETRY: Readonly<Omit<RetryOptions, 'onRetry' | 'signal' | 'sleep' | 'random'>> = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** Told to the caller between attempts; `attempt` is the one that failed (1-based). */
export interface RetryingEvent {
  type: 'retrying';
  attempt: number;
  delayMs: number;
  reason: string;
  error: ModelError;
}

/** A garbled stream is tried once more; if it is garbled again the server is not speaking the API. */
const BAD_RESPONSE_ATTEMPTS = 2;

/** How long to wait before the try after `attempt` failed with `error`. */
export function retryDelay(attempt: number, error: ModelError, options: Partial<RetryOptions> = {}): number {
  const { baseDelayMs, maxDelayMs, maxRetryAfterMs } = { ...DEFAULT_RETRY, ...options };
  const retryAfter = error.options.retryAfterMs;
  if (retryAfter !== undefined) return Math.min(Math.max(0, retryAfter), maxRetryAfterMs);
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  // Half fixed, half random: spread out clients that failed together without ever waiting ~0.
  const random = options.random ?? Math.random;
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

function shouldRetry(error: ModelError, attempt: number, maxAttempts: number): boolean {
  if (!error.retryable || attempt >= maxAttempts) return false;
  return error.kind !== 'bad_response' || attempt < BAD_RESPONSE_ATTEMPTS;
}

function giveUp(error: ModelError, attempts: number): ModelError {
  if (attempts <= 1) return error;
  return new ModelError(error.kind, `${error.message} Gave up after ${attempts} attempts.`, {
    ...error.options,
    cause: error,
  });
}

function asModelError(error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  return new ModelError('bad_response', error instanceof Error ? error.message : String(error), { cause: error });
}

function abortError(signal: AbortSignal | undefined): ModelError | undefined {
  return signal?.aborted ? new ModelError('aborted', 'The model request was stopped.') : undefined;
}

/** Runs `call` until it succeeds, fails for good, or runs out of attempts. */
export async function withRetries<T>(call: (attempt: number) => Promise<T>, options: Partial<RetryOptions> = {}): Promise<T> {
  const { maxAttempts } = { ...DEFAULT_RETRY, ...options };
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (thrown) {
      const error = abortError(options.signal) ?? asModelError(thrown);
      if (!shouldRetry(error, attempt, maxAttempts)) throw giveUp(error, attempt);
      const delayMs = retryDelay(attempt, error, options);
      options.onRetry?.(attempt, delayMs, error);
      await sleep(delayMs, options.signal);
      const aborted = abortError(options.signal);
      if (aborted) throw aborted;
    }
  }
}

/**
 * Streams one model request, trying again on retryable failures. Between attempts it yields a
 * `retrying` event; everything after that belongs to the new attempt. It ends after one `done`.
 */
export async function* streamWithRetries(
  provider: ModelProvider,
  request: ModelRequest,
  options: Partial<RetryOptions> = {},
): AsyncGenerator<ModelEvent | RetryingEvent> {
  const { maxAttempts } = { ...DEFAULT_RETRY, ...options };
  const sleep = options.sleep ?? abortableSleep;
  const signal = options.signal ?? request.signal;
  for (let attempt = 1; ; attempt++) {
    try {
      for await (const event of provider.stream(request)) {
        yield event;
        if (event.type === 'done') return;
      }
      throw new ModelError('connection', 'The model stream ended without a complete response.');
    } catch (thrown) {
      const error = abortError(signal) ?? asModelError(thrown);
      if (!shouldRetry(error, attempt, maxAttempts)) throw giveUp(error, attempt);
      const delayMs = retryDelay(attempt, error, options);
      options.onRetry?.(attempt, delayMs, error);
      yield { type: 'retrying', attempt, delayMs, reason: error.message, error };
      await sleep(delayMs, signal);
      const aborted = abortError(signal);
      if (aborted) throw aborted;
    }
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
