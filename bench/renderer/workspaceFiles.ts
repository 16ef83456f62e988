/** Files the diff benchmark puts in the workspace: a 10,000-line TypeScript module and its edits. */

export const BIG_FILE = 'src/store/inventory.ts';
export const BIG_FILE_LINES = 10_000;
/** On line 1 of both versions. */
const BIG_FILE_MARK = 'stock levels by warehouse';
/**
 * On line 14 of both versions, unchanged, a few lines above both sessions' first change (lines 15 and
 * 17): both sides of the editor show it once the file is loaded, whether it opens at line 1 or at its
 * first change with the unchanged lines around folded.
 */
export const NEAR_CHANGE_MARK = 'export function stockOfGroup1(';
/** The first line the agent changed (line 17), in view when the diff opens. */
export const FIRST_CHANGE_MARK = 'reserve before shipping';
/** The line a second session changes (line 15). */
export const SECOND_CHANGE_MARK = 'count returns as stock';

/** The module as it was: small functions, one after another, like generated data-access code. */
export function bigFileBefore(): string {
  const lines = [
    `// inventory.ts: ${BIG_FILE_MARK}, generated from the schema; edit the generator, not this file.`,
    "import type { Sku, WarehouseId, Quantity } from './types';",
    '',
  ];
  for (let n = 0; lines.length < BIG_FILE_LINES; n++) {
    lines.push(
      `/** Stock of item group ${n} in one warehouse. */`,
      `export function stockOfGroup${n}(levels: Map<Sku, Quantity>, warehouse: WarehouseId): Quantity {`,
      `  let total = 0;`,
      `  for (const [sku, quantity] of levels) {`,
      `    if (sku.group === ${n} && sku.warehouse === warehouse) total += quantity;`,
      `  }`,
      `  return total;`,
      `}`,
      '',
    );
  }
  return lines.slice(0, BIG_FILE_LINES).join('\n') + '\n';
}

/** The agent's edit: line 17, then a line about every 450 changed or added. */
export function bigFileAfter(before: string): string {
  const lines = before.split('\n');
  lines[16] = `    if (sku.group === 1 && sku.warehouse === warehouse && !sku.reserved) total += quantity; // ${FIRST_CHANGE_MARK}`;
  for (let i = 460; i < lines.length - 1; i += 450) {
    if (lines[i]!.includes('total += quantity')) lines[i] = lines[i]!.replace('total += quantity', 'total += Math.max(0, quantity)');
    else lines.splice(i, 0, '  // Negative quantities are corrections, counted elsewhere.');
  }
  return lines.join('\n');
}

/** A second session's edit on top of the first. */
export function bigFileAgain(after: string): string {
  const lines = after.split('\n');
  lines[14] = `  let total = 0; // ${SECOND_CHANGE_MARK}`;
  return lines.join('\n');
}

export const PRICE_FILE = 'src/price.js';
export const PRICE_FIXED = `// Applies a percentage discount to a price in cents.
export function discounted(cents, percent) {
  return cents - (cents * percent) / 100;
}
`;
