import { z } from 'zod';
import { events, RequestFailure, requests, type EventName, type RequestName } from './contract';

/**
 * How the hosts carry the contract: Electron's IPC channel names, and the JSON text frames of
 * `tether serve`'s WebSocket. Both ends of each import this file, so they cannot drift apart.
 */

/** Whether `name` is a request of the contract (and not, say, `constructor` or `__proto__`). */
export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(requests, name);
}

/** Whether `name` is an event of the contract. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** The IPC channel of one request; one per request, so main can refuse a name it never bound. */
export function ipcRequestChannel(name: RequestName): `tether:${RequestName}` {
  return `tether:${name}`;
}

/** The one IPC channel every event travels on, as a `WireEvent`. */
export const IPC_EVENT_CHANNEL = 'tether:event';

/** Where `tether serve` upgrades to a WebSocket. */
export const WS_PATH = '/ws';

/** The subprotocol the server selects; the client offers it beside its token. */
export const WS_PROTOCOL = 'tether.v1';

/**
 * The client offers `tether.token.<token>` as a second subprotocol. A header, unlike a query
 * string, stays out of URLs and logs, and the server can refuse with 403 before it upgrades.
 */
export const WS_TOKEN_PROTOCOL_PREFIX = 'tether.token.';

/**
 * Where a page asks `tether serve` whether its token still holds (`Authorization: Bearer <token>`):
 * 204 it does, 401 it does not (the server restarted with a new one). A browser does not say why a
 * WebSocket was refused; this tells a restarted server from a dropped network.
 */
export const TOKEN_CHECK_PATH = '/token-check';

/** The largest frame the server reads; a bigger one closes the connection (1009). */
export const WS_MAX_FRAME_BYTES = 1024 * 1024;

const RequestId = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** A call from the client. The host checks `name` against `requests` and `input` against its schema. */
export const WireRequest = z.object({
  id: RequestId,
  name: z.string().max(200),
  input: z.unknown().optional(),
});
export type WireRequest = z.infer<typeof WireRequest>;

/**
 * A host's answer to one request. Errors travel as data because neither IPC nor JSON keeps an
 * error's class or code.
 */
export const Reply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), output: z.unknown().optional() }),
  z.object({ ok: z.literal(false), error: RequestFailure }),
]);
export type Reply = z.infer<typeof Reply>;

/** A `Reply` on the WebSocket, with the id of the request it answers. */
export const WireResponse = z.discriminatedUnion('ok', [
  z.object({ id: RequestId, ok: z.literal(true), output: z.unknown().optional() }),
  z.object({ id: RequestId, ok: z.literal(false), error: RequestFailure }),
]);
export type WireResponse = z.infer<typeof WireResponse>;

/** An event pushed to every client. */
export const WireEvent = z.object({ event: z.string(), payload: z.unknown() });
export type WireEvent = z.infer<typeof WireEvent>;

/** Anything the server sends. */
export const ServerMessage = z.union([WireResponse, WireEvent]);
