import { describe, expect, it } from 'vitest';
import { isAppUrl } from './appUrl';

describe('isAppUrl', () => {
  const file = 'file:///opt/Tether/resources/app/out/renderer/index.html';

  it('accepts the very file the window loaded, whatever its fragment or query', () => {
    expect(isAppUrl(file, file)).toBe(true);
    expect(isAppUrl(`${file}#/sessions/s1`, file)).toBe(true);
    expect(isAppUrl(`${file}?x=1`, file)).toBe(true);
  });

  it('refuses any other file, host or scheme', () => {
    expect(isAppUrl('file:///tmp/index.html', file)).toBe(false);
    expect(isAppUrl('file:///opt/Tether/resources/app/out/renderer/other.html', file)).toBe(false);
    expect(isAppUrl('file://evil/opt/Tether/resources/app/out/renderer/index.html', file)).toBe(false);
    expect(isAppUrl('https://evil.example/index.html', file)).toBe(false);
    expect(isAppUrl('about:blank', file)).toBe(false);
    expect(isAppUrl('not a url', file)).toBe(false);
  });

  it('accepts the dev server by origin only', () => {
    const dev = 'http://localhost:5173/';
    expect(isAppUrl('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://localhost.evil.example:5173/', dev)).toBe(false);
    expect(isAppUrl('https://localhost:5173/', dev)).toBe(false);
  });
});
