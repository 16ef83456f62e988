import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './contentSecurityPolicy';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split('; ').map((part) => {
      const [name, ...sources] = part.split(' ');
      return [name as string, sources];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  it('allows scripts from the app only, and nothing by default', () => {
    const policy = directives(contentSecurityPolicy({ connectSrc: ['ws://127.0.0.1:4000'] }));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4000']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
  });

  it('loosens scripts and connections for the dev server only', () => {
    const strict = contentSecurityPolicy();
    expect(directives(strict).get('script-src')).toEqual(["'self'"]);
    const dev = directives(contentSecurityPolicy({ devServer: 'http://localhost:5173' }));
    expect(dev.get('script-src')).toEqual(["'self'", "'unsafe-inline'", 'http://localhost:5173']);
    expect(dev.get('connect-src')).toEqual(["'self'", 'http://localhost:5173', 'ws://localhost:5173']);
  });
});
