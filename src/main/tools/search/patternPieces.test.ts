import { describe, expect, it } from 'vitest';
import { compileLinePattern } from './compileLinePattern';
import { patternPieces } from './patternPieces';
import { portablePattern } from './portablePattern';

const TRICKY = [
  '\\Aneedle kept\\z',
  '[]x]needle',
  '[^]a]\\z',
  '[[:upper:][:^digit:]]\\Z',
  '\\Qa[b\\E\\z',
  '[\\Q]\\E]x',
  '(?#[)needle\\z',
  '(?i)(?P<w>e)(?P=w)\\g{1}\\g1',
  '\\x{41}\\x{4',
  'a\\',
  '[unclosed\\z',
];

describe('patternPieces', () => {
  it.each(TRICKY)('gives %s back whole when its pieces are joined', (pattern) => {
    expect(
      patternPieces(pattern)
        .pieces.map((piece) => piece.raw)
        .join(''),
    ).toBe(pattern);
  });

  it('knows a ] first in a class, a POSIX class and a quoted run for what they are', () => {
    expect(patternPieces('[]x][[:alpha:]]\\Q]\\E').pieces.map((piece) => `${piece.kind}:${piece.raw}`)).toEqual([
      'classOpen:[',
      'char:]',
      'char:x',
      'classClose:]',
      'classOpen:[',
      'posixClass:[:alpha:]',
      'classClose:]',
      'quoted:\\Q]\\E',
    ]);
    expect(patternPieces('[a').unclosedClass).toBe(true);
  });
});

describe('the two readers of a pattern agree on where classes, quotes and comments end', () => {
  it.each([
    ['a [ in a comment', '(?#[)needle\\z', '(?#[)needle$', 'needle'],
    ['a ] quoted in a class', '[\\Q]\\E]\\z', '[\\Q]\\E]$', ']'],
    ['a ] first in a class', '[]\\z]\\z', '[]\\z]$', 'z'],
    ['\\A and \\Z outside a class only', '\\A[\\A]\\Z', '^[\\A]$', 'A'],
  ])('%s', (_what, pattern, portable, matching) => {
    expect(portablePattern(pattern)).toBe(portable);
    expect(compileLinePattern(pattern, { literal: false, caseSensitive: true }).test(matching)).toBe(true);
  });
});
