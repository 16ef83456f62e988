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

/** The page's token: the one in its address (taken, as {@link takeTokenFromAddress} does), else the one kept for the tab. */
export function takeSessionToken(address: PageAddress, storage: TokenStorage | null, replaceAddress: (url: string) => void): string | null {
  const taken = takeTokenFromAddress(address, storage, replaceAddress);
  if (taken !== null) return taken;
  try {
    return storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * The token in the address's fragment, if there is one: kept for the tab's reloads and taken out of
 * the address (the rest of the fragment stays). Also how a tab takes the address of a restarted
 * server pasted into it, which changes only the fragment and so reloads nothing.
 */
export function takeTokenFromAddress(
  address: PageAddress,
  storage: TokenStorage | null,
  replaceAddress: (url: string) => void,
): string | null {
  const fragment = address.hash.replace(/^#/, '');
  const match = TOKEN_IN_HASH.exec(fragment);
  if (!match) return null;
  const token = match[2] as string;
  try {
    storage?.setItem(STORAGE_KEY, token);
  } catch {
    // Storage refused (a private window's quota, a policy): the token still works until a reload.
  }
  const rest = (fragment.slice(0, match.index) + fragment.slice(match.index + match[0].length)).replace(/^&|&$/g, '');
  // Replacing the entry the paste made leaves the token in no entry of the tab's history.
  replaceAddress(`${address.pathname}${address.search}${rest === '' ? '' : `#${rest}`}`);
  return token;
}
