import type { StoredEvent } from '../../../shared/events';
import { isFinished, type SessionState } from '../../../shared/session';

/**
 * What the terminal panel shows for one session: a block per command, its header line and its output.
 * Output arrives live as raw PTY chunks; a session opened after the fact is rebuilt from the log
 * (tool.started gives the command, tool.finished the whole output). Blocks are kept in the order the
 * commands started, so a page of history fetched late still lands above what streamed in meanwhile.
 */
export interface TerminalBlock {
  callId: string;
  /** The command line, once its tool.started event has been seen. */
  command?: string;
  /** The seq of its tool.started event; blocks seen only through live chunks have none yet. */
  seq?: number;
  output: string;
  /** Output came through live chunks, so tool.finished must not add it again. */
  streamed: boolean;
  finished: boolean;
}

export interface TerminalFeed {
  blocks: TerminalBlock[];
  /** Characters held, to bound memory. */
  size: number;
}

export const emptyTerminalFeed: TerminalFeed = { blocks: [], size: 0 };

/** Past this many characters the oldest output is dropped, down to TRIM_TO, so trimming is rare. */
export const TERMINAL_MAX_CHARS = 3_000_000;
const TRIM_TO = 2_000_000;

export function feedChunk(feed: TerminalFeed, callId: string, chunk: string): TerminalFeed {
  const index = feed.blocks.findIndex((block) => block.callId === callId);
  const blocks = feed.blocks.slice();
  if (index === -1) {
    blocks.push({ callId, output: chunk, streamed: true, finished: false });
  } else {
    const block = blocks[index]!;
    blocks[index] = { ...block, output: block.output + chunk, streamed: true };
  }
  return bounded({ blocks, size: feed.size + chunk.length });
}

export function feedEvents(feed: TerminalFeed, events: readonly StoredEvent[]): TerminalFeed {
  let next = feed;
  for (const stored of events) {
    const event = stored.event;
    if (event.type === 'tool.started') {
      const command = commandOf(event.args);
      if (command === undefined) continue;
      next = withStarted(next, event.callId, command, stored.seq);
    } else if (event.type === 'tool.finished') {
      const index = next.blocks.findIndex((block) => block.callId === event.callId);
      if (index === -1) continue;
      const block = next.blocks[index]!;
      const blocks = next.blocks.slice();
      const output = block.streamed ? block.output : event.output;
      blocks[index] = { ...block, output, finished: true };
      next = bounded({ blocks, size: next.size - block.output.length + output.length });
    }
  }
  return next;
}

/**
 * The commands of a session opened from a snapshot (sessionWindow.ts): those its window holds, in
 * the order they started, as their tool.started and tool.finished events would have fed them. Calls
 * held slim (outside the window, no output kept) are left out.
 */
export function feedSnapshot(feed: TerminalFeed, state: SessionState): TerminalFeed {
  const calls = Object.values(state.toolCalls)
    .filter((call) => call.startedSeq !== undefined && (call.output !== undefined || !isFinished(call.status)))
    .sort((a, b) => a.startedSeq! - b.startedSeq!);
  let next = feed;
  for (const call of calls) {
    let args: unknown;
    try {
      args = JSON.parse(call.arguments);
    } catch {
      continue;
    }
    const command = commandOf(args);
    if (command === undefined) continue;
    next = withStarted(next, call.callId, command, call.startedSeq!);
    if (!isFinished(call.status)) continue;
    const index = next.blocks.findIndex((block) => block.callId === call.callId);
    const block = next.blocks[index]!;
    const output = block.streamed ? block.output : (call.output ?? '');
    const blocks = next.blocks.slice();
    blocks[index] = { ...block, output, finished: true };
    next = bounded({ blocks, size: next.size - block.output.length + output.length });
  }
  return next;
}

/** The header line a block is shown under. */
export function blockHeader(block: TerminalBlock): string {
  return block.command === undefined ? '' : `$ ${block.command}`;
}

function withStarted(feed: TerminalFeed, callId: string, command: string, seq: number): TerminalFeed {
  const existing = feed.blocks.findIndex((block) => block.callId === callId);
  const blocks = feed.blocks.slice();
  let block: TerminalBlock = { callId, command, seq, output: '', streamed: false, finished: false };
  if (existing !== -1) {
    block = { ...blocks[existing]!, command, seq };
    blocks.splice(existing, 1);
  }
  // After the last block that started earlier; blocks known only from live chunks stay last.
  let at = 0;
  for (let i = 0; i < blocks.length; i++) {
    const other = blocks[i]!.seq;
    if (other !== undefined && other < seq) at = i + 1;
  }
  blocks.splice(at, 0, block);
  return { blocks, size: feed.size };
}

function bounded(feed: TerminalFeed): TerminalFeed {
  if (feed.size <= TERMINAL_MAX_CHARS) return feed;
  const blocks = feed.blocks.slice();
  let size = feed.size;
  while (blocks.length > 1 && size > TRIM_TO) size -= blocks.shift()!.output.length;
  if (size > TRIM_TO && blocks.length === 1) {
    const only = blocks[0]!;
    const output = only.output.slice(only.output.length - TRIM_TO);
    blocks[0] = { ...only, output };
    size = output.length;
  }
  return { blocks, size };
}

function commandOf(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const command = (args as Record<string, unknown>).command;
  return typeof command === 'string' ? command : undefined;
}
