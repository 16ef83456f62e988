import { ToolError } from '../defineTool';

/**
 * Writes into a `.git` folder can corrupt the repository or plant hooks that run later, so they
 * are refused outright until the permission engine can ask a person about them.
 */
export function refuseGitDir(tool: string, relative: string): void {
  if (relative.split('/').includes('.git')) {
    throw new ToolError(
      `${tool}: ${relative} is inside a .git folder; changing git's own files is not allowed. ` +
        'Change the working files instead, and use git commands (run_command) for repository operations.',
    );
  }
}
