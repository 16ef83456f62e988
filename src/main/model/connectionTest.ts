import type { ModelApi } from '../../shared/conversation';
import type { ConnectionFailureKind, ConnectionTestResult, ListedModel, ToolSupport } from '../../shared/modelSetup';
import { anthropicRoot } from './anthropicClient';
import { readModelEntry } from './models';
import { asArray, asNumber, asObject, asString, type WireObject } from './wire';

/**
 * "Test connection": asks a model server for its models (GET {base}/models, or Anthropic's
 * GET {root}/v1/models with its own headers) and says what failed in words a person can act on:
 * the name does not resolve, nothing listens, the key was refused, the path is wrong, it timed out,
 * it answered a web page. It follows a redirect only to the same address (scheme, host and port),
 * so a key is never carried to a host the person did not type.
 */

export interface ConnectionTestOptions {
  /** Default 10 s. */
  timeoutMs?: number;
  /** A server on this machine whose own API says more about each model than /models does. */
  local?: 'ollama' | 'lmstudio';
  fetch?: typeof fetch;
}

/** The version of the Messages API the Anthropic SDK sends; its listing wants it too. */
const ANTHROPIC_VERSION = '2023-06-01';
const MAX_REDIRECTS = 3;
/** Ollama's /api/show is one request per model: a listing longer than this is marked unknown past it. */
const MAX_DETAIL_REQUESTS = 40;

export async function testConnection(
  target: { baseUrl: string; api: ModelApi; apiKey?: string | undefined },
  options: ConnectionTestOptions = {},
): Promise<ConnectionTestResult> {
  const url = listingUrl(target.baseUrl, target.api);
  const sentKey = target.apiKey !== undefined;
  const fail = (failure: ConnectionFailureKind, message: string, status?: number): ConnectionTestResult => ({
    ok: false,
    url,
    failure,
    message,
    sentKey,
    ...(status !== undefined ? { status } : {}),
  });
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.apiKey !== undefined) {
    if (target.api === 'anthropic') headers['x-api-key'] = target.apiKey;
    else headers.authorization = `Bearer ${target.apiKey}`;
  }
  if (target.api === 'anthropic') headers['anthropic-version'] = ANTHROPIC_VERSION;

  const timeoutMs = options.timeoutMs ?? 10_000;
  const answered = await getSameOrigin(url, headers, timeoutMs, options.fetch ?? fetch);
  if ('error' in answered) return fail(...describeFetchFailure(answered.error, url, timeoutMs));
  if ('redirectTo' in answered) {
    return fail(
      'redirect',
      `${url} sends requests on to ${answered.redirectTo}. Tether does not follow it to another address (the key would go with it); if that is the right server, use its address as the base URL.`,
      answered.status,
    );
  }
  const { response, text } = answered;
  if (!response.ok) return fail(...describeStatus(response.status, text, url, target.api, sentKey));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const looksLikePage = /^\s*</.test(text);
    return fail(
      'not_json',
      `${url} answered, but not with JSON (${looksLikePage ? 'a web page' : JSON.stringify(text.slice(0, 80))}). This is not a model API's address: check the path (OpenAI-compatible servers usually end in /v1).`,
    );
  }
  const entries = listingEntries(body);
  if (!entries) {
    return fail('not_a_listing', `${url} answered JSON, but not a list of models. Check that this address is the API's base URL.`);
  }
  const models = entries.map(toListedModel).filter((model): model is ListedModel => model !== undefined);
  if (options.local) await addLocalDetails(models, new URL(url).origin, options.local, headers, timeoutMs, options.fetch ?? fetch);
  return { ok: true, url, models, sentKey };
}

/** Where the listing is: {base}/models for the OpenAI APIs, {root}/v1/models for Anthropic (its SDK's own root). */
export function listingUrl(baseUrl: string, api: ModelApi): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return api === 'anthropic' ? `${anthropicRoot(base)}/v1/models?limit=1000` : `${base}/models`;
}

type Answered = { response: Response; text: string } | { redirectTo: string; status: number } | { error: unknown };

/** GET, following redirects only while they stay on the same scheme, host and port. */
async function getSameOrigin(url: string, headers: Record<string, string>, timeoutMs: number, fetcher: typeof fetch): Promise<Answered> {
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetcher(current, { headers, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, current);
        if (next.origin !== new URL(current).origin || hop >= MAX_REDIRECTS) return { redirectTo: next.href, status: response.status };
        current = next.href;
        continue;
      }
      return { response, text: await response.text() };
    }
  } catch (error) {
    return { error };
  }
}

function describeFetchFailure(error: unknown, url: string, timeoutMs: number): [ConnectionFailureKind, string] {
  const host = safeHost(url);
  if (isTimeout(error)) {
    return [
      'timeout',
      `${url} did not answer within ${Math.round(timeoutMs / 1000)} s. The server may be down, overloaded, or behind a firewall that drops the connection.`,
    ];
  }
  const code = errorCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return ['dns', `The host name ${host} does not resolve (DNS). Check the address for a typo, or your network.`];
  }
  if (code === 'ECONNREFUSED') {
    return ['refused', `Nothing is listening at ${new URL(url).host} (connection refused). Is the server running, and on that port?`];
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return ['timeout', `Connecting to ${new URL(url).host} timed out. The server may be down or a firewall drops the connection.`];
  }
  if (code !== undefined && (/CERT|SSL|TLS/.test(code) || code === 'EPROTO')) {
    return [
      'tls',
      `The secure connection to ${host} failed (${code}). The certificate may be self-signed or expired, or the server speaks plain http.`,
    ];
  }
  const detail = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return ['network', `The connection to ${new URL(url).host} failed: ${detail}${code ? ` (${code})` : ''}.`];
}

