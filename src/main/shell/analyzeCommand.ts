import type { CommandAnalysis } from './commandAnalysis';
import { isShellParserReady } from './parser';

export { initShellParser } from './parser';
import { ShellAnalysis } from './shellAnalysis';

export interface AnalyzeCommandOptions {
  /** Where the command runs (absolute, or relative to the workspace root). */
  cwd: string;
  /** The workspace root: programs found inside it are project code, never read-only. */
  workspaceRoot: string;
  /** The PATH the command will run with; process.env.PATH when not given. */
  pathEnv?: string;
}

/**
 * Finds every simple command a bash command line will run (inside &&, ||, ;, |, &, $( ), backticks,
 * <( ), >( ), subshells, groups, if/for/while/until/case, function bodies, bash -c '...', find
 * -exec, xargs, ...), strips wrappers to the real program, and says what it cannot pin down.
 * Synchronous; await initShellParser() once before the first call.
 */
export function analyzeCommand(command: string, options: AnalyzeCommandOptions): CommandAnalysis {
  if (!isShellParserReady()) {
    throw new Error(
      'analyzeCommand: the shell parser is not initialised; await initShellParser() once at start-up, then analyse commands.',
    );
  }
  return new ShellAnalysis({
    cwd: options.cwd,
    workspaceRoot: options.workspaceRoot,
    pathEnv: options.pathEnv ?? process.env.PATH ?? '',
  }).analyze(command);
}
