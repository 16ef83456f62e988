import * as monaco from './monacoForReview';
import { readOnlyOptions, themeNow } from './monacoSetup';

/**
 * The names a screen reader gives each side's text box. Monaco's diff editor gives its sides their
 * labels again from every `updateOptions` call, and an empty one when the call has none: every call
 * carries these.
 */
export const sideLabels = {
  originalAriaLabel: 'Before the session’s changes (read-only)',
  modifiedAriaLabel: 'With the session’s changes (read-only)',
} as const;

/** What every diff editor starts with; what the panel chooses (layout, folds) is set when one is taken. */
function baseOptions(): monaco.editor.IStandaloneDiffEditorConstructionOptions {
  return {
    ...readOnlyOptions,
    originalEditable: false,
    // The panel decides, by its width and the person's choice; Monaco's own switch would override the choice.
    useInlineViewWhenSpaceIsLimited: false,
    theme: themeNow(),
    ...sideLabels,
    renderOverviewRuler: true,
    ignoreTrimWhitespace: false,
    maxComputationTime: 10_000,
    maxFileSize: 100,
    glyphMargin: true,
  };
}

/** A diff editor and the element it draws in, which moves into whichever pane shows it. */
export interface HeldDiffEditor {
  readonly editor: monaco.editor.IStandaloneDiffEditor;
  readonly frame: HTMLDivElement;
}

/**
 * One diff editor kept ready off screen. Making one holds the page's main thread for over 100 ms
 * (two code editors, their views and their features), and a diff opened from a link, the inbox or
 * a reopened review column waited for it. One is made while the page is idle once Monaco has
 * loaded, and a pane that closes gives its editor back instead of disposing of it.
 */
let spare: HeldDiffEditor | null = null;
/** Editors drawn in a pane now: while one is, the next diff reuses it, and no spare is made. */
let inUse = 0;

function makeDiffEditor(): HeldDiffEditor {
  const frame = document.createElement('div');
  frame.className = 'diff-editor-frame';
  return { editor: monaco.editor.createDiffEditor(frame, baseOptions()), frame };
}

/** Makes the spare editor now, if there is none and no pane holds one. */
export function prepareSpareDiffEditor(): void {
  if (inUse === 0) spare ??= makeDiffEditor();
}

/** A diff editor drawn in `host`: the spare one when there is one, else a new one. */
export function takeDiffEditor(host: HTMLElement, options: monaco.editor.IDiffEditorOptions): HeldDiffEditor {
  const held = spare ?? makeDiffEditor();
  spare = null;
  host.appendChild(held.frame);
  // The light or dark of the system may have changed while it waited.
  monaco.editor.setTheme(themeNow());
  held.editor.updateOptions({ ...sideLabels, ...options });
  held.editor.layout();
  inUse += 1;
  return held;
}

/** Gives an editor back once its pane closes: emptied, it becomes the spare (or is disposed of, when there is one). */
export function giveBackDiffEditor(held: HeldDiffEditor): void {
  // Nothing of this pane's reading goes on to the next one: the find widget and its search close.
  for (const side of [held.editor.getOriginalEditor(), held.editor.getModifiedEditor()]) side.trigger('spare', 'closeFindWidget', null);
  const model = held.editor.getModel();
  held.editor.setModel(null);
  model?.original.dispose();
  model?.modified.dispose();
  held.frame.remove();
  inUse -= 1;
  if (spare) held.editor.dispose();
  else spare = held;
}
