import type { ReactNode } from 'react';
import type { ElementContent, RootContent } from 'hast';

/** highlight.js's token classes only: nothing else from a tree reaches the page. */
const TOKEN_CLASS = /^hljs-[a-z0-9_-]+$/i;

/**
 * A highlighter's token tree as React elements: spans with token classes around text that React
 * escapes. No markup from the tree is ever parsed, so code that quotes HTML stays text.
 */
export function renderTokens(nodes: ReadonlyArray<RootContent | ElementContent>): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return null;
    const classes = node.properties.className;
    const className = Array.isArray(classes)
      ? classes.filter((name): name is string => typeof name === 'string' && TOKEN_CLASS.test(name)).join(' ')
      : '';
    return (
      <span key={index} className={className || undefined}>
        {renderTokens(node.children)}
      </span>
    );
  });
}
