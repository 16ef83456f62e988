import { describe, expect, it } from 'vitest';
import { globMatches } from './globMatches';

describe('globMatches', () => {
  it.each([
    ['*', '-delete'],
    ['-de*', '-delete'],
    ['-?xec', '-exec'],
    ['[-]exec', '-exec'],
    ['[!a]exec', '-exec'],
    ['{a,-exec}', '-exec'],
    ['-exe[a-z]', '-exec'],
  ])('%s could produce %s', (pattern, word) => {
    expect(globMatches(pattern, word)).toBe(true);
  });

  it.each([
    ['*.py', '-exec'],
    ['src/*', '-delete'],
    ['-name', '-exec'],
    ['[abc]exec', '-exec'],
  ])('%s cannot produce %s', (pattern, word) => {
    expect(globMatches(pattern, word)).toBe(false);
  });
});
