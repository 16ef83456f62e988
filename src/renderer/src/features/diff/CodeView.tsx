import { useEffect, useRef } from 'react';
import * as monaco from './monacoForReview';
import { followSystemTheme, knownLanguage, readOnlyOptions, themeNow, viewModel } from './monacoSetup';

/** A line (and column) to bring into view; `key` makes asking for the same place again count. */
export interface CodePlace {
  line: number;
  column?: number | undefined;
  key: number;
}

/**
 * One file's text in a read-only Monaco editor: a file the session added (every line marked added)
 * or deleted (every line marked removed), drawn plainly rather than against an empty other side; or
 * a workspace file opened from a link, at its line.
 */
export default function CodeView({
  path,
  text,
  language,
  tone,
  place = null,
  testId,
  label,
}: {
  path: string;
  text: string;
  language: string;
  /** Marks every line: the file was added, or deleted. */
  tone?: 'added' | 'removed' | undefined;
  place?: CodePlace | null;
  testId: string;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const marks = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const shown = useRef<{ path: string; text: string } | null>(null);
  const placed = useRef<number | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const created = monaco.editor.create(element, {
      ...readOnlyOptions,
      model: viewModel('', 'plaintext'),
      theme: themeNow(),
      lineDecorationsWidth: 14,
      renderLineHighlight: 'line',
    });
    editor.current = created;
    marks.current = created.createDecorationsCollection();
    const stopTheme = followSystemTheme();
    return () => {
      stopTheme();
      const model = created.getModel();
      created.dispose();
      model?.dispose();
      editor.current = null;
      marks.current = null;
      shown.current = null;
    };
  }, []);

  useEffect(() => {
    const current = editor.current;
    const model = current?.getModel();
    if (!current || !model) return;
    // A file's last newline ends its last line; it is not a line of its own, so none is drawn (nor marked).
    const value = tone && text.endsWith('\n') ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
    const languageId = knownLanguage(language);
    if (model.getLanguageId() !== languageId) monaco.editor.setModelLanguage(model, languageId);
    const samePath = shown.current?.path === path;
    if (shown.current?.text !== value || !samePath) {
      const view = samePath ? current.saveViewState() : null;
      model.setValue(value);
      // Another file starts at its top left, not where the last one was scrolled to.
      if (view) current.restoreViewState(view);
      else current.setScrollPosition({ scrollTop: 0, scrollLeft: 0 }, monaco.editor.ScrollType.Immediate);
    }
    shown.current = { path, text: value };
    marks.current?.set(
      tone && value !== ''
        ? [
            {
              range: new monaco.Range(1, 1, model.getLineCount(), 1),
              options: { isWholeLine: true, className: `code-line-${tone}`, linesDecorationsClassName: `code-sign-${tone}` },
            },
          ]
        : [],
    );
    if (!samePath) placed.current = null;
  }, [path, text, language, tone]);

  useEffect(() => {
    const current = editor.current;
    if (!current || !place || placed.current === place.key) return;
    placed.current = place.key;
    const line = Math.min(place.line, current.getModel()?.getLineCount() ?? place.line);
    const column = place.column ?? 1;
    current.setSelection({ startLineNumber: line, startColumn: column, endLineNumber: line, endColumn: column });
    current.revealLineInCenter(line, monaco.editor.ScrollType.Immediate);
  }, [place, path, text]);

  return <div className="diff-viewer" ref={host} data-testid={testId} data-path={path} data-tone={tone} aria-label={label} role="region" />;
}
