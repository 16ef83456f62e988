import { describe, expect, it } from 'vitest';
import { takeSessionToken, takeTokenFromAddress, type TokenStorage } from '../../src/renderer/src/lib/host/sessionToken';

const token = 'q3Yb8sYw0iF0t-Xq9xq0bS0_bYc8nKp1m2PvX6u7bXM';

function memoryStorage(): TokenStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('takeSessionToken', () => {
  it('takes the token from the fragment, keeps it for reloads and removes it from the address', () => {
    const storage = memoryStorage();
    const replaced: string[] = [];
    expect(takeSessionToken({ pathname: '/', search: '', hash: `#token=${token}` }, storage, (url) => replaced.push(url))).toBe(token);
    expect(replaced).toEqual(['/']);
    expect([...storage.items.values()]).toEqual([token]);

    // The reload: the address no longer carries it.
    expect(takeSessionToken({ pathname: '/', search: '', hash: '' }, storage, (url) => replaced.push(url))).toBe(token);
    expect(replaced).toEqual(['/']);
  });

  it('leaves the rest of the fragment and the query in place', () => {
    const replaced: string[] = [];
    takeSessionToken({ pathname: '/', search: '?x=1', hash: `#view=diff&token=${token}&file=a` }, memoryStorage(), (url) =>
      replaced.push(url),
    );
    expect(replaced).toEqual(['/?x=1#view=diff&file=a']);
  });

  it('prefers a token in the address over an older stored one', () => {
    const storage = memoryStorage();
    storage.setItem('tether.token', 'old-token-from-an-earlier-run');
    expect(takeSessionToken({ pathname: '/', search: '', hash: `#token=${token}` }, storage, () => {})).toBe(token);
    expect(takeSessionToken({ pathname: '/', search: '', hash: '' }, storage, () => {})).toBe(token);
  });

  it('has no token for a page opened without one, and ignores a malformed one', () => {
    const replaced: string[] = [];
    expect(takeSessionToken({ pathname: '/', search: '', hash: '' }, memoryStorage(), (url) => replaced.push(url))).toBeNull();
    expect(
      takeSessionToken({ pathname: '/', search: '', hash: '#token=<script>' }, memoryStorage(), (url) => replaced.push(url)),
    ).toBeNull();
    expect(replaced).toEqual([]);
  });

  it('still works when storage refuses', () => {
    const refusing: TokenStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(takeSessionToken({ pathname: '/', search: '', hash: `#token=${token}` }, refusing, () => {})).toBe(token);
    expect(takeSessionToken({ pathname: '/', search: '', hash: '' }, refusing, () => {})).toBeNull();
    expect(takeSessionToken({ pathname: '/', search: '', hash: '' }, null, () => {})).toBeNull();
  });

  it('takes a new token pasted into the tab (a fragment change) and leaves the place the fragment names', () => {
    const storage = memoryStorage();
    storage.setItem('tether.token', 'A'.repeat(43));
    const replaced: string[] = [];
    expect(
      takeTokenFromAddress({ pathname: '/', search: '', hash: `#session=s1&token=${token}` }, storage, (url) => replaced.push(url)),
    ).toBe(token);
    expect(replaced).toEqual(['/#session=s1']);
    expect([...storage.items.values()]).toEqual([token]);
  });

  it('finds no new token in a fragment without one, and touches neither the address nor what is kept', () => {
    const storage = memoryStorage();
    storage.setItem('tether.token', token);
    const replaced: string[] = [];
    expect(takeTokenFromAddress({ pathname: '/', search: '', hash: '#session=s1' }, storage, (url) => replaced.push(url))).toBeNull();
    expect(takeTokenFromAddress({ pathname: '/', search: '', hash: '#token=short' }, storage, (url) => replaced.push(url))).toBeNull();
    expect(replaced).toEqual([]);
    expect([...storage.items.values()]).toEqual([token]);
  });
});
