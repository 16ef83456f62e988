import { expect } from 'vitest';

/**
 * Keeps a scripted server honest against recordings: every object it generates may carry only
 * fields the real API sent, and must carry every field the real API always sent.
 */

/** Key sets across objects: every key seen, and the keys every one of them has. */
export function keyProfile(objects: Array<Record<string, unknown>>): { union: Set<string>; common: Set<string> } {
  const union = new Set<string>();
  let common: Set<string> | undefined;
  for (const object of objects) {
    const keys = Object.keys(object);
    keys.forEach((key) => union.add(key));
    common = common ? new Set(keys.filter((key) => common!.has(key))) : new Set(keys);
  }
  return { union, common: common ?? new Set() };
}

export function expectShape(label: string, generated: Array<Record<string, unknown>>, realObjects: Array<Record<string, unknown>>): void {
  expect(realObjects.length, `no real ${label} to compare with`).toBeGreaterThan(0);
  const { union, common } = keyProfile(realObjects);
  for (const object of generated) {
    const keys = Object.keys(object);
    expect(
      keys.filter((key) => !union.has(key)),
      `${label}: fields the real API never sent`,
    ).toEqual([]);
    expect(
      [...common].filter((key) => !keys.includes(key)),
      `${label}: fields the real API always sent`,
    ).toEqual([]);
  }
}
