import type { Element, ElementContent } from 'hast';

/** A fenced block's text and language, from the `<pre><code class="language-x">` react-markdown builds. */
export function fencedCode(pre: Element | undefined): { code: string; language: string } {
  const code = pre?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const classes = code?.properties.className;
  const languageClass = Array.isArray(classes)
    ? classes.find((name) => typeof name === 'string' && name.startsWith('language-'))
    : undefined;
  const language = typeof languageClass === 'string' ? languageClass.slice('language-'.length).toLowerCase() : '';
  // The markdown tree ends a fenced block with a newline that is not part of what the person copies.
  return { code: textOf(code?.children ?? []).replace(/\n$/, ''), language };
}

function textOf(nodes: ElementContent[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.type === 'text') text += node.value;
    else if (node.type === 'element') text += textOf(node.children);
  }
  return text;
}
