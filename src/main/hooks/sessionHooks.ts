import path from 'node:path';
import type { EventOf, SessionEvent } from '../../shared/events';
import type { Json } from '../../shared/json';
import { fileArgumentOf } from '../../shared/toolCatalog';
import type { ConfiguredHook, HookEvent } from './hookSettings';
import type { HookDecision } from '../permissions/hookDecision';
import { readHookAnswer, type HookAnswer } from './hookAnswer';
import { runHookCommand } from './runHookCommand';
import { hookToolName, matcherMatches } from './toolNames';

/**
 * A session's hooks: for an event, run every configured hook whose matcher names the tool, each with
 * Claude Code's JSON on stdin, log each run (`hook.ran`), and sum up what they answered: a block (exit
 * 2, with its stderr for the model), a decision about the call (deny beats ask beats allow), context
 * for the model, and the problems of hooks that failed. A failing hook never fails the session.
 *
 * Where hooks run: where hookPlacement.ts says. The person's hooks do what they do under Claude Code
 * (a log in the home folder, a desktop notification, the managed policy's audit log) outside the
 * fence when everything they run is known to come from outside the places the agent can write; a
 * hook that runs the workspace's code (`npx prettier` runs node_modules/.bin/prettier first, `npm run
 * lint` its scripts, `python3 -c` imports from the working folder), a project's hooks, and anything
 * Tether cannot read run inside the fence, as the session's commands do: the agent can change all of
 * that, in auto-edit mode without a question, so outside the fence it would be a way out. Where the
 * session's commands run outside the sandbox (turned off, or none available), so do its hooks. A
 * project's hooks run only once the person trusts its folder. Every hook gets the environment
 * commands get (workspace/commandEnvironment.ts), so no secret the fence hides reaches a hook.
 *
 * A managed policy's PreToolUse or PermissionRequest hook that fails (an error, a timeout, a program
 * that cannot start) blocks the call: the policy's guard did not answer, and a guard that fails open
 * is no guard. The person's and the project's failing hooks are reported and otherwise ignored, as
 * Claude Code does.
 */

export interface SessionHooksOptions {
  hooks: readonly ConfiguredHook[];
  sessionId: string;
  /** The session's folder: the hooks' working directory, and `cwd` and `CLAUDE_PROJECT_DIR` for them. */
  workspace: string;
  /** Whether the person trusts the project: its hooks run only then. */
  projectTrusted: boolean;
  /** The environment commands get, secrets left out. */
  env: Record<string, string>;
  /** Commits before it returns. */
  append(event: SessionEvent): unknown;
  /** Aborted when the person stops the session: a running hook is stopped, and no more start. */
  signal?: AbortSignal;
  /**
   * Where a hook runs: wrapped in the session's fence (the command sandbox), or outside it (with the
   * PATH to run it with). Absent where the session's commands run outside the sandbox (turned off, or
   * none available and the person chose to run commands anyway): hooks then run as those commands do.
   */
  place?: (hook: ConfiguredHook, cwd: string) => Promise<HookRunPlan>;
}

/** Where one hook runs: in the fence (what to run, what to add to its environment, what to do after), or outside it. */
export type HookRunPlan =
  | {
      where: 'fenced';
      command: string;
      env: Record<string, string>;
      /** After the hook ended: which fences it hit, said with its result. */
      finish(output: string, exitCode: number | null): { hits: ReadonlyArray<{ message: string }> };
    }
  | { where: 'outside'; pathEnv?: string };

/** What the hooks of one event came to. */
export interface HooksOutcome {
  /** A hook blocked: exit 2 (its stderr), or `decision: "block"`. What the model is told. */
  blocked?: string;
  /** Their say about a tool call, the strictest first. */
  decision?: HookDecision;
  /** Text for the model (`additionalContext`, or a SessionStart or UserPromptSubmit hook's plain output). */
  context: string[];
  /** Hooks that failed, in words a person reads on the tool card. */
  problems: string[];
}

export interface ToolCallFacts {
  callId: string;
  tool: string;
  args: unknown;
  /** PostToolUse: what the call returned. */
  response?: Json;
}

const STRICTNESS = { deny: 3, ask: 2, allow: 1 } as const;

export class SessionHooks {
  constructor(private readonly options: SessionHooksOptions) {}

  /** Whether any hook is configured for the event (trusted or not: an untrusted one is logged as not run). */
  has(event: HookEvent): boolean {
    return this.options.hooks.some((hook) => hook.event === event);
  }

  /** The hooks of a tool event (PreToolUse, PermissionRequest, PostToolUse) for one call. */
  forToolCall(event: 'PreToolUse' | 'PermissionRequest' | 'PostToolUse', call: ToolCallFacts): Promise<HooksOutcome> {
    const input: Record<string, Json> = {
      tool_name: hookToolName(call.tool),
      tool_input: toolInput(call.tool, call.args, this.options.workspace),
      tool_use_id: call.callId,
      ...(call.response !== undefined ? { tool_response: call.response } : {}),
    };
    return this.run(event, input, call.tool, call.callId);
  }

  /** The hooks of a session event (SessionStart, UserPromptSubmit, Stop). */
  forSession(event: 'SessionStart' | 'UserPromptSubmit' | 'Stop', input: Record<string, Json>): Promise<HooksOutcome> {
    return this.run(event, input);
  }

