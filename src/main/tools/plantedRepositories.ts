import type { QuarantinedRepository } from '../../shared/events';
import { nestedRepositoryWatch } from '../workspace/nestedRepositories';
import type { ToolContext } from './defineTool';

/**
 * run_command's part in keeping planted repositories away from the person's own git: before the
 * first run the workspace's repositories are known (workspace/nestedRepositories.ts), after every run
 * (sandboxed, outside the sandbox, unsandboxed) what is new or changed is looked at and made harmless.
 * Each one is logged as `repository.quarantined` and told to the model at the end of the result.
 */
export function plantedRepositories(ctx: Pick<ToolContext, 'workspace' | 'quarantined'>, options: { onlyReads?: boolean } = {}) {
  const watch = nestedRepositoryWatch(ctx.workspace.root);
  const found: QuarantinedRepository[] = [];
  let problem: string | undefined;
  const failed = (error: unknown) => {
    problem = (error as Error).message ?? String(error);
  };
  return {
    /** Before a command runs. */
    async begin(): Promise<void> {
      await watch.begin().catch(failed);
    },
    /**
     * After a command ran (or failed to): looks, and records what it made harmless. A command the
     * shell analysis proves only reads writes nothing, so it is not looked after; whatever a process
     * left behind by an earlier command writes meanwhile is found after the next command that may write.
     */
    async check(): Promise<void> {
      if (options.onlyReads) return;
      let quarantined: QuarantinedRepository[];
      try {
        quarantined = await watch.check();
      } catch (error) {
        failed(error);
        return;
      }
      for (const repository of quarantined) {
        found.push(repository);
        try {
          ctx.quarantined?.(repository);
        } catch {
          // The log is closed (the session was stopped meanwhile): the result, if still read, says it.
        }
      }
    },
    /** For the end of the result: what was found and done, or that the look failed. */
    note(): string | undefined {
      const lines: string[] = [];
      if (found.length) lines.push(describeQuarantined(found));
      if (problem) lines.push(`[tether] Could not check the workspace for git repositories that run programs: ${problem}`);
      return lines.length ? lines.join('\n') : undefined;
    },
  };
}

/** The model's (and, on the tool card, the person's) account of what was made harmless. */
export function describeQuarantined(found: readonly QuarantinedRepository[]): string {
  const lines = [
    found.length === 1
      ? '[tether] After this command, a git repository in the workspace could run a program when the person’s own git looks at it (their `git status` enters every repository linked in the index). Tether made it harmless and deleted nothing:'
      : `[tether] After this command, ${found.length} git repositories in the workspace could run programs when the person’s own git looks at them (their \`git status\` enters every repository linked in the index). Tether made them harmless and deleted nothing:`,
  ];
  for (const repository of found) {
    const where = repository.path === '.' ? 'the workspace’s repository' : repository.path;
    const git = repository.gitDir === `${repository.path}/.git` ? '' : `, git folder ${repository.gitDir}`;
    lines.push(`- ${where} (${repository.found}${git}): ${repository.programs.join('; ')}.`);
    for (const { from, to } of repository.moved) lines.push(`  moved ${from} to ${to}`);
    for (const file of repository.rewritten) lines.push(`  wrote ${file} again without those settings`);
    if (repository.failed)
      lines.push(`  NOT made harmless: ${repository.failed}. The person must look at it before running git in the workspace.`);
  }
  lines.push('Tell the person what you created and why; do not put these back.');
  return lines.join('\n');
}
