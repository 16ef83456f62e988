import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError, type ModelApi } from './provider';
import { asNumber, asObject, asString, type WireObject } from './wire';

/**
 * Turns whatever went wrong while talking to a model server into a ModelError whose message names
 * the server and the model and says what to do, so the CLI and the UI can show it as it is.
 */

/** Who was being asked, for the message. */
export interface ModelErrorContext {
  baseUrl: string;
  model: string;
  api: ModelApi;
  /** Whether a key was sent at all: a 401 without one is a different mistake. */
  apiKeySet: boolean;
}

/** A longer wait than this is not worth honouring inside one run; the retry gives up sooner instead. */
const RETRY_AFTER_PARSE_LIMIT_MS = 24 * 60 * 60 * 1000;

/**
 * Reads `retry-after-ms` (OpenAI's, milliseconds) or `retry-after` (seconds, or an HTTP date).
 * Returns undefined when neither is present or readable.
 */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.min(value, RETRY_AFTER_PARSE_LIMIT_MS);
  }
  const after = headers.get('retry-after');
  if (after !== null && after.trim() !== '') {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, RETRY_AFTER_PARSE_LIMIT_MS);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.min(Math.max(0, date - now), RETRY_AFTER_PARSE_LIMIT_MS);
  }
  return undefined;
}

/** The person (or the app) stopped the request: never retried. Both SDKs' abort errors become this. */
export function abortedError(ctx: ModelErrorContext, cause: unknown): ModelError {
  return new ModelError('aborted', `The request to ${ctx.baseUrl} was stopped.`, { cause });
}

/** The SDK gave up waiting for the server: a connection error, retried. */
export function timedOutError(ctx: ModelErrorContext, cause: unknown): ModelError {
  return new ModelError(
    'connection',
    `Timed out waiting for ${ctx.baseUrl} (model '${ctx.model}'). The server may be overloaded or unreachable; it will be retried.`,
    { cause },
  );
}

/**
 * Any thrown value (an openai SDK error, a fetch failure, an abort) as a ModelError. `during` says
 * whether the response had started: a cut connection then means a broken stream, not an unreachable server.
 */
