import { z } from 'zod';
import type { ToolCallItem } from '../../shared/conversation';
import type { LiveEvent, QuarantinedRepository, ToolOutcome } from '../../shared/events';
import type { Json } from '../../shared/json';
import type { PlanStep } from '../../shared/plan';
import type { SandboxNote } from '../../shared/sandbox';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import type { SessionLog } from '../store/sessionLog';
import { ApprovalGate, safeSummary, type HookSay } from '../permissions/approvalGate';
import { commandTaint } from '../permissions/commandTaint';
import type { HooksOutcome, SessionHooks } from '../hooks/sessionHooks';
import type { Broker } from '../permissions/broker';
import type { GrantKeeper } from '../permissions/grant';
import type { Policy } from '../permissions/policyVerdict';
import type { Terminal } from '../terminal/terminal';
import type { Workspace } from '../workspace/workspace';
import { ToolError, type AnyTool, type FollowUpQuestion, type NetworkQuestion } from './defineTool';
import type { ToolRegistry } from './registry';
import { CappedText, DEFAULT_KEEP_CHARS } from '../process/cappedText';
import { pausableTimeout, TimeoutHold } from '../process/timeoutHold';

/**
 * The one runner every tool call goes through: find the tool, parse and validate its arguments,
 * pass the call through the approval gate (permissions/approvalGate.ts: the policy, and the person
 * when it asks), write the ledger, run with a timeout, and record the result. Whatever goes wrong
 * becomes the call's result, so the model can try another way.
 */

export interface ToolRunnerDeps {
  log: SessionLog;
  tools: ToolRegistry;
  policy: Policy;
  broker: Broker;
  workspace: Workspace;
  terminal: Terminal;
  /** Aborted when the person stops the session. */
  signal: AbortSignal;
  onLive(event: LiveEvent): void;
  /** The longest any call may run; run_command keeps its own, shorter, timeout inside it. */
  timeoutMs?: number;
  /** The permission rules' say on reading a file, for tools that read many (search_code). */
  canRead?(absolutePath: string): boolean;
  /** Stores an "Allow always" the person gave (the gate has checked it against the offer) and puts it in force. */
  grants?: GrantKeeper;
  /**
   * Runs after every call that ran (its result is recorded), before the next one: checkpoints hook in
   * here. It never fails the call: whatever it throws is dropped (it logs its own problems).
   */
  afterToolCall?(call: AfterToolCall): Promise<void>;
  /**
   * Runs once a call is allowed, just before it starts: checkpoints record the files here, so what
   * the call changed is told apart from what others changed before it. Never fails the call.
   */
  beforeToolCall?(call: AfterToolCall): Promise<void>;
  /**
   * The session's OS sandbox for commands; a dialog for a command says when none is available.
   * Required: a host that forgot it would run commands unfenced without telling anyone.
   */
  sandbox: CommandSandbox;
  /** The session's hooks (PreToolUse, PermissionRequest, PostToolUse run here); none when absent. */
  hooks?: SessionHooks;
  /** A workspace file as the session's first snapshot has it (see ApprovalGateDeps). */
  fileAtSessionStart?(relativePath: string): Promise<string | null | undefined>;
}

/** A call that ran, as afterToolCall sees it. */
export interface AfterToolCall {
  callId: string;
  tool: AnyTool;
  /** The arguments it ran with (the person's edit of them, when they made one). */
  args: unknown;
  /** A PostToolUse hook ran after it (and may have changed files of its own accord). */
  hooked: boolean;
}

const DEFAULT_TOOL_TIMEOUT_MS = 11 * 60_000;

