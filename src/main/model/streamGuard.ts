import { ModelError } from './provider';

/**
 * One abort signal for a model request that fires when the caller aborts or when the stream goes
 * quiet for too long. A silent stream is otherwise indistinguishable from a slow one, and would hang
 * the session for good; after the idle limit it becomes a retryable 'connection' error.
 */
export class StreamGuard {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private wentIdle = false;
  private readonly onOuterAbort = () => this.controller.abort(this.outer.reason);

  constructor(
    private readonly outer: AbortSignal,
    private readonly idleMs: number,
  ) {
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Data arrived: the idle clock starts again. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.wentIdle = true;
      this.controller.abort(new Error('idle'));
    }, this.idleMs);
    this.timer.unref?.();
  }

  /** The error to report when the request was cut short by us rather than by the server, if it was. */
  interruption(baseUrl: string): ModelError | undefined {
    if (this.outer.aborted) return new ModelError('aborted', `The request to ${baseUrl} was stopped.`);
    if (this.wentIdle) {
      return new ModelError(
        'connection',
        `${baseUrl} sent nothing for ${Math.round(this.idleMs / 1000)} s in the middle of a response; the connection was given up.`,
      );
    }
    return undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }
}
