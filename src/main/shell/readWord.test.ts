import { spawnSync } from 'node:child_process';
import os from 'node:os';
import fc from 'fast-check';
import type { Node } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from './analyzeCommand';
import { initShellParser, parseShell } from './parser';
import { readWord, touchingGroups, type Word } from './readWord';

beforeAll(async () => {
  await initShellParser();
});

/** The word of `echo WORD`, read; null when the parser reports an error (the analysis refuses those lines). */
function wordOrNull(text: string): Word | null {
  const tree = parseShell(`echo ${text}`);
  try {
    if (tree.rootNode.hasError) return null;
    return firstWord(tree.rootNode, text);
  } finally {
    tree.delete();
  }
}

function wordOf(text: string): Word {
  const tree = parseShell(`echo ${text}`);
  try {
    return firstWord(tree.rootNode, text);
  } finally {
    tree.delete();
  }
}

function firstWord(root: Node, text: string): Word {
  {
    const command = root.namedChildren[0]!;
    // Pieces the parser split without a space between them are one word, as in the analysis.
    const argument = touchingGroups(command.childrenForFieldName('argument').filter((node) => node !== null))[0];
    if (!argument) throw new Error(`no argument in ${JSON.stringify(text)}`);
    return readWord(argument);
  }
}

describe('readWord', () => {
  it.each([
    ['plain', 'plain'],
    ["'single quoted'", 'single quoted'],
    ['"double \\"quoted\\" \\$x \\\\ \\a"', 'double "quoted" $x \\ \\a'],
    ['a\\ b\\;c', 'a b;c'],
    ["$'tab\\there'", 'tab\there'],
    ['-g"*.py"', '-g*.py'],
    ["r''m", 'rm'],
    ['{}', '{}'],
    ['a=b', 'a=b'],
  ])('%s is the literal %j', (text, value) => {
    expect(wordOf(text)).toMatchObject({ text: value, kind: 'literal', splits: false });
  });

  it.each(['*.txt', 'a?', '[ab]', '{a,b}', 'x{1..3}', 'a{b,c}d'])('%s is a pattern the shell expands', (text) => {
    expect(wordOf(text)).toMatchObject({ kind: 'pattern', splits: true });
  });

  it.each(["'*.txt'", '"a?"', '\\[ab]', "'{a,b}'", '"{1..3}"'])('%s is quoted, so literal', (text) => {
    expect(wordOf(text).kind).toBe('literal');
  });

  it.each([
    ['$x', true],
    ['"$x"', false],
    ['${x:-y}', true],
    ['"$(cmd)"', false],
    ['$(cmd)', true],
    ['`cmd`', true],
    ['~/x', false],
    ['a$x', true],
  ])('%s is dynamic (splits: %s)', (text, splits) => {
    expect(wordOf(text)).toMatchObject({ kind: 'dynamic', splits, text });
  });

  it('reads touching nodes the parser split as the one word bash reads', () => {
    const tree = parseShell("echo $'r'\\m");
    try {
      const argument = tree.rootNode.namedChildren[0]!.childrenForFieldName('argument').filter((node) => node !== null);
      expect(argument).toHaveLength(2);
      expect(readWord(argument)).toMatchObject({ text: 'rm', kind: 'literal' });
    } finally {
      tree.delete();
    }
  });

  it('keeps the source of a dynamic word as its text', () => {
    expect(wordOf('"pre-$x"')).toMatchObject({ text: '"pre-$x"', source: '"pre-$x"' });
  });
});

/** The value bash gives the word, with globbing and brace expansion off so patterns print as they are. */
function bashValue(text: string): string | null {
  const result = spawnSync('/bin/bash', ['-c', `set -f +B; printf '%s\\0' ${text}`], {
    encoding: 'utf8',
    env: { LANG: 'C.UTF-8' },
    timeout: 5000,
  });
  if (result.status !== 0) return null;
  const values = result.stdout.split('\0');
  values.pop();
  return values.length === 1 ? values[0]! : null;
}

describe('readWord against bash', () => {
  const piece = fc.constantFrom(
    'a',
    'Z',
    '-',
    '-o',
    '=',
    '/',
    '.',
    '{',
    '}',
    ',',
    '*',
    '?',
    '[x]',
    '\\ ',
    '\\"',
    "\\'",
    '\\\\',
    '\\a',
    '\\$',
    '\\*',
    '"a b"',
    '"\\$x"',
    '"\\\\"',
    '"\\a"',
    '"\\""',
    '"*"',
    '""',
    "''",
    "'\\n'",
    "'a\"b'",
    "$'\\x41'",
    "$'\\n'",
    "$'\\101'",
    "$'\\u00e9'",
    "$'\\cA'",
    "$'\\''",
    "$'\\\\'",
    "$'\\e'",
    "$'\\x7'",
    "$'\\q'",
    '"\\n"',
  );

  it('gives a literal or pattern word the value bash gives it', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        const word = wordOrNull(text);
        if (!word || word.kind === 'dynamic') return;
        // Through the whole analysis, which also refuses what the parser misreads around words.
        const analysis = analyzeCommand(`echo ${text}`, { cwd: os.tmpdir(), workspaceRoot: os.tmpdir(), pathEnv: '' });
        if (analysis.unpinnable) return;
        const value = bashValue(text);
        if (value === null) return;
        expect(analysis.commands[0]!.argv, `word ${text}`).toEqual(['echo', value]);
      }),
      { numRuns: 300, seed: 11 },
    );
    // Hundreds of bash or sed processes: minutes on a loaded machine, though seconds on a quiet one.
  }, 180_000);
});
