import { useEffect, useRef } from 'react';
import * as monaco from './monacoForReview';
import type { FileDiff } from '../../../../shared/contract';
import { followSystemTheme, knownLanguage, viewModel } from './monacoSetup';
import { giveBackDiffEditor, sideLabels, takeDiffEditor } from './spareDiffEditor';

/** A place to bring into view in the agent's version; `key` makes asking for the same place again count. */
export interface RevealPlace {
  line: number;
  column?: number | undefined;
  key: number;
}

/** The line of the agent's version where a hunk's revert arrow sits: its first line, or the line before a removal. */
function hunkGlyphLine(hunk: { newStart: number }): number {
  return Math.max(1, hunk.newStart);
}

/** Unchanged lines fold away but for this many around each change; a run shorter than the minimum stays. */
const FOLD = { contextLineCount: 3, minimumLineCount: 3, revealLineCount: 20 };

/**
 * Monaco's diff editor for one changed file. The editor is taken once (the spare made ahead, see
 * spareDiffEditor.ts) and given back when the pane closes. Another file gets two new
 * models (the diff editor diffs a new pair at once, where changed text waits out a 200 ms debounce)
 * and opens at its first change, or at the line a link or a hunk asked for; a refresh of the same
 * file only replaces the models' text, which keeps the scroll position.
 */
