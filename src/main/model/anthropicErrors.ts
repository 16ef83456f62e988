import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import {
  abortedError,
  httpErrorToModelError,
  streamErrorToModelError,
  timedOutError,
  toModelError,
  type ModelErrorContext,
} from './errors';
import { ModelError } from './provider';
import { asObject } from './wire';

/**
 * Whatever went wrong talking to an Anthropic server, as a ModelError of the same kinds the OpenAI
 * providers give: the @anthropic-ai/sdk errors are its own classes, and its error body is wrapped
 * one level deeper (`{type: 'error', error: {type, message}, request_id}`), but a 529 overloaded is
 * a 5xx like any other (retried), a 429 honours retry-after, and mid-stream `error` events map by
 * their type (overloaded_error and api_error retried, invalid_request_error final...).
 */
export function anthropicErrorToModelError(error: unknown, ctx: ModelErrorContext, during: 'request' | 'stream'): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError) return abortedError(ctx, error);
  if (error instanceof APIConnectionTimeoutError) return timedOutError(ctx, error);
  if (error instanceof APIConnectionError) {
    // The SDK wraps the fetch failure; the shared reader knows how to describe that.
    return toModelError(error.cause ?? error, ctx, during);
  }
  if (error instanceof APIError) {
    const body = asObject(error.error);
    if (error.status === undefined) return streamErrorToModelError(body ?? { message: error.message }, ctx, error);
    const inner = asObject(body?.error) ?? body;
    return httpErrorToModelError(error.status, inner, error.message, error.headers, ctx, error);
  }
  return toModelError(error, ctx, during);
}
