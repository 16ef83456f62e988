import path from 'node:path';
import type { SimpleCommand } from './commandAnalysis';
import { execOptionIn } from './execOptions';
import { isOpaqueRunner, runnerSubcommand } from './wrapperSpecs';

/**
 * Whether a simple command runs a program that no rule can see by its name: a runner the analysis
 * does not take apart (`flock … -c 'rm x'`, `fakeroot rm x`), a runner subcommand (`npm exec rm x`,
 * `uv run …`), or an option that hands it a program or code to run (`git rebase -x 'rm x'`,
 * `make --eval=…`). Like a program name only known when it runs, such a line could be what any deny
 * rule names, so the engine denies it whenever a run_command deny rule exists.
 */
export function hiddenProgram(command: SimpleCommand): string | undefined {
  const [first] = command.argv;
  if (first === undefined) return undefined;
  const program = path.posix.basename(first);
  if (isOpaqueRunner(program)) return `${program} runs a program taken from its arguments`;
  const runner = runnerSubcommand(command.argv);
  if (runner) return `${runner.words} runs whatever it is given`;
  const option = execOptionIn(command);
  if (option && option.effect !== 'writes files') return option.why;
  return undefined;
}
