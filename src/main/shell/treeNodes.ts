import type { Node } from 'web-tree-sitter';

/** web-tree-sitter hands out a new object for every access: compare by id. */
export function sameNode(a: Node | null | undefined, b: Node | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && a.id === b.id;
}

/** A node's named children, without the holes web-tree-sitter's types allow. */
export function named(node: Node): Node[] {
  const out: Node[] = [];
  for (const child of node.namedChildren) if (child) out.push(child);
  return out;
}
