import os from 'node:os';
import { z } from 'zod';

/**
 * What one command may take of the machine, so that a fork bomb or a memory hog run unasked (auto
 * mode) ends alone instead of taking the person's desktop with it. Set as resource limits on the
 * command's shell before anything else starts (bash's `ulimit`, soft and hard: nothing the command
 * starts can raise them), so they hold inside and outside the sandbox:
 *   memory     RLIMIT_DATA, per process: what it may allocate (the heap and private writable maps).
 *              Address space a runtime only reserves (V8's, Go's, the JVM's heap before use) is not
 *              counted, so node, go and java run as usual; AddressSanitizer's shadow is, so an ASan
 *              build needs the limit raised.
 *   processes  RLIMIT_NPROC: processes and threads of the person's user. A new user namespace (the
 *              sandbox's) counts its own from the limit it was made with. The kernel does not apply it
 *              to root.
 * The person changes them in settings.json (`commandLimits`); 0 lifts one.
 */

export const CommandLimits = z.strictObject({
  /** MiB each process of a command may allocate; 0 for no limit. */
  memoryMiB: z.number().int().min(0).optional(),
  /** Processes and threads a command may have at once; 0 for no limit. */
  processes: z.number().int().min(0).optional(),
});
export type CommandLimits = z.infer<typeof CommandLimits>;

export interface EffectiveLimits {
  memoryMiB: number;
  processes: number;
}

/** Half the machine's memory, at most 16 GiB: a build that needs more asks for it in settings. */
export function defaultLimits(totalBytes: number = os.totalmem()): EffectiveLimits {
  const half = Math.floor(totalBytes / 2 / 1024 / 1024);
  return { memoryMiB: Math.min(16 * 1024, Math.max(1024, half)), processes: 4096 };
}

export function effectiveLimits(configured: CommandLimits | undefined, defaults: EffectiveLimits = defaultLimits()): EffectiveLimits {
  return { memoryMiB: configured?.memoryMiB ?? defaults.memoryMiB, processes: configured?.processes ?? defaults.processes };
}

/**
 * The shell words that set them, first thing in the command's shell. A limit the shell cannot set
 * (a hard limit already lower) is left as it is, which is tighter.
 */
export function limitsPrefix(limits: EffectiveLimits): string {
  const words: string[] = [];
  if (limits.memoryMiB > 0) words.push(`ulimit -d ${limits.memoryMiB * 1024} 2>/dev/null;`);
  if (limits.processes > 0) words.push(`ulimit -u ${limits.processes} 2>/dev/null;`);
  return words.join(' ');
}

/** What a program prints when it cannot allocate memory: C's strerror, Python, Node, Java, Go, C++, Rust. */
const OUT_OF_MEMORY =
  /Cannot allocate memory|MemoryError|JavaScript heap out of memory|Fatal process out of memory|OutOfMemoryError|runtime: out of memory|std::bad_alloc|memory allocation of \d+ bytes failed|virtual memory exhausted|out of memory/i;
/** What a program prints when it cannot start a process or a thread. */
const OUT_OF_PROCESSES =
  /fork: (?:retry: )?Resource temporarily unavailable|Cannot fork|can't start new thread|pthread_create failed|unable to create native thread|spawn [^\n]*EAGAIN|Resource temporarily unavailable/i;

/**
 * Which limit a command that failed most likely ran into, in words for the model and the person;
 * undefined when it exited well or printed nothing that says so.
 */
export function limitHit(output: string, exitCode: number | null, limits: EffectiveLimits): string | undefined {
  if (exitCode === 0) return undefined;
  if (limits.memoryMiB > 0 && OUT_OF_MEMORY.test(output)) {
    return `it most likely ran into its memory limit (${formatMiB(limits.memoryMiB)} per process; commandLimits.memoryMiB in settings.json raises it)`;
  }
  if (limits.processes > 0 && OUT_OF_PROCESSES.test(output)) {
    return `it most likely ran into its process limit (${limits.processes} processes and threads; commandLimits.processes in settings.json raises it)`;
  }
  return undefined;
}

function formatMiB(mib: number): string {
  return mib % 1024 === 0 ? `${mib / 1024} GiB` : `${mib} MiB`;
}