export async function executeToolCall(call: ToolCallItem, deps: ToolRunnerDeps): Promise<void> {
  const started = performance.now();
  // Every question about this call goes through the gate, which counts the time it waits for a
  // person: that time is not the call's and is shown apart (an edit that waited 40 s did not take 40 s).
  let gate: ApprovalGate | undefined;
  // A result: what comes next appends before it acts (the next call, the next request).
  const finish = (outcome: ToolOutcome, title: string, output: string, metadata?: Json): void => {
    const waitedMs = gate?.waitedMs ?? 0;
    deps.log.record({
      type: 'tool.finished',
      callId: call.callId,
      name: call.name,
      outcome,
      title,
      output,
      durationMs: Math.max(0, Math.round(performance.now() - started) - waitedMs),
      ...(waitedMs > 0 ? { waitedMs } : {}),
      ...(metadata === undefined ? {} : { metadata }),
    });
  };

  const tool = deps.tools.get(call.name);
  if (!tool) {
    finish(
      'error',
      `Unknown tool ${call.name}`,
      `There is no tool named "${call.name}". Available tools: ${deps.tools.names().join(', ')}.`,
    );
    return;
  }
  const parsed = parseArguments(tool, call.arguments);
  if (!parsed.ok) {
    finish('error', `Invalid arguments for ${tool.name}`, parsed.message);
    return;
  }
  const args = parsed.args;

  gate = new ApprovalGate(
    {
      log: deps.log,
      policy: deps.policy,
      broker: deps.broker,
      workspace: deps.workspace,
      sandbox: deps.sandbox,
      signal: deps.signal,
      ...(deps.grants ? { grants: deps.grants } : {}),
      ...(deps.fileAtSessionStart ? { fileAtSessionStart: deps.fileAtSessionStart } : {}),
    },
    call.callId,
    tool,
  );
  const { hooks } = deps;
  const facts = { callId: call.callId, tool: tool.name, args };
  const before = hooks?.has('PreToolUse') ? await hooks.forToolCall('PreToolUse', facts) : undefined;
  const say: HookSay = {
    ...(before?.decision ? { decision: before.decision } : {}),
    ...(hooks?.has('PermissionRequest') ? { onRequest: async () => (await hooks.forToolCall('PermissionRequest', facts)).decision } : {}),
  };
  const permission = await gate.check(args, say);
  if (permission.action === 'refuse') {
    finish(permission.outcome, permission.title, withHookNotes(permission.message, mergeOutcomes(before, undefined)));
    return;
  }
  // What runs is what the person allowed: the model's arguments, or their edit of them.
  const allowed = permission.args;
  if (deps.signal.aborted) {
    finish('aborted', `Not run: ${safeSummary(tool, allowed)}`, 'Not run: the session was stopped before this call started.');
    return;
  }

  if (deps.beforeToolCall) {
    try {
      await deps.beforeToolCall({ callId: call.callId, tool, args: allowed, hooked: false });
    } catch {
      // As afterToolCall: the hook reports its own failures.
    }
    if (deps.signal.aborted) {
      finish('aborted', `Not run: ${safeSummary(tool, allowed)}`, 'Not run: the session was stopped before this call started.');
      return;
    }
  }
  deps.log.append({
    type: 'tool.started',
    callId: call.callId,
    name: tool.name,
    args: allowed as Json,
    ...(permission.allowedBy ? { allowedBy: permission.allowedBy } : {}),
  });
  const result = await runWithTimeout(tool, allowed, call.callId, deps, gate, permission.sandboxNote, permission.approvedFile);
  // As Claude Code's: PostToolUse hooks run after a call that succeeded, and what they say goes to the model with its result.
  const after =
    result.outcome === 'ok' && hooks?.has('PostToolUse')
      ? await hooks.forToolCall('PostToolUse', {
          ...facts,
          args: allowed,
          response: { title: result.title, output: result.output, success: true },
        })
      : undefined;
  // The note comes first so trimming, which keeps the head, never cuts it from what the model reads.
  const output = withHookNotes(
    permission.editNote ? `${permission.editNote}\n\n${result.output}` : result.output,
    mergeOutcomes(before, after),
  );
  finish(result.outcome, result.title, output, result.metadata);
  // What the tool brought in is outside content whether or not it "succeeded" (an error page is a page too).
  const taint =
    result.outcome === 'ok' || result.outcome === 'error'
      ? (tool.taints?.(allowed as never) ?? commandTaint(tool, allowed, permission, result.metadata, deps.sandbox))
      : undefined;
  if (taint && !deps.log.state.taints.includes(taint)) {
    deps.log.record({ type: 'session.tainted', callId: call.callId, reason: taint });
  }
  if (deps.afterToolCall) {
    try {
      await deps.afterToolCall({ callId: call.callId, tool, args: allowed, hooked: after !== undefined });
    } catch {
      // The call's result is logged and stands; the hook reports its own failures in the log.
    }
  }
}

/**
 * What the hooks said that the model and the person should read with the result: a PostToolUse
 * block's reason (the call already ran), context they added, and the hooks that failed.
 */
function withHookNotes(output: string, said: HooksOutcome | undefined): string {
  if (!said) return output;
  const notes = [
    ...(said.blocked !== undefined ? [`A PostToolUse hook objected: ${said.blocked}`] : []),
    ...said.context.map((text) => `A hook added: ${text}`),
    ...said.problems,
  ];
  return notes.length > 0 ? `${output}\n\n${notes.join('\n')}` : output;
}

