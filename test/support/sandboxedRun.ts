import type { CommandSandbox } from '../../src/main/sandbox/commandSandbox';
import type { Terminal } from '../../src/main/terminal/terminal';

/**
 * Runs `command` in a session's sandbox through the PTY, as run_command does for a line the shell
 * analysis judged local (or not), and returns what the terminal and the fence's finish saw.
 */
export async function runSandboxed(sandbox: CommandSandbox, terminal: Terminal, command: string, cwd: string, staysLocal: boolean) {
  const prepared = await sandbox.wrap(command, cwd, { staysLocal });
  const result = await terminal.run({
    command: prepared.command,
    env: prepared.env,
    cwd,
    timeoutMs: 30_000,
    signal: new AbortController().signal,
  });
  return { ...result, ...prepared.finish(result.output, result.exitCode) };
}
