import type { ConversationItem, ModelApi, Usage } from '../../shared/conversation';
import type { ModelFailureKind } from '../../shared/events';

/**
 * The one shape every model API is turned into. A provider streams `ModelEvent`s for one request
 * and ends with exactly one `done`, or throws a `ModelError`. It never retries: `withRetries`
 * (retry.ts) does that for all of them, so the loop sees one policy.
 */

/** A tool as the model is told about it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  /** The system prompt. */
  instructions: string;
  /** The conversation so far, tool outputs already trimmed for the model. */
  items: ConversationItem[];
  tools: ToolSpec[];
  signal: AbortSignal;
  /**
   * Names the conversation for the server's prompt cache (the session id): OpenAI routes requests
   * with the same key to the same cache. Anthropic needs no key; it caches at cache_control marks.
   */
  cacheKey?: string;
}

export type ModelEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  | {
      type: 'done';
      /** What the model produced, in order: reasoning, text, tool calls. */
      items: ConversationItem[];
      usage: Usage;
      /** The provider's own word for why it stopped ('completed', 'tool_calls', 'length', ...). */
      stopReason: string;
    };

export type ModelErrorKind =
  /** 401/403: the key is missing, wrong or lacks access. Final. */
  | 'auth'
  /** 404: no such model or endpoint. Final. */
  | 'not_found'
  /** 400/422: the server refused the request as written. Final. */
  | 'bad_request'
  /** 429. Retried, honouring retry-after. */
  | 'rate_limit'
  /** 5xx, or an error event the server sent mid-stream that says it is overloaded. Retried. */
  | 'server'
  /** The connection failed or closed before the response was complete. Retried. */
  | 'connection'
  /** The server sent something that is not the API it claims to speak. Retried once, then final. */
  | 'bad_response'
  /** The model cannot do what the session needs (no tool support). Final. */
  | 'unsupported'
  /** The request was aborted by us. */
  | 'aborted';

// The log records these kinds when a run fails (session.finished's modelFailure): the two lists must stay one.
type SameKinds = [ModelErrorKind] extends [ModelFailureKind] ? ([ModelFailureKind] extends [ModelErrorKind] ? true : false) : false;
const sameKinds: SameKinds = true;
void sameKinds;

export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly options: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }

  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'server' || this.kind === 'connection' || this.kind === 'bad_response';
  }
}

/** The wire formats Tether speaks: OpenAI Responses, Chat Completions, Anthropic Messages. */
export type { ModelApi } from '../../shared/conversation';

export interface ModelProvider {
  /** How the session's log names this API. */
  readonly api: ModelApi;
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}

/** What the server's model listing says about one model, where it says anything. */
export interface ModelInfo {
  id: string;
  /** false only when the server says so explicitly (some gateways publish `supports_tools`). */
  supportsTools?: boolean;
  contextWindow?: number;
}
