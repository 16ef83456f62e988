import type { SimpleCommand } from './commandAnalysis';
import type { InvocationClass } from './invocationClass';
import type { Invocation } from './invocation';
import type { ProgramLocation } from './programResolver';

/**
 * A simple command as the analysis lists it: read-only only when its program is a builtin or a
 * system program, judged read-only by its words, writing no file, and run where the analysis knows.
 */
export function recordedCommand(
  argv: string[],
  invocation: Invocation,
  classification: InvocationClass,
  location: ProgramLocation,
  facts: Pick<SimpleCommand, 'unknownArgs' | 'argumentsAppended'> = {},
): SimpleCommand {
  const trusted = location.kind === 'builtin' || location.kind === 'system';
  const writes = [...invocation.writes];
  const readOnly =
    classification.readOnly &&
    trusted &&
    writes.length === 0 &&
    invocation.blockReadOnly === null &&
    !invocation.changesDirectory &&
    !invocation.placeholder;
  const local = classification.local && trusted;
  return {
    argv,
    wrappers: [...invocation.wrappers],
    assignments: [...invocation.assignments],
    readOnly,
    mayReachNetwork: !(readOnly || local),
    writesTo: writes,
    ...(invocation.stdin === 'file' && invocation.stdinFile !== undefined ? { readsFrom: invocation.stdinFile } : {}),
    ...(invocation.stdin === 'pipe' ? { fedByPipe: true } : {}),
    // What the program would be without its redirections, so a person reads `cat a > b` as reading a and writing b.
    ...(!readOnly && classification.readOnly && trusted && writes.length > 0 ? { readsBesideWrites: true } : {}),
    ...facts,
  };
}

/** A statement that is only redirections (`> out.txt`, `$(> file)`): nothing runs, but a file is still created or emptied. */
export function redirectionsOnly(wrappers: readonly string[], assignments: readonly string[], writes: readonly string[]): SimpleCommand {
  return {
    argv: [],
    wrappers: [...wrappers],
    assignments: [...assignments],
    readOnly: false,
    mayReachNetwork: false,
    writesTo: [...writes],
  };
}