export function toModelError(error: unknown, ctx: ModelErrorContext, during: 'request' | 'stream' = 'request'): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError || isAbort(error)) return abortedError(ctx, error);
  if (error instanceof APIConnectionTimeoutError) return timedOutError(ctx, error);
  if (error instanceof APIConnectionError) {
    return new ModelError('connection', connectionMessage(ctx, describeCause(error.cause ?? error)), { cause: error });
  }
  if (error instanceof APIError) {
    if (error.status === undefined) return streamErrorToModelError(error.error ?? { message: error.message }, ctx, error);
    return httpErrorToModelError(error.status, asObject(error.error), error.message, error.headers, ctx, error);
  }
  if (error instanceof SyntaxError) {
    return new ModelError(
      'bad_response',
      `${ctx.baseUrl} sent a stream event that is not valid JSON (${error.message}). Check that TETHER_BASE_URL points at an OpenAI-compatible API.`,
      { cause: error },
    );
  }
  if (isNetworkFailure(error)) {
    const message =
      during === 'stream'
        ? `The connection to ${ctx.baseUrl} broke in the middle of the response from model '${ctx.model}' (${describeCause(error)}).`
        : connectionMessage(ctx, describeCause(error));
    return new ModelError('connection', message, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('bad_response', `Unexpected failure talking to ${ctx.baseUrl} (model '${ctx.model}'): ${message}`, {
    cause: error,
  });
}

/**
 * An error the server reported inside a 200 stream: the Responses `error` event or a failed
 * response's `error`, a chat chunk's `error` (OpenRouter), or an SSE `event: error` (Groq). These
 * carry a code or a status of their own rather than an HTTP status.
 */
export function streamErrorToModelError(payload: unknown, ctx: ModelErrorContext, cause?: unknown): ModelError {
  const body = asObject(payload) ?? {};
  const inner = asObject(body.error) ?? body;
  const message = asString(inner.message) ?? (typeof payload === 'string' ? payload : JSON.stringify(payload));
  const code = asString(inner.code) ?? (asNumber(inner.code) !== undefined ? String(inner.code) : undefined);
  const type = asString(inner.type);
  const status = asNumber(inner.status_code) ?? asNumber(inner.status) ?? asNumber(inner.code);
  const label = [code, type !== code ? type : undefined].filter(Boolean).join(', ');
  const where = `${ctx.baseUrl} reported an error in the middle of the response from model '${ctx.model}'`;
  const said = `${message}${label ? ` (${label})` : ''}`;

  const kind = streamErrorKind(code, type, status);
  switch (kind) {
    case 'quota':
      return new ModelError('bad_request', quotaMessage(ctx, said), { cause });
    case 'context':
      return new ModelError('bad_request', `${where}: ${said}. ${CONTEXT_ADVICE}`, { cause });
    case 'tool_generation':
      // The server could not parse the tool call the model wrote; a fresh sample usually can.
      return new ModelError('server', `${where}: the model wrote a tool call the server rejected: ${said}.`, { cause });
    case 'auth':
      return new ModelError('auth', `${where}: ${said}. ${keyAdvice(ctx)}`, { cause });
    case 'bad_request':
      return new ModelError('bad_request', `${where}: ${said}.`, { cause, ...(status ? { status } : {}) });
    case 'rate_limit':
      return new ModelError('rate_limit', `${where}: rate limited: ${said}.`, { cause });
    case 'server':
      return new ModelError('server', `${where}: ${said}.`, { cause });
  }
}

type StreamErrorKind = 'quota' | 'context' | 'tool_generation' | 'auth' | 'bad_request' | 'rate_limit' | 'server';

function streamErrorKind(code: string | undefined, type: string | undefined, status: number | undefined): StreamErrorKind {
  const words = [code, type].filter((w): w is string => w !== undefined);
  if (words.includes('insufficient_quota')) return 'quota';
  if (words.includes('context_length_exceeded')) return 'context';
  if (words.includes('tool_use_failed')) return 'tool_generation';
  if (words.some((w) => /^(invalid_api_key|authentication_error|permission_error|unauthorized)$/.test(w))) return 'auth';
  if (words.some((w) => /rate_limit|^tokens$|^requests$/.test(w)) || status === 429) return 'rate_limit';
  if (words.some((w) => /server_error|overloaded|internal_error|api_error|timeout|unavailable/.test(w))) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status !== undefined && status >= 400 && status < 500) return 'bad_request';
  if (words.includes('invalid_request_error')) return 'bad_request';
  // Anything else that breaks a stream half way is most likely passing; a retry is the cheap test.
  return 'server';
}

const CONTEXT_ADVICE =
  "The conversation no longer fits the model's context window; start a new session or pick a model with a larger window.";

/**
 * An HTTP error status as a ModelError. `body` is the error object itself (OpenAI's `error`, or
 * Anthropic's inner `error`), read for its message, code or type, and param.
 */
