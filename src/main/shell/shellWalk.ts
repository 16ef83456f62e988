import type { Node } from 'web-tree-sitter';
import type { ReadTarget, SimpleCommand } from './commandAnalysis';
import type { Frame, Stdin } from './invocation';
import type { ProgramResolver } from './programResolver';
import type { ShellVariables } from './shellVariables';
import type { WorkingDirectory } from './workingDirectory';

/**
 * The walk of one command line, as its parts see it (redirections.ts, arithmetic.ts,
 * variableAssignments.ts, commandInvocation.ts): what it has found so far, the line's state, and the
 * places in the tree the walk goes on from. ShellAnalysis is the one walk.
 */
export interface ShellWalk {
  /** Every simple command found, in order; a part may take back the ones it found (`splice`) to list them after its own. */
  readonly commands: SimpleCommand[];
  readonly reads: ReadTarget[];
  readonly variables: ShellVariables;
  readonly place: WorkingDirectory;
  readonly resolver: ProgramResolver;
  /** Functions the line defines, and every program name it runs, to find one shadowing the other. */
  readonly functions: Set<string>;
  readonly programNames: Set<string>;
  /** Why the line cannot be pinned down: one reason is enough to make it ask. */
  reason(text: string): void;
  /** Something the person should know. */
  note(text: string): void;
  /** A script of its own (bash -c, eval, backticks), parsed and walked. */
  script(source: string, frame: Frame): void;
  statement(node: Node, frame: Frame): void;
  pipeline(node: Node, frame: Frame, allFedByPipe: boolean): void;
  /** What runs or evaluates inside a word: substitutions, arithmetic, expansions that evaluate a value. */
  expressions(node: Node, frame: Frame, processStdin?: Stdin): void;
  substitution(node: Node, frame: Frame): void;
  expansion(node: Node, frame: Frame): void;
}
