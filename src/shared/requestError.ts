import { RequestFailure } from './contract';

/**
 * A request the host refused or could not finish; `message` is written for the person. The one
 * request error of main and renderer: a handler throws it with a code (see RequestFailure), the
 * dispatcher sends the code and message, and the renderer's clients reject with it again.
 */
export class RequestError extends Error {
  override readonly name = 'RequestError';

  constructor(
    readonly code: RequestFailure['code'],
    message: string,
  ) {
    super(message);
  }

  /** Whatever a host rejected with (a `RequestFailure`, an Error, anything), as a RequestError. */
  static from(reason: unknown): RequestError {
    if (reason instanceof RequestError) return reason;
    const failure = RequestFailure.safeParse(reason);
    if (failure.success) return new RequestError(failure.data.code, failure.data.message);
    return new RequestError('failed', reason instanceof Error ? reason.message : String(reason));
  }
}
