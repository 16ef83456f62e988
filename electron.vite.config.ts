import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { monacoWorkersAlone } from './scripts/monacoWorkersAlone';

// Three builds. Main also carries the CLI entry (`tether run`, `tether serve`, ...), so the packaged
// app and the command line share one build of the core. `dependencies` (native modules among them)
// stay external and load from node_modules at run time, except the pure-JS packages of many small
// files that every run or `tether sessions` loads: bundled, node reads and links one chunk instead
// of hundreds of files (zod 44 -> 22 ms, openai 125 -> 36 ms to load; diff, ignore, ipaddr.js and
// picomatch together ~20 ms of a one-turn run's 289; bench/start.bench.ts).
//
// Main is minified too: node compiles every byte of a chunk it loads, and a one-turn run loads
// 2.1 MB of it (1.15 MB minified), 249 -> 232 ms (median of 15 interleaved runs). Function and class
// names are kept, so stacks stay readable and nothing that reads a constructor's name changes; the
// source maps beside the chunks are read only under TETHER_DEBUG (bin/tether.js).
export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: ['zod', 'openai', '@anthropic-ai/sdk', 'diff', 'ignore', 'ipaddr.js', 'picomatch'] },
      sourcemap: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/tether.ts'),
        },
        output: { minify: { compress: { keepNames: { function: true, class: true } }, mangle: { keepNames: true } } },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require nothing but electron: bundle what it uses (the contract's names).
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot be an ES module.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [react(), monacoWorkersAlone()],
  },
});
