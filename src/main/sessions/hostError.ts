import type { RequestFailure } from '../../shared/contract';

/** A refusal a host reports to the UI with its code (see RequestFailure in the contract). */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(
    readonly code: RequestFailure['code'],
    message: string,
  ) {
    super(message);
  }
}
