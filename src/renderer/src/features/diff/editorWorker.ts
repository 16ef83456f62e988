import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

/**
 * Monaco's editor worker (it computes every diff), started ahead of need: its script loads and
 * compiles in its own thread while the page loads and evaluates Monaco itself, instead of after.
 * Only the worker's small constructor is in this module; nothing of Monaco is loaded by importing it.
 */
let warm: Worker | null = null;

/** Starts the worker now, if it is not started yet (a session that may have changes, a request with a diff). */
export function warmEditorWorker(): void {
  warm ??= new EditorWorker();
}

/** The worker started ahead, or a new one: Monaco asks once for its editor worker. */
export function takeEditorWorker(): Worker {
  const worker = warm ?? new EditorWorker();
  warm = null;
  return worker;
}
