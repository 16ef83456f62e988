import net from 'node:net';
import { classifyAddress, type AddressRange } from './classifyAddress';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (dns.lookup with all: true by default). */
export type LookupAll = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** What the policy is told about a host that resolved to a non-public address. */
export interface PrivateAddress {
  /** The address that is not public. */
  address: string;
  range: AddressRange;
}

/** Says whether `host` may be reached although it resolves to a non-public address. */
export type AllowPrivateHost = (host: string, address: PrivateAddress) => boolean;

/** A URL whose host has been resolved and checked: requests go to these addresses and no others. */
export interface Target {
  url: URL;
  /** The host name without IPv6 brackets, as DNS, TLS (SNI) and certificate checks see it. */
  host: string;
  addresses: readonly ResolvedAddress[];
}

export type Resolved =
  | { ok: true; target: Target }
  | { ok: false; reason: 'refused'; host: string; address: PrivateAddress; literal: boolean }
  | { ok: false; reason: 'dns'; host: string; code: string; message: string };

export const defaultLookup: LookupAll = async (hostname) => {
  // node:dns is loaded with the first page fetched, not with every run.
  const dns = await import('node:dns');
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * Resolves the URL's host once and checks every address it has. A host with one non-public address
 * among public ones is refused as a whole: that mix is the shape of a rebinding attack, not of a
 * real site. The caller then connects only to the addresses returned here (see pinnedGet), so a
 * second, different DNS answer can never be used.
 */
export async function resolveTarget(url: URL, lookup: LookupAll, allowPrivate: AllowPrivateHost, signal: AbortSignal): Promise<Resolved> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = net.isIP(host);
  let addresses: readonly ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await abortable(lookup(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
      return { ok: false, reason: 'dns', host, code, message: (error as Error).message };
    }
    if (addresses.length === 0) return { ok: false, reason: 'dns', host, code: 'ENODATA', message: 'no addresses' };
  }
  for (const { address } of addresses) {
    const range = classifyAddress(address);
    if (range && !allowPrivate(host, { address, range })) {
      return { ok: false, reason: 'refused', host, address: { address, range }, literal: literal !== 0 };
    }
  }
  return { ok: true, target: { url, host, addresses } };
}

/** dns.lookup cannot be cancelled; this stops waiting for it when the call is stopped or times out. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
