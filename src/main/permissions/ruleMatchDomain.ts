/**
 * The specifier of a fetch_url rule: `domain:docs.example.com` is that host only;
 * `domain:*.example.com` is every subdomain of example.com at any depth, but NOT example.com itself
 * (a wildcard says "something goes here"; write a second rule for the apex if you want it).
 * Hosts compare without case, without a trailing dot, and without the port.
 */

export interface DomainPattern {
  text: string;
  /** The host, lower case; for a wildcard, the part after `*.`. */
  host: string;
  subdomains: boolean;
}

export class DomainPatternError extends Error {
  override readonly name = 'DomainPatternError';
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;

export function parseDomainPattern(specifier: string): DomainPattern {
  const text = specifier.trim();
  const colon = text.indexOf(':');
  const prefix = colon < 0 ? '' : text.slice(0, colon);
  if (prefix !== 'domain') {
    const shown = colon < 0 ? 'no prefix' : `the prefix "${prefix}:"`;
    throw new DomainPatternError(`it has ${shown}; fetch_url rules name a host as domain:<host>, e.g. fetch_url(domain:docs.example.com)`);
  }
  let host = normalizeHost(text.slice(colon + 1));
  let subdomains = false;
  if (host.startsWith('*.')) {
    subdomains = true;
    host = host.slice(2);
  }
  if (host === '*' || host === '') {
    throw new DomainPatternError('it names no host; write the bare tool name fetch_url to match every URL');
  }
  if (host.includes('*')) {
    throw new DomainPatternError('a * may only stand first, as in domain:*.example.com');
  }
  if (!HOST.test(host)) {
    throw new DomainPatternError(`"${host}" is not a host name (no scheme, path or port: just docs.example.com)`);
  }
  return { text, host, subdomains };
}

export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

export function matchDomain(pattern: DomainPattern, host: string): boolean {
  const h = normalizeHost(host);
  if (!pattern.subdomains) return h === pattern.host;
  return h.endsWith(`.${pattern.host}`);
}
