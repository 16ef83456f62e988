/**
 * The reason a host aborts its runs when it closes. A run that is waiting for the person then stops
 * without writing anything, so the request is still pending in the log and is asked again, under the
 * same id, when Tether starts next. A run doing anything else ends as a normal stop.
 */
export class ShuttingDown extends Error {
  override readonly name = 'ShuttingDown';
  constructor() {
    super('Tether closed while this session was working; send a message to continue.');
  }
}

export function isShuttingDown(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof ShuttingDown;
}
