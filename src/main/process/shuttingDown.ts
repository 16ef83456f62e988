/**
 * The reason a host aborts its runs when it closes. A run that is waiting for the person then stops
 * without writing anything, so the request is still pending in the log and is asked again, under the
 * same id, when Tether starts next. A run doing anything else ends as a normal stop. It sits in the
 * base layer, beside the run's other stops and clocks (timeoutHold.ts), because the approval gate
 * (permissions/) reads it as well as the loop and the hosts.
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
