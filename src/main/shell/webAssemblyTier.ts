import v8 from 'node:v8';

/** V8 compiles WebAssembly with Liftoff, its baseline compiler, and never re-compiles it with TurboFan. */
export const BASELINE_WEBASSEMBLY_FLAG = '--liftoff-only';

let kept = false;

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff), process-wide, before any module compiles.
 *
 * The bash parser is tree-sitter-bash in WebAssembly. V8 re-compiles a module's hot functions with its
 * optimising compiler on background threads, and for this parser that cost a headless run some 45 MB
 * of peak memory, CPU the run itself needed on a two-core machine, and up to 300 ms at exit, where Node
 * waits for those compiles to finish (bench/start.bench.ts). What the parser parses is a command line
 * of a few hundred bytes, for which the baseline code is fast enough. Undici's HTTP parser, the other
 * WebAssembly in the process, answers the model's stream as well on it.
 *
 * Call it at a host's start (and the parser calls it before it loads): flags set later than a
 * module's compilation do not change that module.
 */
export function keepWebAssemblyOnBaseline(): void {
  if (kept) return;
  kept = true;
  v8.setFlagsFromString(BASELINE_WEBASSEMBLY_FLAG);
}
