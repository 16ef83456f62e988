import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAnsiC } from './decodeAnsiC';

describe('decodeAnsiC', () => {
  it.each([
    ['\\x72m', 'rm'],
    ['-rf', '-rf'],
    ['\\055rf', '-rf'],
    ['\\u002drf', '-rf'],
    ['a\\tb\\nc', 'a\tb\nc'],
    ["it\\'s", "it's"],
    ['\\\\', '\\'],
    ['\\cA\\c?', '\x01\x7f'],
    ['\\e[0m', '\x1b[0m'],
    ['\\q', '\\q'],
    ['ab\\x00cd', 'ab'],
    ['ab\\0cd', 'ab'],
    ['\\u00e9', 'é'],
    ['\\U0001F600', '😀'],
  ])('%s is %j', (body, value) => {
    expect(decodeAnsiC(body)).toBe(value);
  });

  it.each(['\\xff', '\\377', '\\U00110000', '\\ud800'])('%s holds bytes that are not text, so its value is not known exactly', (body) => {
    expect(decodeAnsiC(body)).toBeNull();
  });
});

describe('decodeAnsiC against bash', () => {
  const piece = fc.constantFrom(
    'a',
    '-',
    ' ',
    '\\n',
    '\\t',
    '\\\\',
    "\\'",
    '\\"',
    '\\?',
    '\\x41',
    '\\x4',
    '\\x',
    '\\101',
    '\\7',
    '\\0',
    '\\u00e9',
    '\\u41',
    '\\U0001F600',
    '\\cA',
    '\\cz',
    '\\c?',
    '\\e',
    '\\E',
    '\\a',
    '\\b',
    '\\f',
    '\\v',
    '\\r',
    '\\q',
    '\\x00z',
    '7',
    'f',
  );

  it("gives the value bash gives $'...'", () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const body = pieces.join('');
        const value = decodeAnsiC(body);
        if (value === null) return;
        const result = spawnSync('/bin/bash', ['-c', `printf '%s' $'${body}'`], { env: { LANG: 'C.UTF-8' }, timeout: 5000 });
        expect(value, `$'${body}'`).toBe(result.stdout.toString('utf8'));
      }),
      { numRuns: 300, seed: 5 },
    );
    // Hundreds of bash or sed processes: minutes on a loaded machine, though seconds on a quiet one.
  }, 180_000);
});
