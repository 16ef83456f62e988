/**
 * The token `tether serve` printed, taken from the page's fragment (`#token=...`) and kept in
 * sessionStorage, so a reload of the tab still works once the address bar no longer shows it.
 * It is removed from the address at once: a fragment is never sent to a server, but a screenshot,
 * a shared link or the history would carry it.
 */

export interface PageAddress {
  hash: string;
  pathname: string;
  search: string;
}

export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const STORAGE_KEY = 'tether.token';
const TOKEN_IN_HASH = /(^|&)token=([A-Za-z0-9_-]{16,512})(?=&|$)/;

export function takeSessionToken(address: PageAddress, storage: TokenStorage | null, replaceAddress: (url: string) => void): string | null {
  const fragment = address.hash.replace(/^#/, '');
  const match = TOKEN_IN_HASH.exec(fragment);
  if (match) {
    const token = match[2] as string;
    try {
      storage?.setItem(STORAGE_KEY, token);
    } catch {
      // Storage refused (a private window's quota, a policy): the token still works until a reload.
    }
    const rest = (fragment.slice(0, match.index) + fragment.slice(match.index + match[0].length)).replace(/^&|&$/g, '');
    replaceAddress(`${address.pathname}${address.search}${rest === '' ? '' : `#${rest}`}`);
    return token;
  }
  try {
    return storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}
