import { z } from 'zod';
import { defineTool, ToolError, type Tool, type ToolResult } from './defineTool';
import description from './fetchUrl.txt?raw';
import { looksBinary } from '../workspace/looksBinary';
import { contentKind, mediaType, type ContentKind } from './fetch/contentKind';
import { charsetParameter, decodeText } from './fetch/decodeText';
import type { FetchedPage, FollowRedirect } from './fetch/fetchPage';
import { DEFAULT_MAX_HTML_CHARS, htmlToMarkdown } from './fetch/htmlToMarkdown';
import { defaultLookup, type AllowPrivateHost, type LookupAll } from './fetch/resolveTarget';

export type { AllowPrivateHost, FollowRedirect, LookupAll };

const DEFAULT_MAX_CHARS = 50_000;
const MAX_MAX_CHARS = 200_000;
/** Characters of an HTTP error page shown with its status. */
const ERROR_EXCERPT_CHARS = 2_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;

/** How a fetch_url tool reaches the web; every field has a safe default. */
export interface FetchUrlOptions {
  /**
   * Whether `host` may be reached although it resolves to a non-public address (loopback, private,
   * link-local, metadata...), given the address and its range. Asked for every hop, redirects
   * included. Default: never.
   */
  allowPrivateHosts?: AllowPrivateHost;
  /**
   * Whether a redirect to another host is followed (same host, give or take "www.", always is).
   * Default: never; the model is told the new URL and must ask for it, so the person's rules
   * apply to the host the data really goes to.
   */
  followRedirect?: FollowRedirect;
  /** Resolves a host name to all its addresses. Default: dns.lookup with all: true. */
  lookup?: LookupAll;
  /** The whole fetch, redirects and body included. Default 30 s. */
  timeoutMs?: number;
  /** Decoded body bytes read at most; the rest is cut. Default 5 MB. */
  maxBodyBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
}

const parameters = z.object({
  url: z.string().min(1).describe('The http:// or https:// URL to read.'),
  max_chars: z
    .number()
    .int()
    .min(1)
    .max(MAX_MAX_CHARS)
    .optional()
    .describe(`The most characters of text to return. Default ${DEFAULT_MAX_CHARS}, at most ${MAX_MAX_CHARS}.`),
  reason: z.string().optional().describe('Why you need this page, in a few words; shown to the person who approves the call.'),
});

type FetchUrlArgs = z.infer<typeof parameters>;

/** Builds the fetch_url tool with its network policy; `fetchUrl` is the one with the defaults. */
export function createFetchUrl(options: FetchUrlOptions = {}): Tool<FetchUrlArgs> {
  const fetchOptions = {
    lookup: options.lookup ?? defaultLookup,
    allowPrivateHost: options.allowPrivateHosts ?? (() => false),
    followRedirect: options.followRedirect ?? (() => false),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    // A binary body is refused on its Content-Type alone, so it is never downloaded.
    wantsBody: (_status: number, contentType: string | undefined) => contentKind(contentType) !== 'binary',
  };
  return defineTool({
    name: 'fetch_url',
    description,
    risk: 'egress',
    parameters,
    summarize: ({ url, reason }) => (reason?.trim() ? `Fetch ${url} (${reason.trim()})` : `Fetch ${url}`),
    subject: ({ url }) => ({ kind: 'url', url }),
    taints: ({ url }) => `read ${url} (outside content)`,
    async execute({ url, max_chars = DEFAULT_MAX_CHARS }, ctx) {
      // Loaded with the first fetch: node's http, https and tls are some 5 ms of every run's start otherwise.
      const { fetchPage } = await import('./fetch/fetchPage');
      const page = await fetchPage(url, fetchOptions, ctx.signal);
      if (page.kind === 'redirect') return unfollowedRedirect(page);
      return describePage(page, max_chars, fetchOptions.maxBodyBytes);
    },
  });
}

/** fetch_url with the default policy: public addresses only, same-site redirects only. */
export const fetchUrl = createFetchUrl();

type Page = Extract<FetchedPage, { kind: 'page' }>;

function unfollowedRedirect(page: Extract<FetchedPage, { kind: 'redirect' }>): ToolResult {
  return {
    title: `${page.url.host} redirects to ${page.location.host}`,
    output:
      `URL: ${page.url.href}\nStatus: ${page.status} (redirect)\nLocation: ${page.location.href}\n\n` +
      `${page.url.href} redirects to another host, ${page.location.host}; fetch_url did not follow it, so that the person's ` +
      `rules apply to the host the request would really go to. Call fetch_url with ${page.location.href} if you still need it.`,
    metadata: { url: page.url.href, status: page.status, location: page.location.href, redirects: page.redirects.map((url) => url.href) },
  };
}

