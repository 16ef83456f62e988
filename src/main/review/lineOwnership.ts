import { diffLines } from 'diff';

/**
 * Which lines of a text file a session wrote, followed through the file's history.
 *
 * The history is a list of steps, each made by the session (one of its tool calls, a revert or a
 * rewind it did) or by someone else (another session in the same folder, the person's editor, a
 * command that ran outside any of the session's steps). Each line of the file carries its owner: a
 * run of the session's lines is a block that remembers the lines it replaced (`original`), so the
 * file can be shown, and put back, as it would be had the session not touched it, while everything
 * anyone else wrote stays.
 *
 * Decisions, and why:
 * - A step by the session that touches or borders one of its blocks merges into it: the person sees
 *   one change where the session made several in one place, and undoing it undoes them all.
 * - A step by someone else that rewrites lines of a block, or writes inside it, ends the session's
 *   claim on that block: what is there now is no longer what the session wrote, so it is neither
 *   shown as the session's change nor offered for revert (which would overwrite the other's work).
 *   A block the session only added (it replaced nothing) is cut instead: its lines that others left
 *   alone are still the session's, and removing them takes nothing of anyone else's.
 * - Someone else creating or deleting the whole file ends every claim on it.
 */

/** One step of a file's history: who made it and what the file became (null: no file). */
export interface TextStep {
  by: 'session' | 'other';
  text: string | null;
}

/** The file now, and as it would be without the session's changes that still stand (null: no file). */
export interface OwnText {
  origin: string | null;
  current: string | null;
}

/** Lines the session wrote, in place of `original`. */
interface Block {
  original: string[];
}

/** A line of the file, or (text null) the place where a block that now has no lines was. */
type Item = { text: string; block: Block | null } | { text: null; block: Block };

type Walked = { kind: 'kept'; item: Item } | { kind: 'removed'; item: Item & { text: string } } | { kind: 'added'; text: string };

/** Past this, one step's diff is too costly; the caller then judges the file whole. */
const DIFF_TIMEOUT_MS = 1500;

/**
 * Follows `steps` from `start` and returns the file now and as it would be without the session's
 * standing changes; null when a diff gave up (the texts are too large and too different).
 */
export function ownTextChanges(start: string | null, steps: readonly TextStep[], timeoutMs = DIFF_TIMEOUT_MS): OwnText | null {
  let exists = start !== null;
  let items: Item[] = start === null ? [] : splitLines(start).map((text) => ({ text, block: null }));
  /** Set once the session created or deleted the file: whether it existed before that. */
  let existence: { originExists: boolean } | null = null;

  for (const step of steps) {
    const before = exists ? textOf(items) : null;
    if (before === step.text) continue;
    if (step.by === 'other') {
      if (before === null || step.text === null) {
        // Created or deleted whole by someone else: nothing of the session's stands in it.
        items = step.text === null ? [] : splitLines(step.text).map((text) => ({ text, block: null }));
        existence = null;
        exists = step.text !== null;
        continue;
      }
      const walked = walk(items, before, step.text, timeoutMs);
      if (!walked) return null;
      items = applyOther(walked);
      continue;
    }
    if (step.text === null) existence ??= { originExists: true };
    if (before === null) existence ??= { originExists: false };
    const walked = walk(items, before ?? '', step.text ?? '', timeoutMs);
    if (!walked) return null;
    items = applySession(walked);
    exists = step.text !== null;
  }

  const current = exists ? textOf(items) : null;
  const originText = originOf(items);
  let origin: string | null;
  if (existence && !existence.originExists) origin = originText === '' ? null : originText;
  else if (existence) origin = originText;
  else origin = exists ? originText : null;
  return { origin, current };
}

/** Lines with their endings, so joining them gives the text back byte for byte. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function textOf(items: readonly Item[]): string {
  let text = '';
  for (const item of items) if (item.text !== null) text += item.text;
  return text;
}

function originOf(items: readonly Item[]): string {
  let text = '';
  let last: Block | null = null;
  for (const item of items) {
    if (item.block === null) {
      text += item.text;
      last = null;
    } else if (item.block !== last) {
      text += item.block.original.join('');
      last = item.block;
    }
  }
  return text;
}

/** The items of `before`, each kept or removed, and the lines added, in file order. */
function walk(items: readonly Item[], before: string, after: string, timeoutMs: number): Walked[] | null {
  const changes = diffLines(before, after, { timeout: timeoutMs });
  if (!changes) return null;
  const walked: Walked[] = [];
  let at = 0;
  /** Places of line-less blocks keep their spot before the next line of the file. */
  const nextLine = (): Item & { text: string } => {
    while (items[at]?.text === null) walked.push({ kind: 'kept', item: items[at++]! });
    const item = items[at++];
    if (!item || item.text === null) throw new Error('The line history and the diff disagree on the number of lines.');
    return item as Item & { text: string };
  };
  for (const change of changes) {
    const count = change.count ?? splitLines(change.value).length;
    if (change.added) {
      for (const text of splitLines(change.value)) walked.push({ kind: 'added', text });
    } else if (change.removed) {
      for (let i = 0; i < count; i++) walked.push({ kind: 'removed', item: nextLine() });
    } else {
      for (let i = 0; i < count; i++) walked.push({ kind: 'kept', item: nextLine() });
    }
  }
  while (at < items.length) walked.push({ kind: 'kept', item: items[at++]! });
  return walked;
}

