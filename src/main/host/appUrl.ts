/**
 * Whether `candidate` is the app's own page: for a file the very same file (whatever its fragment
 * or query), for the dev server the same origin. Everything else is someone else's page.
 */
export function isAppUrl(candidate: string, appUrl: string): boolean {
  let url: URL;
  let app: URL;
  try {
    url = new URL(candidate);
    app = new URL(appUrl);
  } catch {
    return false;
  }
  if (app.protocol === 'file:') return url.protocol === 'file:' && url.host === app.host && url.pathname === app.pathname;
  return (app.protocol === 'http:' || app.protocol === 'https:') && url.origin === app.origin;
}