export default function DiffViewer({
  diff,
  layout,
  foldUnchanged,
  reveal = null,
  onRevertHunk,
}: {
  /** The file to show; null while the first one is on its way (the editor is made meanwhile, not after). */
  diff: FileDiff | null;
  /** What is drawn now (the panel turns "auto" into one of these by its width). */
  layout: 'side' | 'inline';
  /** Folds the unchanged lines between changes (Monaco's hideUnchangedRegions). */
  foldUnchanged: boolean;
  /** A place in this file to bring into view. */
  reveal?: RevealPlace | null;
  /** Set when hunks may be reverted now: each hunk gets a revert arrow in the gutter of the agent's side. */
  onRevertHunk?: ((index: number) => void) | undefined;
}) {
  const host = useRef<HTMLDivElement>(null);
  const revertHunk = useRef(onRevertHunk);
  revertHunk.current = onRevertHunk;
  const glyphs = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const editor = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const shownPath = useRef<string | null>(null);
  const hunksShown = useRef<FileDiff['hunks']>(undefined);
  /** Where a newly shown file opens, once its diff is worked out (until then the hidden regions are unknown). */
  const opening = useRef<RevealPlace | 'first change' | null>(null);
  const revealed = useRef<number | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const held = takeDiffEditor(element, {
      renderSideBySide: layout === 'side',
      hideUnchangedRegions: { enabled: foldUnchanged, ...FOLD },
    });
    const created = held.editor;
    editor.current = created;
    const modifiedEditor = created.getModifiedEditor();
    glyphs.current = modifiedEditor.createDecorationsCollection();
    const clicks = modifiedEditor.onMouseDown((event) => {
      if (event.target.type !== monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN || !revertHunk.current) return;
      const line = event.target.position?.lineNumber;
      const index = (hunksShown.current ?? []).findIndex((hunk) => hunkGlyphLine(hunk) === line);
      if (index >= 0) revertHunk.current(index);
    });
    // The first diff of a new file: its folds are known now, so the place it opens at is shown, not folded away.
    const diffed = created.onDidUpdateDiff(() => {
      // Monaco has worked out the diff of what it shows: tests and the benchmark wait for this.
      element.dataset.changes = String(created.getLineChanges()?.length ?? 0);
      const place = opening.current;
      if (place === null) return;
      opening.current = null;
      bringIntoView(created, place, hunksShown.current);
    });
    const stopTheme = followSystemTheme();
    return () => {
      stopTheme();
      diffed.dispose();
      clicks.dispose();
      glyphs.current?.clear();
      glyphs.current = null;
      giveBackDiffEditor(held);
      editor.current = null;
      shownPath.current = null;
    };
    // The editor is taken once; option changes go through updateOptions below.
  }, []);

  useEffect(() => {
    const current = editor.current;
    if (!current || !diff) return;
    const model = current.getModel();
    const language = knownLanguage(diff.language);
    hunksShown.current = diff.hunks;
    if (!model || shownPath.current !== diff.path) {
      current.setModel({
        original: viewModel(diff.before, language),
        modified: viewModel(diff.after, language),
      });
      model?.original.dispose();
      model?.modified.dispose();
      shownPath.current = diff.path;
      delete host.current?.dataset.changes;
      // A place asked for this file opens it once; after that, it opens at its first change again.
      const place = reveal && revealed.current !== reveal.key ? reveal : 'first change';
      if (reveal) revealed.current = reveal.key;
      // At once where the server's hunks say (the file shows there while Monaco diffs), and again once it has.
      bringIntoView(current, place, diff.hunks);
      opening.current = place;
      return;
    }
    const view = current.saveViewState();
    if (model.original.getLanguageId() !== language) monaco.editor.setModelLanguage(model.original, language);
    if (model.modified.getLanguageId() !== language) monaco.editor.setModelLanguage(model.modified, language);
    if (model.original.getValue() !== diff.before) model.original.setValue(diff.before);
    if (model.modified.getValue() !== diff.after) model.modified.setValue(diff.after);
    if (view) current.restoreViewState(view);
    // `reveal` is read when a file first shows; later places come through the effect below.
  }, [diff]);

  useEffect(() => {
    editor.current?.updateOptions({ ...sideLabels, renderSideBySide: layout === 'side' });
  }, [layout]);

  useEffect(() => {
    editor.current?.updateOptions({ ...sideLabels, hideUnchangedRegions: { enabled: foldUnchanged, ...FOLD } });
  }, [foldUnchanged]);

  // The revert arrows follow the server's hunks (what a revert undoes), not Monaco's own diff.
  const canRevert = onRevertHunk !== undefined;
  useEffect(() => {
    glyphs.current?.set(
      canRevert && diff
        ? (diff.hunks ?? []).map((hunk) => ({
            range: new monaco.Range(hunkGlyphLine(hunk), 1, hunkGlyphLine(hunk), 1),
            options: { glyphMarginClassName: 'hunk-revert-glyph', glyphMarginHoverMessage: { value: 'Revert this hunk' } },
          }))
        : [],
    );
  }, [diff, canRevert]);

  // A place asked for while this file shows (a hunk picked in the list, a link to a line).
  useEffect(() => {
    const current = editor.current;
    if (!reveal || !current || !diff || revealed.current === reveal.key || shownPath.current !== diff.path) return;
    revealed.current = reveal.key;
    bringIntoView(current, reveal, diff.hunks);
  }, [reveal, diff?.path]);

  return (
    <div
      className="diff-viewer"
      ref={host}
      data-testid="diff-viewer"
      data-path={diff?.path}
      data-layout={layout}
      data-folded={foldUnchanged}
      aria-label={diff ? `Changes to ${diff.path}` : 'Changes, loading'}
      role="region"
    />
  );
}

/**
 * Shows a place of the agent's version in the middle of the editor. A line asked for is also
 * selected, which unfolds it where it lies in folded unchanged lines; the first change is never
 * folded, and is only scrolled to.
 */
function bringIntoView(editor: monaco.editor.IStandaloneDiffEditor, place: RevealPlace | 'first change', hunks: FileDiff['hunks']): void {
  const modified = editor.getModifiedEditor();
  if (place === 'first change') {
    const line = hunks?.[0] ? hunkGlyphLine(hunks[0]) : editor.getLineChanges()?.[0]?.modifiedStartLineNumber;
    if (line !== undefined) modified.revealLineInCenter(Math.max(1, line), monaco.editor.ScrollType.Immediate);
    return;
  }
  const column = place.column ?? 1;
  modified.setSelection({ startLineNumber: place.line, startColumn: column, endLineNumber: place.line, endColumn: column });
  modified.revealLineInCenter(place.line, monaco.editor.ScrollType.Immediate);
}