export function httpErrorToModelError(
  status: number,
  body: WireObject | undefined,
  sdkMessage: string,
  headers: Headers | undefined,
  ctx: ModelErrorContext,
  cause: unknown,
): ModelError {
  const serverSays = describeServerMessage(body, sdkMessage, status);
  const code = asString(body?.code) ?? asString(body?.type);
  const param = asString(body?.param);
  const retryAfterMs = parseRetryAfter(headers);
  const base = { status, cause, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  const from = `${status} from ${ctx.baseUrl}`;

  if (status === 401) {
    return new ModelError('auth', `${from}: the API key was refused (${serverSays}). ${keyAdvice(ctx)}`, base);
  }
  if (status === 403) {
    return new ModelError(
      'auth',
      `${from}: the API key may not use model '${ctx.model}' (${serverSays}). Check the key's project and permissions, or pick another model with --model.`,
      base,
    );
  }
  if (status === 404) {
    const modelMissing = code === 'model_not_found' || /model/i.test(serverSays);
    const apiHint =
      ctx.api === 'responses' && !modelMissing
        ? ` If this server has no Responses API (/responses), use --api chat (TETHER_API=chat).`
        : '';
    return new ModelError(
      'not_found',
      `${from}: model '${ctx.model}' not found (${serverSays}). List the models it offers with: curl ${modelsUrl(ctx)}` +
        ` , then pass one with --model (or TETHER_MODEL).${apiHint}`,
      base,
    );
  }
  if (status === 429) {
    if (code === 'insufficient_quota') return new ModelError('bad_request', quotaMessage(ctx, serverSays), base);
    return new ModelError('rate_limit', `${from}: rate limited for model '${ctx.model}' (${serverSays}).`, base);
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new ModelError('server', `${from}: the server failed while answering model '${ctx.model}' (${serverSays}).`, base);
  }
  const advice = code === 'context_length_exceeded' ? ` ${CONTEXT_ADVICE}` : '';
  return new ModelError(
    'bad_request',
    `${from}: the request for model '${ctx.model}' was refused: ${serverSays}${param ? ` (parameter: ${param})` : ''}.${advice}`,
    base,
  );
}

function quotaMessage(ctx: ModelErrorContext, said: string): string {
  return `${ctx.baseUrl}: the account behind the API key has no quota left (${said}). Add credit or set TETHER_API_KEY to another key; retrying will not help.`;
}

function keyAdvice(ctx: ModelErrorContext): string {
  const variables = ctx.api === 'anthropic' ? 'TETHER_API_KEY or ANTHROPIC_API_KEY' : 'TETHER_API_KEY';
  return ctx.apiKeySet
    ? `Set ${variables} (or the key in settings) to a key this server accepts.`
    : `No API key was sent: set ${variables} (or the key in settings).`;
}

/** Where the server lists its models: {baseUrl}/models for OpenAI, {root}/v1/models for Anthropic. */
export function modelsUrl(ctx: Pick<ModelErrorContext, 'api' | 'baseUrl'>): string {
  return ctx.api === 'anthropic' ? `${ctx.baseUrl.replace(/\/v1\/?$/, '')}/v1/models` : `${ctx.baseUrl}/models`;
}

function connectionMessage(ctx: ModelErrorContext, reason: string): string {
  return `Could not reach ${ctx.baseUrl} (${reason}). Check that the server is running and that TETHER_BASE_URL is right.`;
}

function describeServerMessage(body: WireObject | undefined, sdkMessage: string, status: number): string {
  const message = asString(body?.message);
  // The message is quoted inside a sentence that ends with its own full stop.
  if (message) return `server said: ${message.replace(/\.\s*$/, '')}`;
  // The SDK's own message starts with the status it already has; the rest is the raw body.
  const rest = sdkMessage.replace(new RegExp(`^${status}\\s*`), '').trim();
  return rest && rest !== 'status code (no body)' ? `server said: ${rest.slice(0, 300)}` : 'no error body';
}

function describeCause(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const code = asString(asObject(cause)?.code);
  if (code === 'ECONNREFUSED') return 'connection refused: nothing is listening there';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return 'the connection was closed by the other side';
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${message}, ${code}` : message;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || asString(asObject(error)?.code) === 'ABORT_ERR');
}

/** undici reports a refused or cut connection as a TypeError ('fetch failed', 'terminated'). */
function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof TypeError && /fetch failed|terminated|network|socket/i.test(error.message)) return true;
  const code = asString(asObject(error)?.code) ?? asString(asObject(error.cause)?.code);
  return code !== undefined && /^(ECONN|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|UND_ERR)/.test(code);
}
