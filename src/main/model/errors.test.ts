import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError, PermissionDeniedError } from 'openai';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, streamErrorToModelError, toModelError, type ModelErrorContext } from './errors';

const ctx: ModelErrorContext = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3-coder', api: 'responses', apiKeySet: true };

describe('parseRetryAfter', () => {
  it('reads retry-after-ms first, then retry-after in seconds or as an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250.5', 'retry-after': '9' }))).toBe(250.5);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '-5' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('toModelError', () => {
  it('names an unreachable server and what to check', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), { code: 'ECONNREFUSED' });
    const error = toModelError(new APIConnectionError({ cause: refused }), ctx);
    expect(error.kind).toBe('connection');
    expect(error.message).toBe(
      'Could not reach http://127.0.0.1:11434/v1 (connection refused: nothing is listening there). Check that the server is running and that TETHER_BASE_URL is right.',
    );
  });

  it('tells a timeout, an abort and a stream cut mid-response apart', () => {
    expect(toModelError(new APIConnectionTimeoutError(), ctx).kind).toBe('connection');
    expect(toModelError(new APIUserAbortError(), ctx).kind).toBe('aborted');
    const cut = Object.assign(new TypeError('terminated'), {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    const error = toModelError(cut, ctx, 'stream');
    expect(error.kind).toBe('connection');
    expect(error.message).toMatch(/broke in the middle of the response from model 'qwen3-coder'/);
  });

  it('403 names the model and the key', () => {
    const error = toModelError(new PermissionDeniedError(403, { message: 'Project does not have access' }, undefined, new Headers()), ctx);
    expect(error.kind).toBe('auth');
    expect(error.message).toContain("may not use model 'qwen3-coder'");
  });

  it('401 without a key says none was sent', () => {
    const error = toModelError(APIError.generate(401, { error: { message: 'Missing bearer' } }, undefined, new Headers()), {
      ...ctx,
      apiKeySet: false,
    });
    expect(error.message).toContain('No API key was sent: set TETHER_API_KEY');
  });

  it('400 context_length_exceeded explains the window; other 4xx name the parameter', () => {
    const long = toModelError(
      new BadRequestError(
        400,
        { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded', param: 'messages' },
        undefined,
        new Headers(),
      ),
      ctx,
    );
    expect(long.kind).toBe('bad_request');
    expect(long.message).toMatch(/no longer fits the model's context window/);
    const unprocessable = toModelError(
      APIError.generate(422, { error: { message: 'bad tools', param: 'tools' } }, undefined, new Headers()),
      ctx,
    );
    expect(unprocessable.kind).toBe('bad_request');
    expect(unprocessable.message).toContain('(parameter: tools)');
  });

  it('a 404 with no word of a model suggests the Chat Completions API', () => {
    const error = toModelError(APIError.generate(404, { error: { message: 'Not Found' } }, undefined, new Headers()), ctx);
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('--api chat');
    const chat = toModelError(APIError.generate(404, { error: { message: 'Not Found' } }, undefined, new Headers()), {
      ...ctx,
      api: 'chat',
    });
    expect(chat.message).not.toContain('--api chat');
  });

  it('a body that is not JSON is quoted, not lost', () => {
    const error = toModelError(APIError.generate(502, undefined, '<html>Bad gateway</html>', new Headers()), ctx);
    expect(error.kind).toBe('server');
    expect(error.message).toContain('Bad gateway');
  });

  it('keeps retry-after from the headers', () => {
    const error = toModelError(
      APIError.generate(429, { error: { message: 'slow down' } }, undefined, new Headers({ 'retry-after': '3' })),
      ctx,
    );
    expect(error.kind).toBe('rate_limit');
    expect(error.options.retryAfterMs).toBe(3000);
  });
});

describe('streamErrorToModelError', () => {
  const cases: Array<[payload: unknown, kind: string]> = [
    [{ type: 'error', error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'quota' } }, 'bad_request'],
    [{ code: 'server_error', message: 'An error occurred while processing your request.' }, 'server'],
    [{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'server'],
    [{ error: { code: 'rate_limit_exceeded', message: 'Slow down' } }, 'rate_limit'],
    [{ error: { code: 429, message: 'Provider returned error' } }, 'rate_limit'],
    [{ error: { code: 400, message: 'Token limit reached' } }, 'bad_request'],
    [{ error: { message: 'x', type: 'invalid_request_error', code: 'tool_use_failed', status_code: 400 } }, 'server'],
    [{ code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' }, 'bad_request'],
    [{ error: { type: 'authentication_error', message: 'invalid x-api-key' } }, 'auth'],
    [{ error: { message: 'something odd happened' } }, 'server'],
  ];
  for (const [payload, kind] of cases) {
    it(`${JSON.stringify(payload)} -> ${kind}`, () => {
      const error = streamErrorToModelError(payload, ctx);
      expect(error.kind).toBe(kind);
      expect(error.message).toContain('http://127.0.0.1:11434/v1');
    });
  }
});
