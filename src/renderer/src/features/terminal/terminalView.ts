import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import type { AppStore } from '../../stores/createAppStore';
import { blockHeader, type TerminalFeed } from '../../stores/terminalFeed';

/**
 * The terminal itself (xterm.js, some 300 KB of script), loaded when the panel first opens: the
 * first screen does not show it. Writes the session's commands and output from a store subscription,
 * not through React renders.
 */

/** What the terminal has been given so far, block by block, so each update writes only what is new. */
interface Written {
  callIds: string[];
  headers: string[];
  lengths: number[];
  endsWithNewline: boolean;
}

const fresh = (): Written => ({ callIds: [], headers: [], lengths: [], endsWithNewline: true });

/** Opens a terminal in `element` that follows session `sessionId`'s feed in `store`; returns how to close it. Throws when xterm cannot start. */
export function mountTerminal(element: HTMLElement, store: AppStore, sessionId: string): () => void {
  const fit = new FitAddon();
  const terminal = new Terminal({
    convertEol: true,
    disableStdin: true,
    cursorBlink: false,
    cursorInactiveStyle: 'none',
    scrollback: 10_000,
    fontFamily: getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim() || 'monospace',
    fontSize: 12,
    theme: themeFromCss(),
  });
  try {
    terminal.loadAddon(fit);
    terminal.open(element);
  } catch (error) {
    terminal.dispose();
    throw error;
  }
  // xterm takes every key for the program it would feed; this one feeds none, so the keys that
  // move focus keep their meaning.
  terminal.attachCustomKeyEventHandler((event) => !leavesTerminal(event, element));
  const safeFit = () => {
    try {
      fit.fit();
    } catch {
      // Not laid out yet (hidden or zero-sized); the next resize fits it.
    }
  };
  safeFit();
  const resize = new ResizeObserver(safeFit);
  resize.observe(element);

  let written = fresh();
  const sync = (feed: TerminalFeed | undefined) => {
    written = writeFeed(terminal, feed, written);
  };
  sync(store.getState().terminals[sessionId]);
  const unsubscribe = store.subscribe((state, previous) => {
    const feed = state.terminals[sessionId];
    if (feed !== previous.terminals[sessionId]) sync(feed);
  });

  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const handleScheme = () => {
    terminal.options.theme = themeFromCss();
  };
  media.addEventListener('change', handleScheme);

  return () => {
    media.removeEventListener('change', handleScheme);
    unsubscribe();
    resize.disconnect();
    terminal.dispose();
  };
}

/**
 * Tab, Shift+Tab and Esc move focus out of the terminal (xterm would keep them); returns whether the
 * key was one of them, so xterm leaves it alone.
 */
function leavesTerminal(event: KeyboardEvent, host: HTMLElement): boolean {
  if (event.type !== 'keydown') return event.key === 'Tab' || event.key === 'Escape';
  if (event.key === 'Escape') {
    (host.closest('.terminal-panel')?.querySelector<HTMLElement>('.panel-header') ?? document.body).focus();
    return true;
  }
  if (event.key !== 'Tab' || event.ctrlKey || event.metaKey || event.altKey) return false;
  // The browser moves focus itself once xterm lets the key through.
  return true;
}

function writeFeed(terminal: Terminal, feed: TerminalFeed | undefined, before: Written): Written {
  const blocks = feed?.blocks ?? [];
  let written = before;
  let consistent = blocks.length >= written.callIds.length;
  for (let i = 0; consistent && i < written.callIds.length; i++) {
    const block = blocks[i]!;
    const isLast = i === written.callIds.length - 1;
    consistent =
      block.callId === written.callIds[i] &&
      blockHeader(block) === written.headers[i] &&
      (isLast ? block.output.length >= written.lengths[i]! : block.output.length === written.lengths[i]);
  }
  // History arrived above what was shown, or old output was dropped: draw it all again.
  if (!consistent) {
    terminal.reset();
    written = fresh();
  } else {
    written = {
      callIds: written.callIds.slice(),
      headers: written.headers.slice(),
      lengths: written.lengths.slice(),
      endsWithNewline: written.endsWithNewline,
    };
  }
  let out = '';
  for (let i = Math.max(0, written.callIds.length - 1); i < blocks.length; i++) {
    const block = blocks[i]!;
    let piece: string;
    if (i >= written.callIds.length) {
      const header = blockHeader(block);
      piece = `${written.endsWithNewline ? '' : '\r\n'}${header ? `\x1b[1m${header}\x1b[0m\r\n` : ''}${block.output}`;
      written.callIds.push(block.callId);
      written.headers.push(header);
      written.lengths.push(block.output.length);
    } else {
      piece = block.output.slice(written.lengths[i]);
      written.lengths[i] = block.output.length;
    }
    if (piece) {
      out += piece;
      written.endsWithNewline = piece.endsWith('\n');
    }
  }
  if (out) terminal.write(out);
  return written;
}

function themeFromCss(): ITheme {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    background: read('--bg-panel', '#1b1b1b'),
    foreground: read('--fg', '#d8d8d8'),
    cursor: read('--bg-panel', '#1b1b1b'),
    selectionBackground: read('--bg-selected', 'rgba(128,128,128,0.3)'),
  };
}