/** The session's step: every changed place, with the blocks it touches or borders, becomes one block. */
function applySession(walked: readonly Walked[]): Item[] {
  const dirty = (index: number) => walked[index] !== undefined && walked[index]!.kind !== 'kept';
  const blockAt = (index: number): Block | null => {
    const entry = walked[index];
    return entry && entry.kind !== 'added' ? entry.item.block : null;
  };
  const touched = new Set<Block>();
  walked.forEach((entry, index) => {
    if (entry.kind === 'kept') {
      if (entry.item.block && (dirty(index - 1) || dirty(index + 1))) touched.add(entry.item.block);
    } else if (entry.kind === 'removed' && entry.item.block) touched.add(entry.item.block);
  });
  const inRegion = (index: number) => dirty(index) || (blockAt(index) !== null && touched.has(blockAt(index)!));

  const items: Item[] = [];
  for (let index = 0; index < walked.length;) {
    if (!inRegion(index)) {
      items.push((walked[index] as { item: Item }).item);
      index++;
      continue;
    }
    const original: string[] = [];
    const lines: string[] = [];
    const seen = new Set<Block>();
    for (; index < walked.length && inRegion(index); index++) {
      const entry = walked[index]!;
      if (entry.kind === 'added') {
        lines.push(entry.text);
        continue;
      }
      const { item } = entry;
      if (item.block === null) {
        // Only a removed line of the file as it was (not the session's) is outside every block here.
        original.push(item.text!);
        continue;
      }
      if (!seen.has(item.block)) {
        seen.add(item.block);
        original.push(...item.block.original);
      }
      if (entry.kind === 'kept' && item.text !== null) lines.push(item.text);
    }
    items.push(...normalised(original, lines));
  }
  return items;
}

/** A block with what it shares with its original at either end given back as plain lines; nothing when it changes nothing. */
function normalised(original: string[], lines: string[]): Item[] {
  let head = 0;
  while (head < original.length && head < lines.length && original[head] === lines[head]) head++;
  let tail = 0;
  while (
    tail < original.length - head &&
    tail < lines.length - head &&
    original[original.length - 1 - tail] === lines[lines.length - 1 - tail]
  )
    tail++;
  const block: Block = { original: original.slice(head, original.length - tail) };
  const own = lines.slice(head, lines.length - tail);
  const plain = (text: string): Item => ({ text, block: null });
  const middle: Item[] = own.length > 0 ? own.map((text) => ({ text, block })) : block.original.length > 0 ? [{ text: null, block }] : [];
  return [...lines.slice(0, head).map(plain), ...middle, ...lines.slice(lines.length - tail).map(plain)];
}

/** Someone else's step: their lines are plain, and the session's blocks they wrote into are given up (or cut). */
function applyOther(walked: readonly Walked[]): Item[] {
  const dirty = (index: number) => walked[index] !== undefined && walked[index]!.kind !== 'kept';
  const first = new Map<Block, number>();
  const last = new Map<Block, number>();
  const lost = new Set<Block>();
  walked.forEach((entry, index) => {
    if (entry.kind === 'added' || !entry.item.block) return;
    const { block } = entry.item;
    if (!first.has(block)) first.set(block, index);
    last.set(block, index);
    if (entry.kind === 'removed') lost.add(block);
  });
  for (const [block, start] of first) {
    const end = last.get(block)!;
    for (let index = start + 1; index < end; index++) if (dirty(index)) lost.add(block);
    const only = walked[start]!;
    if (start === end && only.kind === 'kept' && only.item.text === null) {
      // A place where the session removed lines: given up when someone rewrote around it on both sides.
      let before = start - 1;
      while (before >= 0 && walked[before]!.kind === 'kept' && (walked[before] as { item: Item }).item.text === null) before--;
      let after = start + 1;
      while (after < walked.length && walked[after]!.kind === 'kept' && (walked[after] as { item: Item }).item.text === null) after++;
      if (dirty(before) && dirty(after)) lost.add(block);
    }
  }

  const items: Item[] = [];
  /** Pieces of added-only blocks that others cut: each run left becomes a block of its own. */
  const pieces = new Map<Block, Block>();
  walked.forEach((entry, index) => {
    if (entry.kind === 'added') {
      items.push({ text: entry.text, block: null });
      return;
    }
    if (entry.kind === 'removed') return;
    const { item } = entry;
    if (!item.block || !lost.has(item.block)) {
      items.push(item);
      return;
    }
    if (item.text === null) return;
    if (item.block.original.length > 0) {
      items.push({ text: item.text, block: null });
      return;
    }
    const previous = walked[index - 1];
    const continues = previous !== undefined && previous.kind === 'kept' && previous.item.block === item.block;
    let piece = pieces.get(item.block);
    if (!piece || !continues) {
      piece = { original: [] };
      pieces.set(item.block, piece);
    }
    items.push({ text: item.text, block: piece });
  });
  return items;
}
