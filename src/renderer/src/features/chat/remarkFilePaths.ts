import type { Nodes, Parent, PhrasingContent, Root, Text } from 'mdast';
import { pathsInText } from '../../lib/workspacePath';

/** The attribute a path found in prose carries to the `span` that Markdown draws as a file link. */
export const FILE_PATH_ATTRIBUTE = 'data-file-path';

/** Nodes whose text is not prose to look for paths in: a link is already one, code links itself. */
const SKIPPED = new Set<Nodes['type']>(['link', 'linkReference', 'inlineCode', 'code', 'html', 'definition']);

/**
 * A remark plugin: a workspace path in the model's prose (`see src/long.js:350`) becomes a span
 * marked with FILE_PATH_ATTRIBUTE, which Markdown draws as a link to the file. Only the words
 * `pathsInText` accepts; the text is kept exactly as written.
 */
export function remarkFilePaths() {
  return (tree: Root) => visit(tree);
}

function visit(node: Parent): void {
  const children: Nodes[] = [];
  let changed = false;
  for (const child of node.children as Nodes[]) {
    if (child.type === 'text') {
      const parts = splitText(child);
      if (parts.length !== 1 || parts[0] !== child) changed = true;
      children.push(...parts);
    } else {
      if ('children' in child && !SKIPPED.has(child.type)) visit(child);
      children.push(child);
    }
  }
  if (changed) (node as { children: Nodes[] }).children = children;
}

function splitText(node: Text): PhrasingContent[] {
  const found = pathsInText(node.value);
  if (found.length === 0) return [node];
  const parts: PhrasingContent[] = [];
  let at = 0;
  for (const { start, end } of found) {
    if (start > at) parts.push({ type: 'text', value: node.value.slice(at, start) });
    const value = node.value.slice(start, end);
    parts.push({ type: 'text', value, data: { hName: 'span', hProperties: { [FILE_PATH_ATTRIBUTE]: value } } });
    at = end;
  }
  if (at < node.value.length) parts.push({ type: 'text', value: node.value.slice(at) });
  return parts;
}
