import { createRequire } from 'node:module';
import type TurndownService from 'turndown';

/**
 * turndown (and domino, its DOM) loads with the first page converted: tens of milliseconds that a
 * run which never fetches a page should not pay at start. Loaded with require so the conversion stays synchronous.
 */
let Turndown: typeof TurndownService | undefined;
function turndown(): typeof TurndownService {
  Turndown ??= createRequire(import.meta.url)('turndown') as typeof TurndownService;
  return Turndown;
}

/**
 * The slice of a DOM node the rules read. The node build of turndown parses with domino; its
 * types name the browser's HTMLElement, which this project's Node typings do not declare.
 */
interface DomNode {
  nodeName: string;
  textContent: string | null;
  parentNode: DomNode | null;
  getAttribute(name: string): string | null;
  /** domino answers undefined, not null, when nothing matches. */
  querySelector(selector: string): DomNode | null | undefined;
  childNodes: ArrayLike<DomNode>;
}

type Replacement = (content: string, node: DomNode) => string;

/** Elements that carry no reading text: scripts, chrome, embedded media, form controls. */
const DROPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'NAV',
  'SVG',
  'IFRAME',
  'TEMPLATE',
  'CANVAS',
  'OBJECT',
  'EMBED',
  'AUDIO',
  'VIDEO',
  'MAP',
  'BUTTON',
  'SELECT',
  'INPUT',
  'TEXTAREA',
  'LINK',
  'META',
  'BASE',
]);

/** Readable Markdown for an HTML page, and its <title>. */
export interface HtmlPage {
  title: string;
  markdown: string;
  /** The HTML (after dropping scripts, styles and the like) was longer than maxHtmlChars and was cut. */
  cut: boolean;
}

/**
 * Parsing is the cost (domino builds a full DOM, about 1 ms per KB), and a model reads at most
 * 200,000 characters, so no more HTML than this is converted by default. Scripts, styles, inline SVG
 * and comments, often most of a page's bytes, are removed before counting.
 */
export const DEFAULT_MAX_HTML_CHARS = 1_000_000;

const NOISE_OPENER = /<!--|<(script|style|noscript|template|svg)\b/gi;

/**
 * Converts an HTML page to Markdown a model can read: headings, paragraphs, links (made absolute
 * against the page's URL or its <base>), lists, fenced code blocks with their language, and tables
 * as pipe tables. Scripts, styles, navigation, hidden elements and media are dropped. Markdown
 * characters in text are not escaped: the reader is a model, and `snake_case` should stay as written.
 */
