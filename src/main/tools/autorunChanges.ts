import { gitAutorunWatch, type GitAutorunChange } from '../workspace/autorunInGit';
import { autorunWatch, type AutorunChange } from '../workspace/autorunWatch';
import type { ToolContext } from './defineTool';

/**
 * run_command's part in keeping what the person's tools run by themselves as the person left it
 * (workspace/autorunWatch.ts). A command run in the sandbox that creates or changes such a file hits
 * the fence: the new content goes to Tether's data folder, the previous one comes back, and the
 * result says which file and what would have run it. A command that ran with the person's full
 * access because they allowed exactly that (outside the sandbox after a question that said so, with
 * no sandbox available, or with the sandbox turned off for the run) is not undone: the person chose
 * to let it act as they would, and `npx husky init` or `git checkout other-branch` run that way are
 * theirs; the result still names the files, so neither the model nor the person misses it.
 */
export function autorunChanges(ctx: Pick<ToolContext, 'workspace'>, options: { command: string; onlyReads?: boolean }) {
  const watch = autorunWatch(ctx.workspace.root);
  const inGit = gitAutorunWatch(ctx.workspace.root);
  const quarantined: AutorunChange[] = [];
  const kept: AutorunChange[] = [];
  const takenBack: GitAutorunChange[] = [];
  const leftInGit: GitAutorunChange[] = [];
  let problem: string | undefined;
  const guarded = (step: () => void) => {
    if (options.onlyReads) return;
    try {
      step();
    } catch (error) {
      problem = (error as Error).message ?? String(error);
    }
  };
  return {
    /** Before a command runs. */
    begin(): void {
      guarded(() => watch.begin());
      guarded(() => inGit.begin());
    },
    /** After a command ran in the sandbox: what it made is quarantined, and what it put into git taken back out. */
    checkFenced(quarantine: string): void {
      guarded(() => quarantined.push(...watch.check({ quarantine, command: options.command })));
      guarded(() => takenBack.push(...inGit.check({ undo: true })));
    },
    /** After a command the person let run with their full access: what it made is named, and stays. */
    checkAllowed(): void {
      guarded(() => kept.push(...watch.check({})));
      guarded(() => leftInGit.push(...inGit.check({ undo: false })));
    },
    /** Whether the command hit the fence here. */
    hit(): boolean {
      return quarantined.length > 0 || takenBack.length > 0;
    },
    /** For the end of the result. */
    note(): string | undefined {
      const lines: string[] = [];
      if (quarantined.length > 0) {
        lines.push(
          `[tether] The command hit the fence: it ${quarantined.length === 1 ? 'wrote a file' : 'wrote files'} the person's own tools run by themselves, outside any sandbox. Tether quarantined ${quarantined.length === 1 ? 'it' : 'them'}:`,
        );
        for (const change of quarantined) {
          const fate = change.movedTo
            ? `Moved to ${change.movedTo}${change.restored ? '; the previous version was put back' : ''}`
            : 'NOT moved';
          lines.push(
            `- ${change.path} (${change.created ? 'created' : 'changed'}): ${change.runs}. ${fate}${change.problem ? `; ${change.problem}` : ''}.`,
          );
        }
        lines.push(
          'Such a file may be written only with the edit and write tools, which ask the person first and say what would run it. Tell the person what you tried to write and why.',
        );
      }
      if (kept.length > 0) {
        lines.push(
          '[tether] This command, run with the person’s full access as they allowed, wrote files their own tools run by themselves:',
        );
        for (const change of kept) lines.push(`- ${change.path} (${change.created ? 'created' : 'changed'}): ${change.runs}.`);
        lines.push('They were left as the command wrote them. Tell the person.');
      }
      if (takenBack.length > 0) {
        lines.push(
          "[tether] The command hit the fence: it put files the person's own tools run by themselves into git, where the person's next checkout, reset or switch would bring them into the work tree. Tether took them back out:",
        );
        for (const change of takenBack) lines.push(`- ${describeInGit(change)}`);
        lines.push(
          'Such a file may be written only with the edit and write tools, which ask the person first. Tell the person what you tried to commit and why.',
        );
      }
      if (leftInGit.length > 0) {
        lines.push(
          "[tether] This command, run with the person's full access as they allowed, put files their own tools run by themselves into git:",
        );
        for (const change of leftInGit) lines.push(`- ${describeInGit(change)}`);
        lines.push('They were left as the command made them. Tell the person.');
      }
      if (problem) lines.push(`[tether] Could not check the files the person's tools run by themselves: ${problem}`);
      return lines.length > 0 ? lines.join('\n') : undefined;
    },
  };
}

/** One line for a change in git: where, which files, what runs them, and what became of it. */
function describeInGit(change: GitAutorunChange): string {
  const where =
    change.where === 'the index'
      ? 'the index (staged)'
      : `${change.where}${change.commit ? ` (commit ${change.commit.slice(0, 12)})` : ''}`;
  const fate = change.problem
    ? `NOT taken back: ${change.problem}`
    : change.undone
      ? change.where === 'the index'
        ? 'the entries are back as they were'
        : `taken back: the ref is where it was, or gone if the command made it (the commit stays in git as ${change.commit})`
      : 'left as it is';
  return `${where}: ${change.paths.join(', ')} (${change.runs}). ${fate}.`;
}
