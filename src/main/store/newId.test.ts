import { describe, expect, it } from 'vitest';
import { newId } from './newId';

describe('newId', () => {
  it('is 16 characters of lower-case base32 without look-alike letters', () => {
    expect(newId()).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{16}$/);
  });

  it('sorts by creation time', () => {
    const times = [0, 1, 31, 32, 1_700_000_000_000, 1_700_000_000_001, 4_000_000_000_000];
    const ids = times.map((time) => newId(time));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs between ids made in the same millisecond', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newId(1_700_000_000_000)));
    expect(ids.size).toBe(200);
  });
});
