import { warmEditorWorker } from './editorWorker';

/**
 * The views drawn with Monaco, loaded when first needed: Monaco is large, and the first screen never
 * shows it. Each loader is the one dynamic import of its view, so asking early (a session that may
 * have changes opens, a request with a diff waits) and asking when drawing share one download.
 */
export const loadDiffViewer = () => import('./DiffViewer');
export const loadCodeView = () => import('./CodeView');

/** Starts loading the diff editor ahead of need, with Monaco's diff worker (a session whose steps may have changed files). */
export function preloadDiffViewer(): void {
  if (preloaded) return;
  preloaded = true;
  warmEditorWorker();
  void loadDiffViewer();
}

let preloaded = false;

/** Whether the diff editor was already asked for ahead of need: nothing more to watch for. */
export function diffViewerPreloaded(): boolean {
  return preloaded;
}