/** The notes of both: a PreToolUse block is already the refusal's message, so only PostToolUse's counts here. */
function mergeOutcomes(before: HooksOutcome | undefined, after: HooksOutcome | undefined): HooksOutcome | undefined {
  if (!before && !after) return undefined;
  return {
    ...(after?.blocked !== undefined ? { blocked: after.blocked } : {}),
    context: [...(before?.context ?? []), ...(after?.context ?? [])],
    problems: [...(before?.problems ?? []), ...(after?.problems ?? [])],
  };
}

type Parsed = { ok: true; args: unknown } | { ok: false; message: string };

function parseArguments(tool: AnyTool, text: string): Parsed {
  let raw: unknown;
  try {
    // Some servers send no arguments at all for a tool that takes none.
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    const preview = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return {
      ok: false,
      message: `The arguments for ${tool.name} are not valid JSON (${(error as Error).message}). You sent: ${preview}\nSend one JSON object that matches the tool's parameters.`,
    };
  }
  const result = tool.parameters.safeParse(raw);
  if (!result.success) {
    return {
      ok: false,
      message: `Invalid arguments for ${tool.name}:\n${z.prettifyError(result.error)}\nFix the arguments and call ${tool.name} again.`,
    };
  }
  return { ok: true, args: result.data };
}

interface RunResult {
  outcome: ToolOutcome;
  title: string;
  output: string;
  metadata?: Json;
}

async function runWithTimeout(
  tool: AnyTool,
  args: unknown,
  callId: string,
  deps: ToolRunnerDeps,
  gate: ApprovalGate,
  approvedWith?: SandboxNote,
  approvedFile?: { hash: string },
): Promise<RunResult> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  // The call's time stands still while a question within it waits for a person.
  const hold = new TimeoutHold();
  const timeout = new AbortController();
  const cancelTimeout = pausableTimeout(
    timeoutMs,
    () => timeout.abort(new DOMException(`The call took longer than ${timeoutMs} ms`, 'TimeoutError')),
    hold,
  );
  const signal = AbortSignal.any([deps.signal, timeout.signal]);
  const { log } = deps;
  // What a call printed so far, for when it is stopped before it returns: capped like the terminal's
  // own copy, so a flood of output stopped with Ctrl-C is a result, not an out-of-memory crash.
  const collected = new CappedText(DEFAULT_KEEP_CHARS);
  const ctx = {
    workspace: deps.workspace,
    terminal: deps.terminal,
    sessionId: log.sessionId,
    callId,
    signal,
    onOutput(chunk: string) {
      collected.push(chunk);
      deps.onLive({ type: 'tool.output', sessionId: log.sessionId, callId, chunk });
    },
    setPlan(steps: PlanStep[]) {
      log.record({ type: 'plan.updated', steps });
    },
    quarantined(repository: QuarantinedRepository) {
      log.record({ type: 'repository.quarantined', callId, ...repository });
    },
    canRead: deps.canRead ?? (() => true),
    ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
    ...(approvedWith ? { approvedWith } : {}),
    ...(approvedFile ? { approvedFile } : {}),
    confirm: (question: FollowUpQuestion) => hold.during(() => gate.askFollowUp(question, signal)),
    askNetwork: (question: NetworkQuestion) => hold.during(() => gate.askNetwork(question, signal)),
  };
  const stopped = new Promise<'stopped'>((resolve) => {
    if (signal.aborted) resolve('stopped');
    signal.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  try {
    // Stopped before it started (while its files were recorded, say): it never starts, since a tool
    // that ignores its signal (a file write) would otherwise act under an "aborted" result.
    // `args` is the output of this tool's own schema (parseArguments), which is what execute takes.
    const running = signal.aborted ? new Promise<never>(() => {}) : tool.execute(args as never, ctx);
    running.catch(() => {}); // if the race below is lost, a late failure has nowhere to go
    // A tool that ignores its signal must not hold the session: the race returns at once.
    const result = await Promise.race([running, stopped]);
    if (result !== 'stopped') {
      return { outcome: result.isError ? 'error' : 'ok', title: result.title, output: result.output, metadata: result.metadata };
    }
  } catch (error) {
    if (!signal.aborted) {
      const message = error instanceof ToolError ? error.message : `${tool.name} failed: ${(error as Error).message ?? String(error)}`;
      return { outcome: 'error', title: `${tool.name} failed`, output: message };
    }
  } finally {
    cancelTimeout();
  }
  const partial = collected.toString();
  if (deps.signal.aborted) {
    return {
      outcome: 'aborted',
      title: `Stopped: ${tool.name}`,
      output: `${partial}\nStopped by the person before ${tool.name} finished.`.trimStart(),
    };
  }
  return {
    outcome: 'error',
    title: `Timed out: ${tool.name}`,
    output: `${partial}\n${tool.name} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`.trimStart(),
  };
}