export function htmlToMarkdown(page: string, pageUrl: URL, maxHtmlChars = DEFAULT_MAX_HTML_CHARS): HtmlPage {
  const base = baseUrl(page, pageUrl);
  let html = withoutNoise(page);
  const cut = html.length > maxHtmlChars;
  if (cut) {
    // End before the tag that straddles the limit, so no half tag leaks into the text.
    const end = html.lastIndexOf('<', maxHtmlChars);
    html = html.slice(0, end > 0 ? end : maxHtmlChars);
  }
  let title = '';
  const service = new (turndown())({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.escape = (text: string) => text;

  const rule = (name: string, filter: (node: DomNode) => boolean, replacement: Replacement) =>
    service.addRule(name, {
      filter: filter as unknown as TurndownService.Filter,
      replacement: replacement as unknown as TurndownService.ReplacementFunction,
    });

  rule(
    'title',
    (node) => node.nodeName === 'TITLE',
    (_content, node) => {
      title ||= collapse(node.textContent ?? '');
      return '';
    },
  );
  rule(
    'link',
    (node) => node.nodeName === 'A',
    (content, node) => {
      const text = content.trim();
      const href = node.getAttribute('href')?.trim();
      if (!text) return '';
      if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return content;
      const target = absolute(href, base);
      return target ? `[${text}](${linkDestination(target)})` : content;
    },
  );
  rule(
    'image',
    (node) => node.nodeName === 'IMG',
    (_content, node) => {
      const alt = collapse(node.getAttribute('alt') ?? '');
      const src = node.getAttribute('src')?.trim();
      if (!alt) return '';
      if (!src || /^data:/i.test(src)) return alt;
      const target = absolute(src, base);
      return target ? `![${alt.replace(/[[\]]/g, '\\$&')}](${linkDestination(target)})` : alt;
    },
  );
  rule(
    'codeBlock',
    (node) => node.nodeName === 'PRE',
    (_content, node) => codeBlock(node),
  );
  rule(
    'listItem',
    (node) => node.nodeName === 'LI',
    (content, node) => listItem(content, node),
  );
  rule(
    'tableCell',
    (node) => node.nodeName === 'TH' || node.nodeName === 'TD',
    (content, node) => {
      const flat = content.replace(/\s*\n+\s*/g, ' ').trim();
      if (!isDataTable(tableOf(node))) return `\n\n${content}\n\n`;
      // A spanning cell is followed by empty ones, so every row has as many cells as the header says.
      return ` ${flat.replace(/\|/g, '\\|')} |${' |'.repeat(span(node) - 1)}`;
    },
  );
  rule(
    'tableRow',
    (node) => node.nodeName === 'TR',
    (content, node) => {
      const table = tableOf(node);
      if (!isDataTable(table)) return `\n\n${content}\n\n`;
      const separator = table?.querySelector('tr') === node ? `\n|${' --- |'.repeat(cellCount(node))}` : '';
      return `\n|${content}${separator}\n`;
    },
  );
  rule(
    'tableSection',
    (node) => ['THEAD', 'TBODY', 'TFOOT'].includes(node.nodeName),
    (content) => content,
  );
  rule(
    'table',
    (node) => node.nodeName === 'TABLE',
    (content) => `\n\n${content.replace(/^\n+|\n+$/g, '')}\n\n`,
  );
  // Added last so it is tried first: turndown's remove() would lose to any rule for the same tag.
  rule(
    'dropped',
    (node) => DROPPED.has(node.nodeName.toUpperCase()) || isHidden(node),
    () => '',
  );

  const markdown = service
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown, cut };
}

/**
 * The page without comments and script, style, noscript, template and svg elements. One pass, each
 * closer searched from where its opener is, so a page full of unclosed openers stays linear: with
 * no closer the rest of the page is dropped, which is what the HTML tokenizer makes of it too.
 */
function withoutNoise(page: string): string {
  const kept: string[] = [];
  let from = 0;
  NOISE_OPENER.lastIndex = 0;
  for (let opener = NOISE_OPENER.exec(page); opener; opener = NOISE_OPENER.exec(page)) {
    kept.push(page.slice(from, opener.index));
    const closer = opener[1] ? new RegExp(`</${opener[1]}\\s*>`, 'gi') : /-->/g;
    closer.lastIndex = opener.index + opener[0].length;
    const end = closer.exec(page);
    if (!end) return kept.join('');
    from = end.index + end[0].length;
    NOISE_OPENER.lastIndex = from;
  }
  kept.push(page.slice(from));
  return kept.join('');
}

function isHidden(node: DomNode): boolean {
  return (
    node.getAttribute('hidden') !== null ||
    node.getAttribute('aria-hidden') === 'true' ||
    /display\s*:\s*none/i.test(node.getAttribute('style') ?? '')
  );
}

function baseUrl(html: string, pageUrl: URL): URL {
  const href = /<base\s[^>]*?href\s*=\s*["']?([^"'\s>]+)/i.exec(html.slice(0, 65_536))?.[1];
  return (href && absolute(href, pageUrl)) || pageUrl;
}

function absolute(href: string, base: URL): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

function linkDestination(url: URL): string {
  const text = url.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
  return /\s/.test(text) ? `<${text}>` : text;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Every <pre> as a fenced block, whether or not a <code> sits inside, its language taken from the
 * usual class names; the fence is longer than any backtick run in the code.
 */
function codeBlock(node: DomNode): string {
  const code = (node.textContent ?? '').replace(/^\n/, '').replace(/\n+$/, '');
  const inner = node.querySelector('code');
  const classes = `${inner?.getAttribute('class') ?? ''} ${node.getAttribute('class') ?? ''}`;
  const language = /(?:^|\s)(?:language|lang|highlight-source)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
}

function listItem(content: string, node: DomNode): string {
  const parent = node.parentNode;
  let prefix = '- ';
  if (parent?.nodeName === 'OL') {
    const start = Number(parent.getAttribute('start') ?? '1');
    const siblings = Array.from(parent.childNodes).filter((child) => child.nodeName === 'LI');
    prefix = `${(Number.isFinite(start) ? start : 1) + siblings.indexOf(node)}. `;
  }
  const body = content
    .replace(/^\n+/, '')
    .replace(/\n+$/, '\n')
    .replace(/\n(?!$)/g, `\n${' '.repeat(prefix.length)}`);
  return `${prefix}${body.replace(/\n$/, '')}\n`;
}

function tableOf(node: DomNode): DomNode | null {
  for (let current = node.parentNode; current; current = current.parentNode) if (current.nodeName === 'TABLE') return current;
  return null;
}

const dataTables = new WeakMap<DomNode, boolean>();

/**
 * A table of data becomes a pipe table; one used for layout (tables inside it, or marked as
 * presentation) is read as the blocks it holds, since a pipe table cannot hold them.
 */
function isDataTable(table: DomNode | null): boolean {
  if (!table) return false;
  let known = dataTables.get(table);
  if (known === undefined) {
    const role = table.getAttribute('role');
    known = role !== 'presentation' && role !== 'none' && !table.querySelector('table');
    dataTables.set(table, known);
  }
  return known;
}

function cellCount(row: DomNode): number {
  let count = 0;
  for (const child of Array.from(row.childNodes)) {
    if (child.nodeName === 'TH' || child.nodeName === 'TD') count += span(child);
  }
  return Math.max(1, count);
}

function span(cell: DomNode): number {
  const colspan = Math.floor(Number(cell.getAttribute('colspan') ?? '1'));
  return Number.isFinite(colspan) ? Math.min(Math.max(colspan, 1), 100) : 1;
}