  private async run(event: HookEvent, fields: Record<string, Json>, tool?: string, callId?: string): Promise<HooksOutcome> {
    const { options } = this;
    const outcome: HooksOutcome = { context: [], problems: [] };
    const hooks = options.hooks.filter((hook) => hook.event === event && (tool === undefined || matcherMatches(hook.matcher, tool)));
    const stdin = JSON.stringify({ session_id: options.sessionId, cwd: options.workspace, hook_event_name: event, ...fields });
    for (const hook of hooks) {
      if (options.signal?.aborted) break;
      const ran = {
        type: 'hook.ran',
        hookEvent: event,
        source: hook.source,
        command: hook.command,
        ...(callId ? { callId } : {}),
      } as const;
      if (hook.source === 'project' && !options.projectTrusted) {
        options.append({ ...ran, result: 'untrusted', durationMs: 0 });
        continue;
      }
      let plan: HookRunPlan = { where: 'outside' };
      if (options.place) {
        try {
          plan = await options.place(hook, options.workspace);
        } catch (error) {
          // A hook never runs outside the fence the session's commands are held in.
          const problem = `The hook \`${hook.command}\` did not run: the sandbox hooks run in could not start (${(error as Error).message}).`;
          const guard = failsClosed(hook, event) ? blocking(event, hook, problem) : undefined;
          options.append({ ...ran, result: guard ? 'blocked' : 'failed', exitCode: null, durationMs: 0, problem });
          outcome.problems.push(problem);
          if (guard && outcome.blocked === undefined) outcome.blocked = guard.reason;
          if (guard?.decision) outcome.decision = guard.decision;
          continue;
        }
      }
      const fenced = plan.where === 'fenced' ? plan : undefined;
      const result = await runHookCommand({
        command: fenced?.command ?? hook.command,
        stdin,
        cwd: options.workspace,
        env: {
          ...options.env,
          ...(plan.where === 'outside' && plan.pathEnv !== undefined ? { PATH: plan.pathEnv } : {}),
          ...fenced?.env,
          CLAUDE_PROJECT_DIR: options.workspace,
          TETHER_PROJECT_DIR: options.workspace,
        },
        timeoutMs: hook.timeoutSeconds * 1000,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const fenceHits = fenced?.finish(result.stdout + result.stderr, result.exitCode).hits ?? [];
      const hitFence =
        fenceHits.length > 0 ? `The hook \`${hook.command}\` hit the fence: ${fenceHits.map((hit) => hit.message).join('; ')}.` : undefined;
      const read = withProblem(readHookAnswer(event, hook, result), hitFence);
      const answer = read.kind === 'failed' && failsClosed(hook, event) && !result.stopped ? blocking(event, hook, read.problem) : read;
      const forModel = sessionNote(event, answer);
      const logged: EventOf<'hook.ran'> = {
        ...ran,
        result: answer.kind,
        exitCode: result.exitCode,
        ...(options.place ? { sandboxed: fenced !== undefined } : {}),
        durationMs: result.durationMs,
        ...(answer.decision ? { decision: answer.decision.action } : {}),
        ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
        ...(answer.problem !== undefined ? { problem: answer.problem } : {}),
        ...(forModel !== undefined ? { context: forModel } : {}),
      };
      options.append(logged);
      if (answer.kind === 'blocked' && outcome.blocked === undefined)
        outcome.blocked = answer.reason ?? `Blocked by the hook \`${hook.command}\`.`;
      if (answer.decision && (!outcome.decision || STRICTNESS[answer.decision.action] > STRICTNESS[outcome.decision.action])) {
        outcome.decision = answer.decision;
      }
      outcome.context.push(...answer.context);
      if (answer.problem !== undefined) outcome.problems.push(answer.problem);
    }
    return outcome;
  }
}

/** The answer, with what else went wrong said too. */
function withProblem(answer: HookAnswer, problem: string | undefined): HookAnswer {
  if (problem === undefined) return answer;
  return { ...answer, problem: answer.problem === undefined ? problem : `${answer.problem}\n${problem}` };
}

/** A managed policy's guard that fails blocks the call: it did not answer, and a guard must not fail open. */
function failsClosed(hook: ConfiguredHook, event: HookEvent): boolean {
  return hook.source === 'managed' && (event === 'PreToolUse' || event === 'PermissionRequest');
}

function blocking(event: HookEvent, hook: ConfiguredHook, problem: string | undefined): HookAnswer {
  const reason = `${problem ?? `The managed policy's ${event} hook \`${hook.command}\` failed.`} It is the managed policy's guard, so the call is blocked until it answers.`;
  return { kind: 'blocked', decision: { action: 'deny', reason }, reason, context: [], ...(problem ? { problem } : {}) };
}

/**
 * What a session event's hook says to the model, logged on its hook.ran so the conversation holds it:
 * a SessionStart or UserPromptSubmit hook's context, a Stop hook's reason to go on. A tool event's
 * hooks speak in the call's result instead.
 */
function sessionNote(event: HookEvent, answer: HookAnswer): string | undefined {
  if (event === 'Stop') return answer.kind === 'blocked' ? answer.reason : undefined;
  if (event !== 'SessionStart' && event !== 'UserPromptSubmit') return undefined;
  return answer.context.length > 0 ? answer.context.join('\n') : undefined;
}

/**
 * The call's arguments as Claude Code's scripts read them: Tether's own, plus `file_path` (absolute)
 * for a tool that names one file (the catalog's `fileArgumentOf`), since Claude Code's Read, Edit and Write call it so.
 */
function toolInput(tool: string, args: unknown, workspace: string): Json {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return (args ?? null) as Json;
  const input = { ...(args as Record<string, Json>) };
  const argument = fileArgumentOf(tool);
  const file = argument === undefined ? undefined : input[argument];
  if (typeof file === 'string' && input.file_path === undefined) input.file_path = path.resolve(workspace, file);
  return input;
}
