import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sedScriptEffect } from './sedScriptEffect';

describe('sedScriptEffect', () => {
  it.each([
    '1,5p',
    '10p',
    '$p',
    '/foo/p',
    '/a/,/b/p',
    's/a/b/',
    's/a/b/g',
    's|a/b|c|2',
    'y/abc/xyz/',
    '1d;$d',
    '/x/!d',
    '1~2p',
    '0,/re/p',
    '/a/I,+3p',
    ':a;N;$!ba;s/\\n/ /g',
    'l',
    '=',
    'q5',
    '1{p;p}',
    'a\\\nappended',
    'i text',
    '#n\np',
    's/[/]/X/',
    's/w/e/',
    '/e/p',
    'b w',
    'v 4.2',
  ])('%s only reads', (script) => {
    expect(sedScriptEffect(script)).toEqual({ effect: 'reads', reads: [] });
  });

  it.each(['w out', '1w out', 's/a/b/w out', '/x/W out', 's/a/b/gw out', 'r in\nw out'])('%s writes a file', (script) => {
    expect(sedScriptEffect(script).effect).toBe('writes');
  });

  it.each([
    ['r other', ['other']],
    ['$R other', ['other']],
    ['1r  /etc/passwd', ['/etc/passwd']],
    ['1r other file;p', ['other file;p']],
    ['r a\n/x/R ../b\np', ['a', '../b']],
  ])('%s pulls in the files it names: %j', (script, files) => {
    expect(sedScriptEffect(script)).toEqual({ effect: 'reads', reads: files });
  });

  it.each(['e', '1e date', 's/.*/date/e', 's/a/b/ge', ':a e', 'b a e', 'p;e rm -rf /'])('%s runs a command', (script) => {
    expect(sedScriptEffect(script).effect).toBe('runs');
  });

  it.each(['s/a/b', 'y/ab/', '1{p', 'k', 's/a/b/ w x', '/unterminated', 'r', '1R '])('%s is not read with confidence', (script) => {
    expect(sedScriptEffect(script).effect).toBe('unknown');
  });
});

/**
 * GNU sed's --sandbox refuses e, w and r (and R, W): when this parser says a script only reads, GNU
 * sed's own parser must find none of them in it, except the r and R commands this parser lists.
 */
const gnuSed = spawnSync('sed', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU') ?? false;

describe.runIf(gnuSed)('sedScriptEffect against GNU sed --sandbox', () => {
  const piece = fc.constantFrom(
    'p',
    'd',
    '1',
    '$',
    ',',
    ';',
    '\n',
    ' ',
    '/',
    'a',
    'b',
    'w',
    'e',
    'r',
    'W',
    'R',
    's',
    'y',
    '\\',
    '[',
    ']',
    '^',
    '{',
    '}',
    '!',
    ':',
    'x',
    'g',
    'I',
    'M',
    '#',
    'l',
    'q',
    '~',
    '+',
    '|',
    '0',
    's/a/b/',
    'w f',
    'e date',
    '/re/',
    '[/]',
    '\\n',
  );

  it('never calls a script read-only that GNU sed would run or write from, and misses none of its reads', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const script = pieces.join('');
        const { effect, reads } = sedScriptEffect(script);
        if (effect !== 'reads') return;
        const result = spawnSync('sed', ['--sandbox', '-n', '-e', script], { input: 'a/b w e\n', encoding: 'utf8', timeout: 5000 });
        if (reads.length === 0) expect(result.stderr, `script ${JSON.stringify(script)}`).not.toMatch(/sandbox/);
        // GNU sed refuses it: for its r or R, or for a fault it finds first.
        else expect(result.status, `script ${JSON.stringify(script)}`).not.toBe(0);
      }),
      { numRuns: 1500, seed: 7 },
    );
    // Hundreds of bash or sed processes: minutes on a loaded machine, though seconds on a quiet one.
  }, 180_000);
});
