/**
 * A sentence for a request that failed below HTTP (connection, TLS, protocol), naming the URL,
 * what went wrong and what to try. `url` is the address that failed, which after a redirect is not
 * the one the model asked for.
 */
export function networkErrorMessage(error: unknown, url: URL): string {
  const code = errorCode(error);
  const detail = error instanceof Error && error.message ? error.message : String(error);
  const where = `${url.hostname}${url.port ? `:${url.port}` : ''}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `fetch_url: the connection to ${where} was refused (ECONNREFUSED): nothing is listening there. Check the URL and its port.`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `fetch_url: ${where} closed the connection before answering (${code}) while fetching ${url.href}. Try again later; if it keeps happening the server refuses this request.`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return `fetch_url: ${where} cannot be reached from this machine (${code}); the network or the host is down. Try again later.`;
    case 'ETIMEDOUT':
      return `fetch_url: connecting to ${where} timed out (ETIMEDOUT). Try again later or another source.`;
    case 'UNSUPPORTED_ENCODING':
      return `fetch_url: ${url.href}: ${detail}. Try another URL for the same content.`;
    default:
      break;
  }
  if (code && isTlsCode(code)) {
    return (
      `fetch_url: the secure (TLS) connection to ${where} failed (${code}: ${detail}), so nothing was read from ${url.href}. ` +
      'fetch_url does not skip certificate checks; use another source, or http:// only if the site really serves it.'
    );
  }
  if (code?.startsWith('HPE_')) {
    return `fetch_url: ${where} did not answer with valid HTTP (${code}: ${detail}). Check the scheme (http:// or https://) and the port.`;
  }
  return `fetch_url: fetching ${url.href} failed (${code ? `${code}: ` : ''}${detail}). Check the URL, or try again later.`;
}

function isTlsCode(code: string): boolean {
  return /CERT|SSL|TLS|HANDSHAKE|ISSUER|SIGNATURE|ALTNAME|EPROTO/.test(code);
}

/** The error's code; connection attempts to several addresses fail with an AggregateError of them. */
function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = errorCode(inner);
      if (found) return found;
    }
  }
  const cause = (error as { cause?: unknown }).cause;
  return cause && cause !== error ? errorCode(cause) : undefined;
}
