/**
 * The Content-Security-Policy the UI runs under, in the window and in the browser alike: scripts
 * only from the app itself, no plugins, no frames, no forms, and connections only to the host.
 * Inline styles stay allowed because React's `style` props and Monaco need them.
 */
export interface ContentSecurityPolicyOptions {
  /** Where the page may connect besides its own origin (the WebSocket of `tether serve`). */
  connectSrc?: string[];
  /** Vite's dev server injects inline scripts and a WebSocket; allowed in development only. */
  devServer?: string;
}

export function contentSecurityPolicy({ connectSrc = [], devServer }: ContentSecurityPolicyOptions = {}): string {
  const dev = devServer ? [devServer, devServer.replace(/^http/, 'ws')] : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'none'"],
    'script-src': ["'self'", ...(devServer ? ["'unsafe-inline'", devServer] : [])],
    'style-src': ["'self'", "'unsafe-inline'", ...dev.slice(0, 1)],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...connectSrc, ...dev],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}
