import { createRequire } from 'node:module';
import path from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { keepWebAssemblyOnBaseline } from './webAssemblyTier';

/**
 * The one bash parser (tree-sitter-bash through web-tree-sitter). Loading the WebAssembly is
 * asynchronous and done once; after initShellParser() resolves, parsing is synchronous, so the
 * policy engine can analyse a command without awaiting anything.
 */

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

/** Loads the grammar once; later calls return the same promise. A failed load may be retried. */
export function initShellParser(): Promise<void> {
  if (parser) return Promise.resolve();
  loading ??= load().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function load(): Promise<void> {
  keepWebAssemblyOnBaseline();
  // Resolved from the packages, not from this file: under vitest this file is src/, once bundled
  // by electron-vite it is out/main/, and in both cases `dependencies` stay in node_modules.
  const require = createRequire(import.meta.url);
  let runtimeDir: string;
  let grammarPath: string;
  try {
    runtimeDir = path.dirname(require.resolve('web-tree-sitter'));
    grammarPath = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  } catch (error) {
    throw new Error(
      `The shell parser could not find its WebAssembly files (${(error as Error).message}). ` +
        'Check that web-tree-sitter and tree-sitter-bash are installed as dependencies (npm install).',
    );
  }
  try {
    await Parser.init({ locateFile: (file: string) => path.join(runtimeDir, file) });
    const bash = await Language.load(grammarPath);
    const created = new Parser();
    created.setLanguage(bash);
    parser = created;
  } catch (error) {
    throw new Error(
      `The shell parser failed to load tree-sitter-bash from ${grammarPath}: ${(error as Error).message}. Reinstall tree-sitter-bash and web-tree-sitter.`,
    );
  }
}

/** True once initShellParser() has finished. */
export function isShellParserReady(): boolean {
  return parser !== null;
}

/**
 * Parses bash source synchronously. The caller owns the tree and must delete() it.
 * Throws when initShellParser() has not finished.
 */
export function parseShell(source: string): Tree {
  if (!parser) {
    throw new Error('The shell parser is not initialised: await initShellParser() once at start-up before analysing commands.');
  }
  const tree = parser.parse(source);
  if (!tree)
    throw new Error(`The shell parser returned no tree for a command of ${source.length} characters; the command cannot be analysed.`);
  return tree;
}
