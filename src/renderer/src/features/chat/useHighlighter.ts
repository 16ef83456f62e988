import { useSyncExternalStore } from 'react';

type Highlighter = typeof import('./highlightCode');

let loaded: Highlighter | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function load(): void {
  loading ??= import('./highlightCode').then(
    (module) => {
      loaded = module;
      for (const listener of listeners) listener();
    },
    // Offline or a failed chunk: the blocks stay plain, and the next block tries again.
    () => {
      loading = null;
    },
  );
}

/**
 * The highlighter, once its chunk has loaded (null until then: blocks draw plain and redraw
 * highlighted). Only a block that names a language asks for it, so a conversation with no code
 * never downloads the grammars.
 */
export function useHighlighter(wanted: boolean): Highlighter | null {
  const highlighter = useSyncExternalStore(subscribe, current, current);
  if (wanted && !highlighter) load();
  return highlighter;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function current(): Highlighter | null {
  return loaded;
}
