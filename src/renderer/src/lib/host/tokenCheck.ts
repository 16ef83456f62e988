import { TOKEN_CHECK_PATH } from '../../../../shared/hostProtocol';

/** What `tether serve` says of a token: it holds, it is refused (the server restarted), or nobody answered. */
export type TokenCheck = 'valid' | 'refused' | 'unreachable';

/**
 * Asks the server at `origin` whether `token` still holds. The token goes in a header, never in the
 * address, so no log or history keeps it; a page of another origin cannot send that header (the
 * server answers no preflight) nor read the answer.
 */
export async function checkServeToken(origin: string, token: string, fetcher: typeof fetch = fetch): Promise<TokenCheck> {
  let response: Response;
  try {
    response = await fetcher(`${origin}${TOKEN_CHECK_PATH}`, {
      headers: { Authorization: `Bearer ${token}` },
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
    });
  } catch {
    return 'unreachable';
  }
  if (response.status === 204) return 'valid';
  if (response.status === 401) return 'refused';
  return 'unreachable';
}
