import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './htmlToMarkdown';

const page = new URL('https://example.com/docs/guide.html');
const md = (html: string) => htmlToMarkdown(html, page).markdown;

describe('htmlToMarkdown', () => {
  it('keeps headings, paragraphs, emphasis and quotes', () => {
    expect(md('<h2>Setup</h2><p>Use <strong>this</strong> and <em>that</em>.</p><blockquote>quoted</blockquote>')).toBe(
      '## Setup\n\nUse **this** and *that*.\n\n> quoted',
    );
  });

  it('takes the title from <title> and leaves it out of the text', () => {
    const result = htmlToMarkdown('<html><head><title> The\n Guide </title></head><body><p>Body</p></body></html>', page);
    expect(result).toEqual({ title: 'The Guide', markdown: 'Body', cut: false });
  });

  it('makes links absolute against the page, or its <base>', () => {
    expect(md('<a href="../api/x.html#y">API</a> <a href="https://other.org/">other</a>')).toBe(
      '[API](https://example.com/api/x.html#y) [other](https://other.org/)',
    );
    expect(md('<base href="https://cdn.example.com/v2/"><a href="ref">ref</a>')).toBe('[ref](https://cdn.example.com/v2/ref)');
  });

  it('keeps the text of links that lead nowhere useful and drops links without text', () => {
    expect(md('<p><a href="#top">Top</a> <a href="javascript:void(0)">Click</a> <a href="/x"><img src="i.png"></a></p>')).toBe('Top Click');
  });

  it('escapes spaces and parentheses in link destinations', () => {
    expect(md('<a href="/a b(c)">x</a>')).toBe('[x](https://example.com/a%20b%28c%29)');
  });

  it('keeps images with alt text (absolute), drops decorative ones, and never inlines data: URIs', () => {
    expect(md('<p><img src="a.png" alt="Diagram"><img src="b.png"><img src="data:image/png;base64,AAAA" alt="Inline"></p>')).toBe(
      '![Diagram](https://example.com/docs/a.png)Inline',
    );
  });

  it('drops scripts, styles, navigation, media, form controls and hidden elements', () => {
    const html =
      '<script>s()</script><style>p{}</style><nav>menu</nav><noscript>no js</noscript><svg><text>vector</text></svg>' +
      '<iframe src="x"></iframe><button>Copy</button><div hidden>h1</div><span aria-hidden="true">h2</span>' +
      '<p style="display: none">h3</p><p>kept</p>';
    expect(md(html)).toBe('kept');
  });

  it('keeps nested and numbered lists', () => {
    expect(md('<ul><li>one</li><li>two<ul><li>inner</li></ul></li></ul><ol start="3"><li>three</li><li>four</li></ol>')).toBe(
      '- one\n- two\n  - inner\n\n3. three\n4. four',
    );
  });

  it('fences code blocks with their language, with or without <code>, longer than any backtick run inside', () => {
    expect(md('<pre><code class="language-ts">let a = 1;\n</code></pre>')).toBe('```ts\nlet a = 1;\n```');
    expect(md('<pre class="highlight-source-python"><span>def f():</span>\n    return 1</pre>')).toBe(
      '```python\ndef f():\n    return 1\n```',
    );
    expect(md('<pre>x ```` y</pre>')).toBe('`````\nx ```` y\n`````');
    expect(md('<p>Call <code>run()</code> now.</p>')).toBe('Call `run()` now.');
  });

  it('writes data tables as pipe tables, escaping pipes and padding spanned cells', () => {
    const html =
      '<table><thead><tr><th>Name</th><th colspan="2">Value</th></tr></thead>' +
      '<tbody><tr><td>a|b</td><td><p>one</p><p>two</p></td><td>3</td></tr></tbody></table>';
    expect(md(html)).toBe('| Name | Value | |\n| --- | --- | --- |\n| a\\|b | one two | 3 |');
  });

  it('reads layout tables (tables in tables) as blocks', () => {
    expect(md('<table><tr><td><p>Left</p></td><td><table><tr><td>A</td><td>B</td></tr></table></td></tr></table>')).toBe(
      'Left\n\n| A | B |\n| --- | --- |',
    );
  });

  it('does not escape Markdown characters in text', () => {
    expect(md('<p>snake_case and 2 * 3 and [x]</p>')).toBe('snake_case and 2 * 3 and [x]');
  });
});

describe('htmlToMarkdown on big or broken pages', () => {
  it('drops scripts, styles, svg and comments before parsing, and an unclosed one to the end of the page', () => {
    expect(
      md('<p>a</p><!-- <p>comment</p> --><script>if (a < b) document.write("<p>x</p>")</script><SCRIPT type="x">y</SCRIPT ><p>b</p>'),
    ).toBe('a\n\nb');
    expect(md('<p>a</p><style>p { color: red }')).toBe('a');
    expect(md('<p>a</p><!-- never closed <p>b</p>')).toBe('a');
  });

  it('stays linear on thousands of unclosed openers', () => {
    const started = performance.now();
    expect(md(`<p>start</p>${'<style>'.repeat(50_000)}`)).toBe('start');
    expect(md(`<p>start</p>${'<p>x</p><!--'.repeat(50_000)}`)).toBe('start\n\nx');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('converts at most maxHtmlChars of HTML, cutting before a tag, and says so', () => {
    const html = `<p>${'word '.repeat(100)}</p><p>second paragraph</p>`;
    const result = htmlToMarkdown(html, page, 520);
    expect(result.cut).toBe(true);
    expect(result.markdown).toBe('word '.repeat(100).trim());
    expect(htmlToMarkdown(html, page).cut).toBe(false);
  });
});
