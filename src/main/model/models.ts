import type { ModelConfig } from './config';
import { modelsUrl, toModelError } from './errors';
import { errorContext } from './openaiClient';
import { ModelError, type ModelInfo } from './provider';
import { asArray, asNumber, asObject, asString, type WireObject } from './wire';

/**
 * What a server's model listing (GET {baseUrl}/models, or Anthropic's GET /v1/models) says. The
 * OpenAI shape has only ids; some servers and gateways add whether a model can call tools and how
 * long its context is, under names of their own, and those are read where present.
 */

export interface ListModelsOptions {
  signal?: AbortSignal;
  /** Default 10 s: the listing is a courtesy check and must not hold up a session. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** One model entry and, when it says it cannot use tools, which field said so. */
export interface ListedModel {
  info: ModelInfo;
  noToolsBecause?: string;
}

export async function listModels(config: ModelConfig, options: ListModelsOptions = {}): Promise<ModelInfo[]> {
  return (await fetchListing(config, options)).map((entry) => entry.info);
}

/**
 * Refuses a model whose server says outright that it cannot call tools; Tether is nothing without
 * them. A listing that fails, or that does not mention the model or its tool support, lets the
 * session go ahead: the first request will tell. Returns what the listing said, if anything.
 */
export async function checkToolSupport(config: ModelConfig, options: ListModelsOptions = {}): Promise<ModelInfo | undefined> {
  let listing: ListedModel[];
  try {
    listing = await fetchListing(config, options);
  } catch (error) {
    if (error instanceof ModelError && error.kind === 'aborted') throw error;
    return undefined;
  }
  const entry = listing.find((model) => model.info.id === config.model);
  if (entry?.info.supportsTools === false) {
    throw new ModelError(
      'unsupported',
      `Model ${config.model} at ${config.baseUrl} says it cannot use tools (${entry.noToolsBecause}); Tether needs tool calls. Pick another model.`,
    );
  }
  return entry?.info;
}

async function fetchListing(config: ModelConfig, options: ListModelsOptions): Promise<ListedModel[]> {
  if (config.api === 'anthropic') return fetchAnthropicListing(config, options);
  const ctx = errorContext(config);
  const url = `${config.baseUrl}/models`;
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 10_000), ...(options.signal ? [options.signal] : [])];
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      headers: { accept: 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    if (options.signal?.aborted) throw new ModelError('aborted', `Listing the models at ${config.baseUrl} was stopped.`);
    throw toModelError(error, ctx);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new ModelError(
      response.status === 401 || response.status === 403 ? 'auth' : response.status === 404 ? 'not_found' : 'server',
      `GET ${url} answered ${response.status}: ${text.slice(0, 300)}`,
      { status: response.status },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ModelError('bad_response', `GET ${url} did not answer JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const object = asObject(body);
  const entries = Array.isArray(body) ? body : asArray(object?.data ?? object?.models);
  return entries.map((entry) => readModelEntry(asObject(entry))).filter((entry): entry is ListedModel => entry !== undefined);
}

/** One entry of a listing, in any of the shapes servers use; undefined when it names no model. */
export function readModelEntry(entry: WireObject | undefined): ListedModel | undefined {
  if (!entry) return undefined;
  const id = asString(entry.id) ?? asString(entry.name) ?? asString(entry.model);
  if (!id) return undefined;
  const info: ModelInfo = { id };
  const contextWindow = asNumber(entry.context_length) ?? asNumber(entry.context_window) ?? asNumber(entry.max_context_length);
  if (contextWindow !== undefined) info.contextWindow = contextWindow;

  if (typeof entry.supports_tools === 'boolean') {
    info.supportsTools = entry.supports_tools;
    return info.supportsTools ? { info } : { info, noToolsBecause: 'supports_tools: false' };
  }
  // Ollama (/api/show) and LM Studio list what a model can do; a list without tools means none.
  const capabilities = entry.capabilities;
  if (Array.isArray(capabilities) && capabilities.length > 0 && capabilities.every((c) => typeof c === 'string')) {
    info.supportsTools = capabilities.includes('tools') || capabilities.includes('tool_use');
    return info.supportsTools ? { info } : { info, noToolsBecause: 'its capabilities do not include "tools"' };
  }
  // LM Studio marks embedding models, which cannot chat at all.
  if (entry.type === 'embedding' || entry.type === 'embeddings') {
    info.supportsTools = false;
    return { info, noToolsBecause: 'it is an embedding model' };
  }
  // OpenRouter lists the request parameters each model accepts; no "tools" there means none.
  const parameters = entry.supported_parameters;
  if (Array.isArray(parameters) && parameters.every((p) => typeof p === 'string')) {
    info.supportsTools = parameters.includes('tools');
    return info.supportsTools ? { info } : { info, noToolsBecause: 'its supported_parameters do not include "tools"' };
  }
  return { info };
}

/**
 * Anthropic's listing, through its SDK (its own auth headers, and pages of `data` with has_more).
 * It says nothing about tools, which every Claude model can use; it does give the input window.
 */
async function fetchAnthropicListing(config: ModelConfig, options: ListModelsOptions): Promise<ListedModel[]> {
  const ctx = errorContext(config);
  // Loaded here, not at start: only an Anthropic listing needs the SDK.
  const [{ createAnthropicClient }, { anthropicErrorToModelError }] = await Promise.all([
    import('./anthropicClient'),
    import('./anthropicErrors'),
  ]);
  const client = createAnthropicClient(config, options.fetch ? { fetch: options.fetch } : {});
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 10_000), ...(options.signal ? [options.signal] : [])];
  const listed: ListedModel[] = [];
  try {
    for await (const entry of client.models.list({ limit: 1000 }, { signal: AbortSignal.any(signals) })) {
      const read = readModelEntry(asObject(entry));
      if (!read) continue;
      const window = asNumber(asObject(entry)?.max_input_tokens);
      if (window !== undefined) read.info.contextWindow = window;
      listed.push(read);
    }
  } catch (error) {
    if (options.signal?.aborted) throw new ModelError('aborted', `Listing the models at ${config.baseUrl} was stopped.`);
    const failure = anthropicErrorToModelError(error, ctx, 'request');
    throw new ModelError(failure.kind, `GET ${modelsUrl(ctx)} failed: ${failure.message}`, failure.options);
  }
  return listed;
}
