import { z } from 'zod';
import { ModelApi } from './conversation';

/**
 * What the welcome and Settings exchange with main to set up a model: "Test connection" (main asks
 * the server for its models) and the local servers main found. Main makes every request; the page
 * never reaches a model server itself, and a key goes from the page to main only, never back.
 */

/** An address the person typed: http or https only, so a test can never be pointed at file: or anything else. */
export const HttpUrl = z.url({ protocol: /^https?$/, error: 'Type a full http:// or https:// address.' }).max(2000);

export const ConnectionTestRequest = z.object({
  baseUrl: HttpUrl,
  api: ModelApi,
  /**
   * A key typed and not saved yet. Without one, main uses the key it holds only when `baseUrl` is the
   * saved server's own address, or the named provider's own variable (GLOO_API_KEY for Gloo…): a stored
   * key is never sent to an address the person has only typed.
   */
  apiKey: z.string().min(1).max(4000).optional(),
});
export type ConnectionTestRequest = z.infer<typeof ConnectionTestRequest>;

/** Whether a model can call tools: only what the server's listing says; `unknown` when it says nothing. */
export const ToolSupport = z.enum(['yes', 'no', 'unknown']);
export type ToolSupport = z.infer<typeof ToolSupport>;

export const ListedModel = z.object({
  id: z.string(),
  tools: ToolSupport,
  /** Which field said so, or a nuance ("not trained for tool use"). */
  toolsNote: z.string().optional(),
  contextWindow: z.number().int().positive().optional(),
});
export type ListedModel = z.infer<typeof ListedModel>;

/** What failed, in words a person can act on. */
export const ConnectionFailureKind = z.enum([
  /** The host name does not resolve. */
  'dns',
  /** Nothing listens at that address and port. */
  'refused',
  'timeout',
  /** The TLS handshake failed (a bad or self-signed certificate, http spoken to https). */
  'tls',
  /** 401/403: the key is missing or refused. */
  'unauthorized',
  /** 404: the path is wrong (a missing /v1, say). */
  'not_found',
  /** It answered, but not with JSON (a web page, a proxy's login). */
  'not_json',
  /** It answered JSON that is not a model listing. */
  'not_a_listing',
  /** It sends the request to another address: not followed, so a key never goes where it was not typed. */
  'redirect',
  /** Any other HTTP status. */
  'http',
  /** The connection broke some other way. */
  'network',
]);
export type ConnectionFailureKind = z.infer<typeof ConnectionFailureKind>;

export const ConnectionTestResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** The listing's address, as asked. */
    url: z.string(),
    models: z.array(ListedModel),
    /** Whether a key was sent (never which). */
    sentKey: z.boolean(),
  }),
  z.object({
    ok: z.literal(false),
    url: z.string(),
    failure: ConnectionFailureKind,
    status: z.number().int().optional(),
    /** What failed and what to do, naming the address. */
    message: z.string(),
    sentKey: z.boolean(),
  }),
]);
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>;

/** A model server found running on this machine (Ollama on 127.0.0.1:11434, LM Studio on 127.0.0.1:1234). */
export const LocalServerView = z.object({
  id: z.enum(['ollama', 'lmstudio']),
  name: z.string(),
  baseUrl: z.string(),
  /** The model ids it listed (at most 50). */
  models: z.array(z.string()),
});
export type LocalServerView = z.infer<typeof LocalServerView>;

/** The provider key variables set in main's environment: names only, never values. */
export const KeyVariable = z.enum(['TETHER_API_KEY', 'GLOO_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY']);
export type KeyVariable = z.infer<typeof KeyVariable>;
