/** How fetch_url turns a body into text, decided by its media type. */
export type ContentKind = 'html' | 'json' | 'xml' | 'text' | 'binary' | 'unknown';

/** application/* types that are text a model can read as it is. */
const TEXT_APPLICATION_TYPES = new Set([
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-typescript',
  'application/x-sh',
  'application/x-shellscript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-toml',
  'application/sql',
  'application/graphql',
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'application/x-python',
  'application/x-ruby',
  'application/x-perl',
  'application/x-php',
  'application/x-httpd-php',
  'application/x-tex',
  'application/x-latex',
  'application/x-diff',
  'application/x-patch',
  'application/csv',
  'application/x-subrip',
  'application/rtf',
]);

/** The media type without its parameters, lower-cased: "text/html; charset=utf-8" -> "text/html". */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * What kind of body a Content-Type announces. 'unknown' (no type, or a meaningless one) means the
 * bytes decide; 'binary' is refused without reading the body.
 */
export function contentKind(contentType: string | undefined): ContentKind {
  const type = mediaType(contentType);
  if (type === '' || type === '*/*' || type === 'unknown/unknown') return 'unknown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type === 'text/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type)) return 'text';
  return 'binary';
}
