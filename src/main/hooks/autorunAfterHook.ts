import type { SandboxedRun, SandboxRunOutcome } from '../sandbox/commandSandbox';
import type { FenceHit } from '../sandbox/fenceHit';
import { gitAutorunWatch } from '../workspace/autorunInGit';
import { autorunWatch } from '../workspace/autorunWatch';

/**
 * A hook that runs inside the fence (a project's, or one that runs the workspace's code) is a command
 * like the agent's: what it writes among the files the person's tools run by themselves is looked at
 * after it ends and quarantined (workspace/autorunWatch.ts), and said as a fence hit on its hook.ran.
 * Called once the hook's run is wrapped, just before it starts.
 */
export function watchingAutorunFiles(run: SandboxedRun, options: { workspace: string; quarantine: string; command: string }): SandboxedRun {
  const watch = autorunWatch(options.workspace);
  const inGit = gitAutorunWatch(options.workspace);
  watch.begin();
  inGit.begin();
  return {
    ...run,
    finish(output, exitCode): SandboxRunOutcome {
      const outcome = run.finish(output, exitCode);
      const changes = watch.check({ quarantine: options.quarantine, command: options.command });
      const hits: FenceHit[] = changes.map((change) => ({
        fence: 'write',
        target: change.path,
        message: `the hook ${change.created ? 'created' : 'changed'} ${change.path} (${change.runs}, outside any sandbox); ${change.movedTo ? `Tether moved it to ${change.movedTo}${change.restored ? ' and put the previous version back' : ''}` : `it could not be moved (${change.problem ?? 'unknown'})`}`,
      }));
      for (const change of inGit.check({ undo: true })) {
        hits.push({
          fence: 'write',
          target: change.paths[0]!,
          message: `the hook put ${change.paths.join(', ')} into ${change.where === 'the index' ? 'the index' : `${change.where}${change.commit ? ` (commit ${change.commit.slice(0, 12)})` : ''}`} (${change.runs}, outside any sandbox, on your next checkout); ${change.undone ? 'Tether took it back out' : `it could not be taken back (${change.problem ?? 'unknown'})`}`,
        });
      }
      return { ...outcome, hits: [...outcome.hits, ...hits] };
    },
  };
}