function describePage(page: Page, maxChars: number, maxBodyBytes: number): ToolResult {
  const contentType = headerValue(page.headers['content-type']);
  const ok = page.status >= 200 && page.status < 300;
  const rendered = page.bodyRead ? render(page, contentType) : null;
  if (!rendered && ok) {
    const type = mediaType(contentType);
    const what =
      contentKind(contentType) === 'binary'
        ? `is ${type}, a binary type`
        : `is served as ${type || 'an untyped body'}, but its content is binary (it has NUL bytes)`;
    throw new ToolError(
      `fetch_url: ${page.url.href} ${what}; fetch_url only reads text (HTML, plain text, JSON, XML). ` +
        'Look for a text version of the same content (an HTML page, a raw or API URL).',
    );
  }

  const header = [`URL: ${page.url.href}`];
  if (page.redirects.length > 0) header.push(`Redirected from: ${page.redirects.map((url) => url.href).join(' -> ')}`);
  header.push(`Status: ${page.status}${page.statusText ? ` ${page.statusText}` : ''}`);
  header.push(`Content-Type: ${contentType || '(none)'}${rendered?.shownAs ? ` (${rendered.shownAs})` : ''}`);
  if (rendered?.title) header.push(`Title: ${rendered.title}`);
  if (page.truncated)
    header.push(`Note: the body is larger than ${formatBytes(maxBodyBytes)}; only the first ${formatBytes(maxBodyBytes)} were read.`);
  if (rendered?.note) header.push(`Note: ${rendered.note}`);

  const text = rendered?.text ?? `(the ${mediaType(contentType)} body was not read)`;
  const limit = ok ? maxChars : Math.min(maxChars, ERROR_EXCERPT_CHARS);
  const shown = cut(text, limit);
  let body = shown || '(empty body)';
  if (shown.length < text.length) {
    body += ok
      ? `\n\n[Cut at ${formatCount(shown.length)} of ${formatCount(text.length)} characters. ${
          maxChars < MAX_MAX_CHARS
            ? `Call fetch_url again with a larger max_chars (up to ${formatCount(MAX_MAX_CHARS)}) to read more.`
            : 'Look for a more specific page for the rest.'
        }]`
      : `\n\n[The first ${formatCount(shown.length)} of ${formatCount(text.length)} characters.]`;
  }
  const metadata = {
    url: page.url.href,
    status: page.status,
    contentType,
    chars: text.length,
    shownChars: shown.length,
    bodyTruncated: page.truncated,
    redirects: page.redirects.map((url) => url.href),
  };
  const output = `${header.join('\n')}\n\n${body}`;
  if (!ok) {
    const status = `${page.status}${page.statusText ? ` ${page.statusText}` : ''}`;
    return {
      title: `HTTP ${page.status} from ${page.url.host}`,
      output: `${output}\n\nfetch_url: ${page.url.href} answered ${status}; ${statusAdvice(page.status)}`,
      isError: true,
      metadata,
    };
  }
  const path = page.url.pathname === '/' ? '' : page.url.pathname;
  return { title: `Fetched ${page.url.host}${path} (${formatCount(text.length)} chars)`, output, metadata };
}

interface Rendered {
  text: string;
  /** How the body was turned into text, for the header. */
  shownAs?: string;
  title?: string;
  note?: string;
}

/** The body as text, or null when it is binary. */
function render(page: Page, contentType: string): Rendered | null {
  const declared = contentKind(contentType);
  const charset = charsetParameter(contentType);
  const kind: ContentKind = declared === 'unknown' ? sniff(page.body) : declared;
  if (kind === 'binary') return null;
  const utf16 =
    /^utf-?16/i.test(charset ?? '') || (page.body[0] === 0xff && page.body[1] === 0xfe) || (page.body[0] === 0xfe && page.body[1] === 0xff);
  if (!utf16 && looksBinary(page.body)) return null;
  const { text } = decodeText(page.body, charset, kind);
  const sniffed = declared === 'unknown' ? ', guessed from the body' : '';
  if (kind === 'html') {
    const { title, markdown, cut } = htmlToMarkdown(text, page.url);
    const note = cut
      ? `the page is very long; only its first ${formatCount(DEFAULT_MAX_HTML_CHARS)} characters of HTML (without scripts and styles) were converted.`
      : undefined;
    return { text: markdown, shownAs: `converted to Markdown${sniffed}`, title, ...(note ? { note } : {}) };
  }
  if (kind === 'json') {
    try {
      return { text: JSON.stringify(JSON.parse(text), null, 2), shownAs: `pretty-printed JSON${sniffed}` };
    } catch (error) {
      const why = page.truncated ? 'it was cut at the size limit' : (error as Error).message;
      return { text, note: `the body is not valid JSON (${why}); shown as sent.` };
    }
  }
  return { text };
}

/** What a body without a usable Content-Type most likely is. */
function sniff(body: Buffer): ContentKind {
  if (looksBinary(body)) return 'binary';
  const head = body.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  if (/^(?:\ufeff)?(?:<!doctype html|<html|<head|<body|<!--)/.test(head)) return 'html';
  if (/^(?:\ufeff)?<\?xml/.test(head)) return 'xml';
  if (/^[[{]/.test(head)) return 'json';
  return 'text';
}

/** Cuts text at `limit` characters without splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = /[\uD800-\uDBFF]/.test(text[limit - 1] ?? '') ? limit - 1 : limit;
  return text.slice(0, end);
}

function statusAdvice(status: number): string {
  if (status === 401 || status === 403)
    return 'the page needs a login or refuses automated readers; fetch_url cannot sign in. Look for a public source.';
  if (status === 404 || status === 410) return "the page does not exist. Check the URL, or find the page from the site's index.";
  if (status === 429) return 'the server is rate-limiting; wait before trying again, or use another source.';
  if (status >= 500) return 'the server failed; try again later or another source.';
  return 'read the excerpt above to see why.';
}

function headerValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
