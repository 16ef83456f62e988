import type { IncomingHttpHeaders } from 'node:http';
import { ToolError } from '../defineTool';
import { describeRange } from './classifyAddress';
import { networkErrorMessage } from './networkErrorMessage';
import { pinnedGet } from './pinnedGet';
import { resolveTarget, type AllowPrivateHost, type LookupAll, type Resolved, type Target } from './resolveTarget';

/** Says whether a redirect from one host to another may be followed without asking. */
export type FollowRedirect = (from: URL, to: URL) => boolean;

export interface FetchPageOptions {
  lookup: LookupAll;
  allowPrivateHost: AllowPrivateHost;
  followRedirect: FollowRedirect;
  maxRedirects: number;
  maxBodyBytes: number;
  timeoutMs: number;
  /** Whether the body of a response with this status and content type is worth reading at all. */
  wantsBody(status: number, contentType: string | undefined): boolean;
}

export type FetchedPage =
  | {
      kind: 'page';
      /** Where the body came from, after redirects. */
      url: URL;
      /** Every URL that redirected, in order. */
      redirects: URL[];
      status: number;
      statusText: string;
      headers: IncomingHttpHeaders;
      /** Empty when wantsBody said no. */
      body: Buffer;
      bodyRead: boolean;
      /** The body was longer than maxBodyBytes and was cut there. */
      truncated: boolean;
    }
  | {
      /** A redirect to another host that followRedirect did not allow: the model must ask for it itself. */
      kind: 'redirect';
      url: URL;
      location: URL;
      status: number;
      redirects: URL[];
    };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `address`, following redirects by hand so that every hop passes the same checks as the
 * first (scheme, no credentials, every address public unless allowed) before anything is sent to
 * it. Whatever goes wrong becomes a ToolError that names the URL that failed.
 */
export async function fetchPage(address: string, options: FetchPageOptions, stop: AbortSignal): Promise<FetchedPage> {
  const start = parseUrl(address);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([stop, timeout]);
  let current = start;
  try {
    let target = await resolveOrRefuse(start, null, options, signal);
    const redirects: URL[] = [];
    for (;;) {
      current = target.url;
      const response = await pinnedGet(target, signal);
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.status) && location) {
        response.discard();
        const next = redirectTarget(location, current);
        redirects.push(current);
        if (redirects.length > options.maxRedirects) {
          const chain = [...redirects, next].map((url) => url.href).join(' -> ');
          throw new ToolError(
            `fetch_url: ${start.href} redirected more than ${options.maxRedirects} times (${chain}); stopped. ` +
              'The site may be in a redirect loop; try the last address directly or another URL.',
          );
        }
        const refusal = unsupportedUrl(next);
        if (refusal) throw new ToolError(`fetch_url: ${current.href} redirected to ${next.href}, ${refusal}`);
        const nextTarget = await resolveOrRefuse(next, current, options, signal);
        if (!sameSite(current, next) && !options.followRedirect(current, next)) {
          return { kind: 'redirect', url: current, location: next, status: response.status, redirects: redirects.slice(0, -1) };
        }
        target = nextTarget;
        continue;
      }
      const page = {
        kind: 'page' as const,
        url: current,
        redirects,
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      };
      if (!options.wantsBody(response.status, response.headers['content-type'])) {
        response.discard();
        return { ...page, body: Buffer.alloc(0), bodyRead: false, truncated: false };
      }
      const { bytes, truncated } = await response.readBody(options.maxBodyBytes);
      return { ...page, body: bytes, bodyRead: true, truncated };
    }
  } catch (error) {
    if (stop.aborted) throw new ToolError(`fetch_url: stopped before ${current.href} finished loading.`);
    if (timeout.aborted) {
      throw new ToolError(
        `fetch_url: ${current.href} did not finish loading within ${formatSeconds(options.timeoutMs)}; stopped. ` +
          'The server is slow or not answering; try again later or another source.',
      );
    }
    if (error instanceof ToolError) throw error;
    throw new ToolError(networkErrorMessage(error, current));
  }
}

function parseUrl(address: string): URL {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw new ToolError(
      `fetch_url: "${address}" is not a valid URL; pass an absolute http:// or https:// URL, e.g. https://example.com/page.`,
    );
  }
  const refusal = unsupportedUrl(url);
  if (refusal) throw new ToolError(`fetch_url: ${url.href} ${refusal.replace(/^which /, '')}`);
  return url;
}

/** Why fetch_url will not request this URL at all, as a "which ..." clause; null when it may. */
function unsupportedUrl(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `which uses the ${url.protocol.replace(/:$/, '')}: scheme; fetch_url only fetches http:// and https:// URLs (read local files with read_file).`;
  }
  if (url.username || url.password) {
    return 'which carries a user name or password; fetch_url does not send credentials. Remove them from the URL.';
  }
  return null;
}

function redirectTarget(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new ToolError(`fetch_url: ${from.href} redirected to "${location}", which is not a valid URL; nothing more was fetched.`);
  }
}

async function resolveOrRefuse(url: URL, from: URL | null, options: FetchPageOptions, signal: AbortSignal): Promise<Target> {
  const resolved = await resolveTarget(url, options.lookup, options.allowPrivateHost, signal);
  if (resolved.ok) return resolved.target;
  throw new ToolError(refusalMessage(resolved, url, from));
}

function refusalMessage(resolved: Exclude<Resolved, { ok: true }>, url: URL, from: URL | null): string {
  const subject = from ? `${from.href} redirected to ${url.href} which` : url.href;
  if (resolved.reason === 'dns') {
    const why =
      resolved.code === 'ENOTFOUND' || resolved.code === 'ENODATA'
        ? 'no such host; check the spelling of the URL'
        : `the DNS lookup failed (${resolved.message}); try again later`;
    return `fetch_url: ${subject} has a host, ${resolved.host}, that cannot be resolved (${resolved.code}): ${why}.`;
  }
  const { address, range } = resolved.address;
  const what = resolved.literal ? `is ${describeRange(range)} (${address})` : `resolves to ${address}, ${describeRange(range)}`;
  return (
    `fetch_url: ${subject} ${what}; refused. fetch_url only reaches public internet addresses, unless the person allows ` +
    `this host with a rule such as fetch_url(domain:${resolved.host}).`
  );
}

/** Same host, give or take "www.": a redirect the person's rule for the first host already covers. */
function sameSite(a: URL, b: URL): boolean {
  const bare = (url: URL) => url.hostname.replace(/^www\./, '');
  return bare(a) === bare(b);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
