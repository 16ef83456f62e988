import type { ModelFailureKind } from '../../../../shared/events';
import type { EndingView, RetryingView } from '../../../../shared/session';

/** "Retrying (2/5) in 4 s": the next try, out of how many, and the seconds left before it. */
export function retryLabel(retrying: RetryingView, remainingMs: number): string {
  const which = retrying.maxAttempts !== undefined ? `(${retrying.nextAttempt}/${retrying.maxAttempts})` : `(try ${retrying.nextAttempt})`;
  const seconds = Math.ceil(Math.max(0, remainingMs) / 1000);
  return seconds > 0 ? `Retrying ${which} in ${seconds} s` : `Retrying ${which} now…`;
}

const modelHeadline: Record<ModelFailureKind, string> = {
  connection: 'Could not reach the model server',
  auth: 'The model server refused the API key',
  not_found: 'The model or its address was not found',
  rate_limit: 'The model server is rate limiting',
  server: 'The model server failed',
  bad_request: 'The model server refused the request',
  bad_response: 'The server did not answer as a model API',
  unsupported: 'This model cannot use tools',
  aborted: 'The model request was stopped',
};

/** What failed, in a few words, above the model layer's full message. */
export function endingHeadline(ending: Pick<EndingView, 'status' | 'modelFailure'>): string {
  if (ending.modelFailure)
    return modelHeadline[ending.modelFailure.kind] + (ending.modelFailure.status ? ` (${ending.modelFailure.status})` : '');
  switch (ending.status) {
    case 'failed':
      return 'The session failed';
    case 'max_steps':
      return 'Stopped at the step limit';
    case 'aborted':
      return 'Stopped';
  }
}
