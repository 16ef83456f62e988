import { findExecOption } from './execOptions';
import { LOCAL, READS, UNKNOWN, type InvocationClass } from './invocationClass';
import { readArguments } from './readArguments';
import { readOnlyProgram, type ArgumentRead } from './readOnlyPrograms';
import type { Word } from './readWord';

export interface InvocationContext {
  /** Where the command runs is known to be inside the workspace (no `cd` elsewhere earlier in the line). */
  cwdInWorkspace: boolean;
  /** Whether a directory argument (cd, git -C) stays inside the workspace. */
  directoryInWorkspace(dir: string): boolean;
}

/**
 * Builtins that only change the shell's own state (variables, options, flow). What could make them
 * dangerous (a variable that changes what runs, set -k, mapfile -C, a trap's action) is judged by the
 * analysis before it gets here.
 */
export const SHELL_STATE: readonly string[] = [
  'read',
  'getopts',
  'shift',
  'set',
  'shopt',
  'wait',
  'exit',
  'return',
  'break',
  'continue',
  'times',
  'jobs',
  'dirs',
  'let',
  'mapfile',
  'readarray',
  'trap',
  'unalias',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
];

/** Change files or processes on this machine, and start nothing else. */
const LOCAL_ONLY = new Set([
  'mkdir',
  'rmdir',
  'rm',
  'cp',
  'mv',
  'touch',
  'chmod',
  'chown',
  'chgrp',
  'ln',
  'tee',
  'install',
  'truncate',
  'mktemp',
  'split',
  'csplit',
  'patch',
  'gzip',
  'gunzip',
  'zcat',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'zstd',
  'unzstd',
  'unzip',
  'kill',
  'ps',
  'clear',
  'tsc',
  'pushd',
  'popd',
  'umask',
  'ulimit',
  'hash',
  'exec',
  'alias',
  'builtin',
  'disown',
  'bg',
  'fg',
]);

/** How a program was judged, with what the table of read-only programs read in its words. */
export interface Classified extends InvocationClass {
  /** The words that name files it reads, for a program on the read-only list (readArguments). */
  reads?: ArgumentRead[];
  /** Why a program on the read-only list is not read-only, when the person should know (an option it does not know). */
  why?: string;
}

/**
 * Classifies `name args...`, where name is the program's base name (`/usr/bin/rg` is rg). A program on
 * the read-only list is read by its entry in the table (readOnlyPrograms.ts); the others are known
 * by name only.
 */
export function classifyInvocation(name: string, args: readonly Word[], context: InvocationContext): Classified {
  const reading = readArguments(name, args, context);
  if (reading) {
    const { readOnly, local } = reading.class;
    return reading.why === undefined
      ? { readOnly, local, reads: reading.reads }
      : { readOnly, local, reads: reading.reads, why: reading.why };
  }
  if (SHELL_STATE.includes(name)) return READS;
  if (LOCAL_ONLY.has(name)) return LOCAL;
  if (name === 'tar') return tar(args);
  return UNKNOWN;
}

/** True for programs whose arguments the read-only list judges (for tests and documentation). */
export function isOnReadOnlyList(name: string): boolean {
  return readOnlyProgram(name) !== undefined;
}

/**
 * tar writes (local), or starts other programs: the options the exec-option table lists for it do
 * (`--to-command`, `-I`, in the old style `tar cIf` too), and an archive named host:path is fetched
 * over rsh/ssh.
 */
function tar(args: readonly Word[]): InvocationClass {
  const values: string[] = [];
  for (const arg of args) {
    if (arg.kind !== 'literal') return UNKNOWN;
    values.push(arg.text);
  }
  if (findExecOption(['tar', ...values])) return UNKNOWN;
  return values.some((value) => /^[^/.-][^/]*:/.test(value)) ? UNKNOWN : LOCAL;
}