function describeStatus(
  status: number,
  text: string,
  url: string,
  api: ModelApi,
  sentKey: boolean,
): [ConnectionFailureKind, string, number] {
  const said = serverMessage(text);
  const saying = said ? ` The server said: ${said}` : '';
  if (status === 401 || status === 403) {
    const key = sentKey
      ? status === 401
        ? 'The API key was refused (401): check it, or type another.'
        : 'The API key may not list models here (403): check its permissions.'
      : `No API key was sent, and this server wants one (${status}): type the key.`;
    return ['unauthorized', `${key}${saying}`, status];
  }
  if (status === 404) {
    const hint =
      api === 'anthropic'
        ? 'an Anthropic server lists models at /v1/models under its root'
        : 'OpenAI-compatible servers usually end in /v1';
    return ['not_found', `${url} does not exist on this server (404): the path is probably wrong (${hint}).${saying}`, status];
  }
  return ['http', `${url} answered ${status}.${saying || ' It may be down or overloaded; try again in a moment.'}`, status];
}

function serverMessage(text: string): string | undefined {
  try {
    const body = asObject(JSON.parse(text));
    const error = asObject(body?.error);
    const message = asString(error?.message) ?? asString(body?.error) ?? asString(body?.message) ?? asString(body?.detail);
    return message?.slice(0, 300);
  } catch {
    const trimmed = text.trim();
    return trimmed && !trimmed.startsWith('<') ? trimmed.slice(0, 200) : undefined;
  }
}

/** `data` (OpenAI, Anthropic), `models` (Ollama's and LM Studio's own APIs), or a bare array. */
function listingEntries(body: unknown): readonly unknown[] | undefined {
  if (Array.isArray(body)) return body;
  const object = asObject(body);
  if (Array.isArray(object?.data)) return object.data;
  if (Array.isArray(object?.models)) return object.models;
  return undefined;
}

function toListedModel(entry: unknown): ListedModel | undefined {
  const object = asObject(entry);
  const read = readModelEntry(object);
  if (!read) return undefined;
  const window = read.info.contextWindow ?? asNumber(object?.max_input_tokens);
  return {
    id: read.info.id,
    ...toolSupport(read.info.supportsTools, read.noToolsBecause, object),
    ...(window !== undefined && Number.isInteger(window) && window > 0 ? { contextWindow: window } : {}),
  };
}

function toolSupport(
  supportsTools: boolean | undefined,
  because: string | undefined,
  entry: WireObject | undefined,
): { tools: ToolSupport; toolsNote?: string } {
  if (supportsTools === false) return { tools: 'no', ...(because ? { toolsNote: because } : {}) };
  if (supportsTools === true) return { tools: 'yes' };
  // LM Studio's own API: a model not trained for tools can still be sent them, in a generic format.
  const trained = asObject(entry?.capabilities)?.trained_for_tool_use;
  if (trained === true) return { tools: 'yes', toolsNote: 'trained for tool use' };
  if (trained === false) return { tools: 'unknown', toolsNote: 'not trained for tool use: calls may fail' };
  return { tools: 'unknown' };
}

/**
 * Ollama's and LM Studio's /models say nothing about tools; their own APIs do. Asked only of a server
 * found on this machine, at the origin already being tested, and never fatal: what they do not say stays unknown.
 */
async function addLocalDetails(
  models: ListedModel[],
  origin: string,
  local: 'ollama' | 'lmstudio',
  headers: Record<string, string>,
  timeoutMs: number,
  fetcher: typeof fetch,
): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  const unknown = models.filter((model) => model.tools === 'unknown' && model.toolsNote === undefined);
  try {
    if (local === 'ollama') {
      await Promise.all(
        unknown.slice(0, MAX_DETAIL_REQUESTS).map(async (model) => {
          const response = await fetcher(`${origin}/api/show`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ model: model.id }),
            redirect: 'error',
            signal,
          });
          if (!response.ok) return;
          const read = readModelEntry({ id: model.id, capabilities: asObject(await response.json())?.capabilities });
          if (read?.info.supportsTools !== undefined)
            Object.assign(model, toolSupport(read.info.supportsTools, read.noToolsBecause, undefined));
        }),
      );
      return;
    }
    const response = await fetcher(`${origin}/api/v1/models`, { headers, redirect: 'error', signal });
    if (!response.ok) return;
    const byKey = new Map<string, WireObject>();
    for (const entry of asArray(asObject(await response.json())?.models)) {
      const object = asObject(entry);
      const key = asString(object?.key);
      if (object && key) byKey.set(key, object);
    }
    for (const model of unknown) {
      const entry = byKey.get(model.id);
      if (!entry) continue;
      const read = readModelEntry({ ...entry, id: model.id, capabilities: undefined });
      Object.assign(model, toolSupport(read?.info.supportsTools, read?.noToolsBecause, entry));
    }
  } catch {
    // Details are a courtesy: the listing itself answered, and that is what the test is about.
  }
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof Error && (error.name === 'TimeoutError' || (error.name === 'AbortError' && /timeout/i.test(String(error.message))))
  );
}

function errorCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  const nested = cause instanceof Error ? cause.cause : undefined;
  return asString(asObject(cause)?.code) ?? asString(asObject(nested)?.code) ?? asString(asObject(error)?.code);
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
