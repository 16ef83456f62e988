import { events } from '../../shared/contract';
import { isEventName, type WireEvent } from '../../shared/hostProtocol';

/**
 * An event as a host sends it, held to the contract first: a name the contract lacks, or a payload
 * its schema refuses, is a bug in the core and is logged, never shown to the UI half-formed.
 */
export function checkedEvent(name: string, payload: unknown, log: (message: string, error?: unknown) => void): WireEvent | null {
  if (!isEventName(name)) {
    log(`dropped an event "${name}" that is not in the contract`);
    return null;
  }
  const parsed = events[name].safeParse(payload);
  if (!parsed.success) {
    log(`dropped a malformed ${name} event`, parsed.error);
    return null;
  }
  return { event: name, payload: parsed.data };
}
