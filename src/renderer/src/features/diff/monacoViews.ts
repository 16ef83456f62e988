import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/errorMessage';
import { warmEditorWorker } from './editorWorker';

type DiffViewerModule = typeof import('./DiffViewer');
type CodeViewModule = typeof import('./CodeView');

let diffViewer: DiffViewerModule | null = null;
let codeView: CodeViewModule | null = null;

/**
 * The views drawn with Monaco, loaded when first needed: Monaco is large, and the first screen never
 * shows it. Each loader is the one dynamic import of its view, so asking early (a session that may
 * have changes opens, a request with a diff waits) and asking when drawing share one download.
 */
export const loadDiffViewer = () => import('./DiffViewer').then((module) => (diffViewer = module));
export const loadCodeView = () => import('./CodeView').then((module) => (codeView = module));

/** A view's module once it is here, or why it could not load. */
export type LoadedView<M> = { module: M; error?: undefined } | { module: null; error: string | null };

/**
 * A Monaco view's module for drawing, asked for while `wanted`: at once when it is loaded already,
 * else once it arrives. Not
 * React.lazy with Suspense: a lazy component suspends the first time it draws even when its module
 * is here, and React then holds the content back until 300 ms after its fallback showed, which
 * every first diff of a page waited out.
 */
function useLoadedView<M>(wanted: boolean, loaded: () => M | null, load: () => Promise<M>): LoadedView<M> {
  const [module, setModule] = useState<M | null>(loaded);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (module || !wanted) return undefined;
    let live = true;
    load().then(
      (arrived) => live && setModule(() => arrived),
      (failure: unknown) => live && setError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [module, wanted]);
  return module ? { module } : { module: null, error };
}

export const useDiffViewer = (wanted: boolean) => useLoadedView(wanted, () => diffViewer, loadDiffViewer);
export const useCodeView = (wanted: boolean) => useLoadedView(wanted, () => codeView, loadCodeView);

/**
 * Starts loading the diff editor ahead of need, with Monaco's diff worker (a session whose steps may
 * have changed files); once loaded, a diff editor is made ready while the page is idle.
 */
export function preloadDiffViewer(): void {
  if (preloaded) return;
  preloaded = true;
  warmEditorWorker();
  void loadDiffViewer()
    .then(() => import('./spareDiffEditor'))
    .then((spare) => whenLongIdle(() => spare.prepareSpareDiffEditor()))
    // Loading ahead is only a head start: a failure shows where the view is drawn (ViewLoading).
    .catch(() => undefined);
}

let preloaded = false;

/** Whether the diff editor was already asked for ahead of need: nothing more to watch for. */
export function diffViewerPreloaded(): boolean {
  return preloaded;
}

/**
 * Runs `work` (over 100 ms of the main thread) in an idle period the browser expects to be long, not
 * in the first one: a person typing between keys would feel it otherwise. Idle periods last at
 * most 50 ms, so "long" is one with nearly all of it left.
 */
function whenLongIdle(work: () => void): void {
  requestIdleCallback(function wait(deadline) {
    if (deadline.timeRemaining() < 45) requestIdleCallback(wait);
    else work();
  });
}
