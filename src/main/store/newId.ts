// Crockford's base32 in lower case: no i, l, o or u, so an id read aloud or typed is hard to get wrong.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10;
const RANDOM_CHARS = 6;

/**
 * A short id that sorts by creation time (16 characters: 10 of milliseconds, 6 random), for
 * sessions, projects and rules. Short enough to type after `--session`; the random part keeps two
 * processes creating at the same millisecond apart.
 */
export function newId(now: number = Date.now()): string {
  let time = '';
  let rest = Math.max(0, Math.floor(now));
  for (let i = 0; i < TIME_CHARS; i++) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  let random = '';
  // Web Crypto's generator, which node has ready: importing node:crypto for six bytes was some 2.5 ms
  // of `tether sessions`, which opens the store and makes no id.
  for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(RANDOM_CHARS))) random += ALPHABET[byte % 32];
  return time + random;
}
