import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderTokens } from '../../src/renderer/src/features/chat/codeTokens';
import { highlightCode, MAX_HIGHLIGHT_CHARS } from '../../src/renderer/src/features/chat/highlightCode';
import { Markdown } from '../../src/renderer/src/features/chat/Markdown';

// Code blocks in the conversation: highlighted from tokens (never HTML), the exact text kept for Copy.

const draw = (code: string, language: string) => {
  const tree = highlightCode(code, language);
  if (!tree) throw new Error(`${language} was not highlighted`);
  return renderToStaticMarkup(createElement('code', null, ...renderTokens(tree.children)));
};

describe('code highlighting', () => {
  it('highlights the registered languages and their aliases as token spans', () => {
    for (const language of [
      'ts',
      'typescript',
      'js',
      'jsx',
      'python',
      'py',
      'sh',
      'bash',
      'json',
      'html',
      'yml',
      'rust',
      'go',
      'diff',
      'sql',
      'css',
    ]) {
      expect(highlightCode('x = "a" // 1', language), language).not.toBeNull();
    }
    expect(draw('const answer = 42;', 'ts')).toBe(
      '<code><span class="hljs-keyword">const</span> answer = <span class="hljs-number">42</span>;</code>',
    );
  });

  it('leaves a block plain when its language is unknown or missing, or it is too long', () => {
    for (const language of ['', 'brainfuck', 'constructor', '__proto__', 'language-ts'])
      expect(highlightCode('a', language), language).toBeNull();
    expect(highlightCode('x'.repeat(MAX_HIGHLIGHT_CHARS + 1), 'ts')).toBeNull();
  });

  it('draws markup in code as text: nothing in a block becomes an element of the page', () => {
    const hostile = ['<script>alert(1)</script>', '<img src=x onerror="alert(1)">', '"><svg onload=alert(1)>', '&lt;b&gt; already escaped'];
    for (const code of hostile) {
      for (const language of ['html', 'js', 'markdown']) {
        const markup = draw(code, language);
        expect(markup, `${language}: ${code}`).not.toMatch(/<(script|img|svg|b)[\s>]/i);
        // The text survives exactly (only escaped for markup).
        const text = markup
          .replace(/<[^>]+>/g, '')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#x27;/g, "'")
          .replace(/&amp;/g, '&');
        expect(text).toBe(code);
      }
    }
  });

  it('keeps only highlight.js token classes from a tree', () => {
    const markup = renderToStaticMarkup(
      createElement(
        'code',
        null,
        ...renderTokens([
          {
            type: 'element',
            tagName: 'a',
            properties: { className: ['hljs-string', 'evil" onclick="x'], href: 'javascript:alert(1)' },
            children: [{ type: 'text', value: 'hi' }],
          },
          { type: 'comment', value: '<b>' },
        ]),
      ),
    );
    expect(markup).toBe('<code><span class="hljs-string">hi</span></code>');
  });

  it('draws a fenced block with its language, a Copy button and its text without the fence’s last newline', () => {
    const markup = renderToStaticMarkup(createElement(Markdown, { text: 'Run:\n\n```TS\nconst a = 1;\n```\n\nand `inline` code.' }));
    expect(markup).toContain('data-testid="code-block" data-language="ts"');
    expect(markup).toContain('data-testid="copy-code"');
    expect(markup).toContain('<code>const a = 1;</code>');
    expect(markup).toContain('<code>inline</code>');
    const plain = renderToStaticMarkup(createElement(Markdown, { text: '```\n<b>x</b>\n\n```' }));
    expect(plain).toContain('<code>&lt;b&gt;x&lt;/b&gt;\n</code>');
    expect(plain).not.toContain('data-language');
  });
});
