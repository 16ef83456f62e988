import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RemoteRuns } from '../../store/remoteRuns';

/**
 * A runner's token: `tether-runner.<id>.<secret>`, the secret 32 random bytes. The desk keeps the
 * SHA-256 of the secret only, so the token is shown once, when it is made, and a copy of the data
 * folder does not hold one that works. The id finds the row; the hashes are compared in constant time.
 */
const PREFIX = 'tether-runner';
const TOKEN_SHAPE = /^tether-runner\.([A-Za-z0-9_-]{11})\.([A-Za-z0-9_-]{43})$/;

export type TokenCheck =
  { ok: true; runner: string; tokenId: string } | { ok: false; code: 'bad_token' | 'revoked_token'; message: string };

/** Makes and stores a token for the runner `name`; the token itself is returned once and never kept. */
export function makeRunnerToken(store: RemoteRuns, name: string): string {
  const id = randomBytes(8).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  store.addToken({ id, name, secretHash: secretHash(secret) });
  return `${PREFIX}.${id}.${secret}`;
}

/** Who presents `presented`, or why it is refused. Every refusal takes the same hash comparison. */
export function checkRunnerToken(store: RemoteRuns, presented: string | undefined): TokenCheck {
  const match = TOKEN_SHAPE.exec(presented ?? '');
  const row = match ? store.token(match[1]!) : undefined;
  const expected = Buffer.from(row?.secretHash ?? UNKNOWN_HASH, 'hex');
  const given = Buffer.from(secretHash(match?.[2] ?? ''), 'hex');
  const same = timingSafeEqual(expected, given);
  if (!row || !same) {
    return {
      ok: false,
      code: 'bad_token',
      message:
        'The desk does not know this runner token. Make one at the desk (tether desk tokens create NAME, or Settings → Remote runs) and pass it in TETHER_DESK_TOKEN.',
    };
  }
  if (row.revokedAt !== null) {
    return {
      ok: false,
      code: 'revoked_token',
      message: `The token of runner ${row.name} was revoked at the desk on ${new Date(row.revokedAt).toISOString()}. Ask the desk's owner for a new one.`,
    };
  }
  return { ok: true, runner: row.name, tokenId: row.id };
}

function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

// Compared against when no row matches, so an unknown id costs what a wrong secret does.
const UNKNOWN_HASH = createHash('sha256').update('no such token').digest('hex');
