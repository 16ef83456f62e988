/**
 * The address a link may be opened at in the person's browser, or null when it must not be: only
 * http(s), and never with a user name or password, which can dress one host up as another.
 */
export function externalLinkTarget(href: string): URL | null {
  if (href.length > 4096) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  if (url.hostname === '') return null;
  return url;
}
