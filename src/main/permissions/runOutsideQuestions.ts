import type { Json } from '../../shared/json';
import { describeFenceHits, type FenceHit } from '../sandbox/fenceHit';
import type { FollowUpQuestion } from './questions';
import { whatLineSends } from '../shell/commandProofs';

/**
 * The follow-up questions a command asks within its call, both about running outside the sandbox:
 * the approval gate asks them (`askFollowUp`, once at most, never always); run_command only says when.
 */

/** The command as it was allowed, and where it runs. */
export interface CommandAsAllowed {
  command: string;
  /** The `cwd` argument as given, if any. */
  cwd: string | undefined;
  /** The folder it runs in, absolute. */
  folder: string;
  workspaceRoot: string;
}

/** No sandbox is available: may the command run unsandboxed, with the person's full access? */
export function noSandboxQuestion(call: CommandAsAllowed, why: string): FollowUpQuestion {
  return {
    summary: call.command,
    reason: `No sandbox is available, so this command would run unsandboxed, with your full access. ${why}`,
    args: argsOf(call),
    sandbox: { kind: 'unavailable', reason: why, followUp: true },
  };
}

/**
 * The command hit the sandbox fence: may it run again outside? Outside, what the fence kept from it is
 * the command's to read, print, copy or send, so the question says where that would go: what it can
 * read goes back to the model (so to its provider), and what the line sends off the machine.
 */
export function fenceHitQuestion(call: CommandAsAllowed, hits: FenceHit[]): FollowUpQuestion {
  const fence = describeFenceHits(hits);
  const secrets = hits.filter((hit) => hit.fence === 'read').map((hit) => hit.target);
  const sends = whatLineSends(call.command, { cwd: call.folder, workspaceRoot: call.workspaceRoot });
  const exposure = [
    ...(secrets.length > 0
      ? [`Outside, it can read ${secrets.join(', ')}: what it prints goes back to the model, so to the model provider`]
      : []),
    ...(sends.length > 0 ? [`it sends data off this machine (${sends.join('; ')})`] : []),
  ];
  return {
    summary: `${call.command}  (outside the sandbox)`,
    reason: `This command hit the sandbox fence (${fence}). Run it again outside the sandbox?${exposure.length > 0 ? ` ${exposure.join(', and ')}.` : ''}`,
    args: argsOf(call),
    sandbox: {
      kind: 'fence_hit',
      reason: fence,
      followUp: true,
      ...(secrets.length > 0 ? { secrets } : {}),
      ...(sends.length > 0 ? { sends } : {}),
    },
  };
}

function argsOf(call: CommandAsAllowed): Json {
  return { command: call.command, ...(call.cwd ? { cwd: call.cwd } : {}) };
}
