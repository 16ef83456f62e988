import type { Plugin } from 'vite';

/** The module of Monaco through which its language services reach their workers. */
export const MONACO_WORKERS_MODULE = 'monaco-editor/esm/vs/internal/common/workers.js';

/** A side-effect import of one of Monaco's editor features (its contrib and standalone extras). */
const FEATURE_IMPORT = /^import '\.\.\/\.\.\/editor\/(?:contrib|standalone\/browser)\/[^']+';\r?\n/gm;

/**
 * Monaco 0.57's language services (TypeScript, CSS, HTML and JSON: colours, hovers) start their
 * workers through one module, `internal/common/workers.js`, which also imports every editor feature
 * Monaco has: suggest, code actions, inline completions, rename, the command palette, some seventy in
 * all. So the first diff of a TypeScript or JSON file evaluated all of them on the page's main thread
 * (83 ms), and every editor made after that built their controllers (two editors per diff), undoing
 * `monacoForReview.ts`, which picks only what a read-only review uses. This drops those side-effect
 * imports from that one module; what it exports (`createWebWorker`) and the editor itself stay.
 */
export function monacoWorkersAlone(): Plugin {
  let dropped = 0;
  return {
    name: 'tether:monaco-workers-alone',
    enforce: 'pre',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith(MONACO_WORKERS_MODULE)) return null;
      const slim = withoutEditorFeatures(code);
      dropped = code.length - slim.length;
      return { code: slim, map: null };
    },
    buildEnd() {
      // A Monaco that moved or reworded the module would bring every feature back without a word.
      if (this.meta.watchMode) return;
      if (dropped === 0) this.warn(`${MONACO_WORKERS_MODULE} was not found or had no editor features to drop: check the Monaco upgrade.`);
    },
  };
}

/** The module's text without its imports of editor features. */
export function withoutEditorFeatures(code: string): string {
  return code.replace(FEATURE_IMPORT, '');
}
