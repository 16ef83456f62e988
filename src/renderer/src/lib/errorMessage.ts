/**
 * The text to show a person for a failed request. Hosts reject with the core's own message (see
 * RequestFailure in the contract); anything else is reported as it is rather than swallowed.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  if (typeof error === 'string' && error) return error;
  return 'The request failed without saying why; try again, and check the core is still running.';
}
