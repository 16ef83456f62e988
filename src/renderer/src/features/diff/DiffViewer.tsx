import { useEffect, useRef } from 'react';
import * as monaco from 'monaco-editor';
import './monacoEnvironment';
import type { FileDiff } from '../../../../shared/contract';
import { DIFF_THEME_DARK, DIFF_THEME_LIGHT, diffThemes } from './diffThemes';

/** A line to bring into view (a hunk picked in the list); `key` makes picking the same line again count. */
export interface RevealLine {
  line: number;
  key: number;
}

/** The line of the agent's version where a hunk's revert arrow sits: its first line, or the line before a removal. */
function hunkGlyphLine(hunk: { newStart: number }): number {
  return Math.max(1, hunk.newStart);
}

const darkQuery = '(prefers-color-scheme: dark)';

// A diff shows one file out of its project, read-only: the TypeScript service would only report
// imports it cannot resolve, and spend the CPU a 10,000-line file needs. Its diagnostics also start
// the TypeScript worker and copy every model opened into it, with nothing to report; only hovers,
// asked for by a person, still reach it.
for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) {
  defaults.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: true, noSuggestionDiagnostics: true });
  defaults.setModeConfiguration({
    hovers: true,
    diagnostics: false,
    completionItems: false,
    documentSymbols: false,
    definitions: false,
    references: false,
    documentHighlights: false,
    rename: false,
    documentRangeFormattingEdits: false,
    signatureHelp: false,
    onTypeFormattingEdits: false,
    codeActions: false,
    inlayHints: false,
  });
}

function knownLanguage(id: string): string {
  return id && monaco.languages.getLanguages().some((language) => language.id === id) ? id : 'plaintext';
}

for (const [name, theme] of Object.entries(diffThemes)) monaco.editor.defineTheme(name, theme);

/**
 * The names a screen reader gives each side's text box. Monaco's diff editor gives its sides their
 * labels again from every `updateOptions` call, and an empty one when the call has none: every call
 * carries these.
 */
const sideLabels = {
  originalAriaLabel: 'Before the session’s changes (read-only)',
  modifiedAriaLabel: 'With the session’s changes (read-only)',
} as const;

function themeNow(): string {
  return window.matchMedia(darkQuery).matches ? DIFF_THEME_DARK : DIFF_THEME_LIGHT;
}

/**
 * Monaco's diff editor for one file. The editor is made once. Another file gets two new models (the
 * diff editor diffs a new pair at once, where changed text waits out a 200 ms debounce); a refresh of
 * the same file only replaces the models' text, which keeps the scroll position.
 */
export default function DiffViewer({
  diff,
  layout,
  reveal = null,
  onRevertHunk,
}: {
  diff: FileDiff;
  layout: 'side' | 'inline';
  reveal?: RevealLine | null;
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

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const created = monaco.editor.createDiffEditor(element, {
      readOnly: true,
      // Nothing is typed here: Tab moves on to the next control instead of staying in the editor.
      tabFocusMode: true,
      originalEditable: false,
      automaticLayout: true,
      renderSideBySide: layout === 'side',
      useInlineViewWhenSpaceIsLimited: false,
      theme: themeNow(),
      ...sideLabels,
      fontSize: 12,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      renderOverviewRuler: true,
      ignoreTrimWhitespace: false,
      maxComputationTime: 10_000,
      maxFileSize: 100,
      hideUnchangedRegions: { enabled: false },
      renderValidationDecorations: 'off',
      glyphMargin: true,
      stickyScroll: { enabled: false },
      folding: false,
      codeLens: false,
      occurrencesHighlight: 'off',
      selectionHighlight: false,
      contextmenu: false,
      // Each of these reads the whole of both files (in the editor's worker, ahead of the diff, or on
      // the main thread) for decoration a review does not need.
      links: false,
      colorDecorators: false,
      bracketPairColorization: { enabled: false },
      matchBrackets: 'never',
      guides: { bracketPairs: false, highlightActiveBracketPair: false },
      inlayHints: { enabled: 'off' },
    });
    created.setModel({
      original: monaco.editor.createModel('', 'plaintext'),
      modified: monaco.editor.createModel('', 'plaintext'),
    });
    editor.current = created;
    const modifiedEditor = created.getModifiedEditor();
    glyphs.current = modifiedEditor.createDecorationsCollection();
    const clicks = modifiedEditor.onMouseDown((event) => {
      if (event.target.type !== monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN || !revertHunk.current) return;
      const line = event.target.position?.lineNumber;
      const index = (hunksShown.current ?? []).findIndex((hunk) => hunkGlyphLine(hunk) === line);
      if (index >= 0) revertHunk.current(index);
    });

    const media = window.matchMedia(darkQuery);
    const handleScheme = () => monaco.editor.setTheme(themeNow());
    media.addEventListener('change', handleScheme);
    return () => {
      media.removeEventListener('change', handleScheme);
      clicks.dispose();
      glyphs.current = null;
      const model = created.getModel();
      created.dispose();
      model?.original.dispose();
      model?.modified.dispose();
      editor.current = null;
      shownPath.current = null;
    };
    // The editor is made once; layout changes go through updateOptions below.
  }, []);

  useEffect(() => {
    const current = editor.current;
    const model = current?.getModel();
    if (!current || !model) return;
    const language = knownLanguage(diff.language);
    if (shownPath.current !== diff.path) {
      current.setModel({
        original: monaco.editor.createModel(diff.before, language),
        modified: monaco.editor.createModel(diff.after, language),
      });
      model.original.dispose();
      model.modified.dispose();
      shownPath.current = diff.path;
      return;
    }
    const view = current.saveViewState();
    if (model.original.getLanguageId() !== language) monaco.editor.setModelLanguage(model.original, language);
    if (model.modified.getLanguageId() !== language) monaco.editor.setModelLanguage(model.modified, language);
    if (model.original.getValue() !== diff.before) model.original.setValue(diff.before);
    if (model.modified.getValue() !== diff.after) model.modified.setValue(diff.after);
    if (view) current.restoreViewState(view);
  }, [diff]);

  useEffect(() => {
    editor.current?.updateOptions({ ...sideLabels, renderSideBySide: layout === 'side' });
  }, [layout]);

  // The revert arrows follow the server's hunks (what a revert undoes), not Monaco's own diff.
  const canRevert = onRevertHunk !== undefined;
  useEffect(() => {
    hunksShown.current = diff.hunks;
    glyphs.current?.set(
      canRevert
        ? (diff.hunks ?? []).map((hunk) => ({
            range: new monaco.Range(hunkGlyphLine(hunk), 1, hunkGlyphLine(hunk), 1),
            options: { glyphMarginClassName: 'hunk-revert-glyph', glyphMarginHoverMessage: { value: 'Revert this hunk' } },
          }))
        : [],
    );
  }, [diff, canRevert]);

  // A hunk picked in the list: its first line, in the agent's version, scrolled into the middle.
  useEffect(() => {
    const modified = editor.current?.getModifiedEditor();
    if (!reveal || !modified) return;
    modified.revealLineInCenter(reveal.line);
    modified.setSelection({ startLineNumber: reveal.line, startColumn: 1, endLineNumber: reveal.line, endColumn: 1 });
  }, [reveal]);

  return (
    <div
      className="diff-viewer"
      ref={host}
      data-testid="diff-viewer"
      data-path={diff.path}
      data-layout={layout}
      aria-label={`Changes to ${diff.path}`}
      role="region"
    />
  );
}
