import * as monaco from './monacoForReview';
import './monacoEnvironment';
import { DIFF_THEME_DARK, DIFF_THEME_LIGHT, diffThemes } from './diffThemes';

/**
 * What the diff editor and the file viewer share: Monaco with its workers, the TypeScript service
 * quiet, and the theme that follows the system's.
 */

// A diff or a file shows one file out of its project, read-only: the TypeScript service would only
// report imports it cannot resolve, and spend the CPU a 10,000-line file needs. Its diagnostics also
// start the TypeScript worker and copy every model opened into it, with nothing to report; only
// hovers, asked for by a person, still reach it.
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

const darkQuery = '(prefers-color-scheme: dark)';

// Themes whose text and token colours read at 4.5:1 on changed lines too (diffThemes.ts).
for (const [name, theme] of Object.entries(diffThemes)) monaco.editor.defineTheme(name, theme);

export function knownLanguage(id: string): string {
  return id && monaco.languages.getLanguages().some((language) => language.id === id) ? id : 'plaintext';
}

export function themeNow(): string {
  return window.matchMedia(darkQuery).matches ? DIFF_THEME_DARK : DIFF_THEME_LIGHT;
}

/** Keeps Monaco's theme with the system's light or dark; returns the way to stop. */
export function followSystemTheme(): () => void {
  const media = window.matchMedia(darkQuery);
  const handleScheme = () => monaco.editor.setTheme(themeNow());
  media.addEventListener('change', handleScheme);
  return () => media.removeEventListener('change', handleScheme);
}

/**
 * A model for a read-only view. Bracket pair colourisation is a model's option, on by default in
 * Monaco (the editor's own option does not reach it): left on, it parses every bracket of the whole
 * file, some 200 ms on the main thread for a 10,000-line file, for colours a review does not show.
 */
export function viewModel(text: string, language: string): monaco.editor.ITextModel {
  const model = monaco.editor.createModel(text, language);
  model.updateOptions({ bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false } });
  return model;
}

/** Options every read-only view shares: nothing typed, nothing computed a review does not need. */
export const readOnlyOptions = {
  readOnly: true,
  // Nothing is typed here: Tab moves on to the next control instead of staying in the editor.
  tabFocusMode: true,
  automaticLayout: true,
  fontSize: 12,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  renderValidationDecorations: 'off',
  stickyScroll: { enabled: false },
  folding: false,
  codeLens: false,
  occurrencesHighlight: 'off',
  selectionHighlight: false,
  contextmenu: false,
  // Each of these reads the whole file (in the editor's worker or on the main thread) for decoration a review does not need.
  links: false,
  colorDecorators: false,
  bracketPairColorization: { enabled: false },
  matchBrackets: 'never',
  guides: { bracketPairs: false, highlightActiveBracketPair: false },
  inlayHints: { enabled: 'off' },
} satisfies monaco.editor.IEditorOptions;
