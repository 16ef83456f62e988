import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import CssWorker from 'monaco-editor/language/css/css.worker?worker';
import HtmlWorker from 'monaco-editor/language/html/html.worker?worker';
import TsWorker from 'monaco-editor/language/typescript/ts.worker?worker';
import { takeEditorWorker } from './editorWorker';

/**
 * Monaco computes diffs (and language features) in web workers. Without a worker for a label the
 * diff never computes, so every label gets one, bundled with the app: it works offline.
 * (monaco-editor 0.57 maps `monaco-editor/*` to `esm/vs/*` in its exports.)
 */
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
      default:
        // Started ahead (see editorWorker.ts), so it is ready by the first diff.
        return takeEditorWorker();
    }
  },
};
