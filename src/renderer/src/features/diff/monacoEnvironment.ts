import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import CssWorker from 'monaco-editor/language/css/css.worker?worker';
import HtmlWorker from 'monaco-editor/language/html/html.worker?worker';
import TsWorker from 'monaco-editor/language/typescript/ts.worker?worker';

/**
 * Monaco computes diffs (and language features) in web workers. Without a worker for a label the
 * diff never computes, so every label gets one, bundled with the app: it works offline.
 * (monaco-editor 0.57 maps `monaco-editor/*` to `esm/vs/*` in its exports.)
 */
// The diff worker starts with this module, while the editor is being made, instead of when the
// first diff is asked for: its script loads and compiles meanwhile. Monaco takes it on first ask.
let warmEditorWorker: Worker | null = new EditorWorker();

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    switch (label) {
      case 'json':
        return new JsonWorker();
      case 'css':
      case 'scss':
      case 'less':
        return new CssWorker();
      case 'html':
      case 'handlebars':
      case 'razor':
        return new HtmlWorker();
      case 'typescript':
      case 'javascript':
        return new TsWorker();
      default: {
        const worker = warmEditorWorker ?? new EditorWorker();
        warmEditorWorker = null;
        return worker;
      }
    }
  },
};
