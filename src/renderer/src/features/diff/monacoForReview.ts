/**
 * Monaco as a read-only review uses it: the editor and diff editor, every language's colouring and
 * language service (hovers), and the features a person reading code reaches for. Not the package's
 * own entry (`monaco-editor`), which also brings some fifty editing features (suggest, inline
 * completions, code actions, rename, snippets, formatting, the command palette and more): their
 * modules are evaluated on the page's main thread when Monaco loads, and each makes its controller
 * in every editor a diff opens (two per diff), for nothing a read-only view offers. Without them
 * Monaco's script is 3.2 MB instead of 4.0 (minified).
 */

// The editor and the diff editor (its actions: next change, the accessible diff viewer, unchanged
// regions) and the icons both draw; then what reading needs: copy, find (Ctrl+F), go to a line
// (Ctrl+G), hovers (a type, the revert arrow's hint), moving by word, Tab leaving the editor
// (Ctrl+M), the note that the view is read-only, and invisible or look-alike characters marked (a
// change can hide code behind them). Monaco names each feature's registration features/<name>/register.
import 'monaco-editor/features/codeEditor/register';
import 'monaco-editor/features/diffEditor/register';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/gotoLine/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import 'monaco-editor/features/readOnlyMessage/register';
import 'monaco-editor/features/unicodeHighlighter/register';

// Every language Monaco colours (each one's tokenizer loads when a file of it first shows) and the
// TypeScript, CSS, HTML and JSON services.
export { typescript } from 'monaco-editor/languages/register.all';

export * from 'monaco-editor/editor/editor.api';
