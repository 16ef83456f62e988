import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../src/renderer/src/features/chat/Markdown';
import { markdownBlocks } from '../../src/renderer/src/features/chat/markdownBlocks';

// An answer with every kind of block a model writes, including the ones that hold blank lines or
// continue after one (fenced code, loose lists, a list item's second paragraph, block quotes).
const answer = `## What changed in \`src/config.ts\`

The loader read the whole file before parsing it, so a **10 MB** config blocked the event loop.
It now streams the file; errors keep their line numbers.

- \`loadConfig(path)\` returns the same shape
- errors name the line and the key

1. Read the file
2. Parse each line

3. Report the first error

- a loose item

- another, with a second paragraph

  that continues here

\`\`\`ts
export async function loadConfig(path: string): Promise<Config> {
  const config: Config = {};

Not a paragraph: still inside the fence.

  return config;
}
\`\`\`

~~~
tilde fence

# not a heading
~~~

> A quote
>
> over two paragraphs

    indented code

    after a blank line

| case | before | after |
|---|---|---|
| 10 MB config | 300 ms | 20 ms |

I ran \`node --test\`: all 12 tests pass. See [the docs](https://example.com/docs).
`;

// Whitespace between block elements is not drawn; parsed in parts, the text has less of it.
const html = (text: string, streaming: boolean) =>
  renderToStaticMarkup(createElement(Markdown, { text, streaming })).replace(/>\s+</g, '><');

describe('markdownBlocks', () => {
  it('draws streamed markdown exactly as the whole answer is drawn', () => {
    expect(markdownBlocks(answer).length).toBeGreaterThan(5);
    expect(html(answer, true)).toBe(html(answer, false));
  });

  it('keeps the text of every finished block as the answer grows, so only the last is parsed again', () => {
    const whole = markdownBlocks(answer);
    for (let end = 0; end <= answer.length; end++) {
      const blocks = markdownBlocks(answer.slice(0, end));
      expect(blocks.slice(0, -1)).toEqual(whole.slice(0, blocks.length - 1));
    }
  });

  it('never cuts inside a code fence, even at a blank line followed by unindented text', () => {
    const fenced = '```\nfirst\n\nsecond\n\n# third\n```\n\nafter';
    expect(markdownBlocks(`${fenced}\n`)).toEqual(['```\nfirst\n\nsecond\n\n# third\n```\n', 'after\n']);
    const unclosed = 'intro\n\n~~~~\ncode\n\nmore code';
    expect(markdownBlocks(unclosed)).toEqual(['intro\n', '~~~~\ncode\n\nmore code']);
  });

  it('keeps a loose list, a quote and indented code in one block each', () => {
    expect(markdownBlocks('- a\n\n- b\n\n  more b\n\nnext\n')).toEqual(['- a\n\n- b\n\n  more b\n', 'next\n']);
    expect(markdownBlocks('> a\n\n> b')).toEqual(['> a\n\n> b']);
    expect(markdownBlocks('text\n\n    code\n\n    code')).toEqual(['text\n\n    code\n\n    code']);
  });
});
