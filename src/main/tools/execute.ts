import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { ToolCallItem } from '../../shared/conversation';
import type { LiveEvent, QuarantinedRepository, ToolOutcome } from '../../shared/events';
import type { FileChange } from '../../shared/fileChange';
import type { Json } from '../../shared/json';
import type { Decision } from '../../shared/permissions';
import type { PlanStep } from '../../shared/plan';
import type { SandboxNote } from '../../shared/sandbox';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import { isShuttingDown } from '../terminal/shuttingDown';
import type { SessionLog } from '../store/sessionLog';
import type { Broker } from '../permissions/broker';
import type { Grant } from '../permissions/grant';
import { validateAllowAlwaysRule } from '../permissions/allowAlways';
import type { AllowAlwaysOffer, Policy, PolicyVerdict } from '../permissions/policy';
import type { Terminal } from '../terminal/terminal';
import type { Workspace } from '../workspace/workspace';
import { ToolError, type AnyTool, type FollowUpAnswer, type FollowUpQuestion, type NetworkAnswer, type NetworkQuestion } from './defineTool';
import { describeEdit } from './describeEdit';
import type { ToolRegistry } from './registry';
import { CappedText, DEFAULT_KEEP_CHARS } from '../terminal/cappedText';
import { pausableTimeout, TimeoutHold } from '../terminal/timeoutHold';
import { isPackageRegistry } from '../sandbox/packageRegistries';

/**
 * The one runner every tool call goes through: find the tool, parse and validate its arguments,
 * ask the policy (and, when it asks, the broker), write the ledger, run with a timeout, and record
 * the result. Whatever goes wrong becomes the call's result, so the model can try another way.
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
  /** Remembers an "Allow always" the person gave (the rule is already checked against the offer). */
  onGrant?(grant: Grant): void;
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
}

/** A call that ran, as afterToolCall sees it. */
export interface AfterToolCall {
  callId: string;
  tool: AnyTool;
}

const DEFAULT_TOOL_TIMEOUT_MS = 11 * 60_000;

export async function executeToolCall(call: ToolCallItem, runnerDeps: ToolRunnerDeps): Promise<void> {
  const started = performance.now();
  // Every question about this call goes through the broker: the time it waits there is the person's,
  // not the call's, and is shown apart (an edit that waited 40 s for an answer did not take 40 s).
  let waited = 0;
  const broker = runnerDeps.broker;
  const deps: ToolRunnerDeps = {
    ...runnerDeps,
    broker: {
      decide: async (request, signal) => {
        const asked = performance.now();
        try {
          return await broker.decide(request, signal);
        } finally {
          waited += performance.now() - asked;
        }
      },
    },
  };
  // A result: what comes next appends before it acts (the next call, the next request).
  const finish = (outcome: ToolOutcome, title: string, output: string, metadata?: Json): void => {
    const waitedMs = Math.round(waited);
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

  const permission = await askPermission(call, tool, args, deps);
  if (permission.action === 'refuse') {
    finish(permission.outcome, permission.title, permission.message);
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
      await deps.beforeToolCall({ callId: call.callId, tool });
    } catch {
      // As afterToolCall: the hook reports its own failures.
    }
  }
  deps.log.append({ type: 'tool.started', callId: call.callId, name: tool.name, args: allowed as Json });
  const result = await runWithTimeout(tool, allowed, call.callId, deps, permission.sandboxNote, permission.approvedFile);
  // The note comes first so trimming, which keeps the head, never cuts it from what the model reads.
  const output = permission.editNote ? `${permission.editNote}\n\n${result.output}` : result.output;
  finish(result.outcome, result.title, output, result.metadata);
  // What the tool brought in is outside content whether or not it "succeeded" (an error page is a page too).
  const taint = result.outcome === 'ok' || result.outcome === 'error' ? (tool.taints?.(allowed as never) ?? commandTaint(tool, allowed, permission, result.metadata, deps.sandbox)) : undefined;
  if (taint && !deps.log.state.taints.includes(taint)) {
    deps.log.record({ type: 'session.tainted', callId: call.callId, reason: taint });
  }
  if (deps.afterToolCall) {
    try {
      await deps.afterToolCall({ callId: call.callId, tool });
    } catch {
      // The call's result is logged and stands; the hook reports its own failures in the log.
    }
  }
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

/**
 * The gate's verdict on one call: run it (with the arguments the person allowed, and what to tell the
 * model about their edit), or do not, with the outcome and result the ledger records.
 */
type Permission =
  | ({ action: 'allow'; args: unknown; editNote?: string; sandboxNote?: SandboxNote; approvedFile?: { hash: string } } & OutsideContent)
  | { action: 'refuse'; outcome: Extract<ToolOutcome, 'denied' | 'error'>; title: string; message: string };

/** What the verdict says about what the call brings in, for the taint after it ran. */
type OutsideContent = Pick<PolicyVerdict, 'egress' | 'readsOutside'>;

function outsideContent(verdict: PolicyVerdict): OutsideContent {
  return { ...(verdict.egress ? { egress: true } : {}), ...(verdict.readsOutside !== undefined ? { readsOutside: verdict.readsOutside } : {}) };
}

/** What became of the person's edit: nothing changed after all, not valid for the tool, or a changed call. */
type Edit = { kind: 'unchanged' } | { kind: 'invalid'; problem: string } | { kind: 'changed'; args: unknown };

function checkEdit(tool: AnyTool, args: unknown, edited: Json): Edit {
  const result = tool.parameters.safeParse(edited);
  if (!result.success) return { kind: 'invalid', problem: z.prettifyError(result.error) };
  return isDeepStrictEqual(result.data, args) ? { kind: 'unchanged' } : { kind: 'changed', args: result.data };
}

async function askPermission(call: ToolCallItem, tool: AnyTool, args: unknown, deps: ToolRunnerDeps): Promise<Permission> {
  const { log, broker } = deps;
  const taint = log.state.taints.length > 0 ? log.state.taints.join('; ') : undefined;
  const evaluate = (callArgs: unknown) =>
    deps.policy.evaluate({
      sessionId: log.sessionId,
      callId: call.callId,
      tool,
      args: callArgs,
      ...(taint ? { taint } : {}),
      ...(tool.mcpReadOnly ? { mcpReadOnly: true } : {}),
    });
  const verdict = evaluate(args);
  if (verdict.action !== 'ask') {
    // A question asked before a restart that the rules now settle (a rule added, the folder trusted
    // meanwhile) is answered by them, so it leaves the inbox and the session is no longer waiting.
    answerPendingQuestions(log, call.callId, { action: verdict.action, scope: 'once', by: 'policy' });
    return verdict.action === 'allow' ? { action: 'allow', args, ...outsideContent(verdict) } : refused(tool, args, deniedBy(verdict));
  }

  // A request asked before a restart is still the person's to answer: wait for it, do not ask twice.
  const existing = log.state.toolCalls[call.callId]?.approvalId;
  const approvalId = existing && !log.state.approvals[existing]?.decision ? existing : randomUUID();
  const summary = safeSummary(tool, args);
  const shownNote = unsandboxedNote(tool, deps.sandbox);
  // The diff the person is shown is against the file as it is now; the call checks it is still so.
  const change = approvalId !== existing ? await previewChange(tool, args, deps.workspace) : log.state.approvals[approvalId]?.change;
  const approvedFile = change ? { approvedFile: { hash: change.hash } } : {};
  if (approvalId !== existing) {
    log.append({
      type: 'approval.asked',
      approvalId,
      callId: call.callId,
      tool: tool.name,
      risk: tool.risk,
      summary,
      args: args as Json,
      reason: verdict.reason,
      ...(verdict.commands !== undefined ? { commands: verdict.commands } : {}),
      ...(verdict.allowAlways ? { allowAlways: verdict.allowAlways } : {}),
      ...(verdict.taint ? { taint: verdict.taint } : {}),
      ...(shownNote ? { sandbox: shownNote } : {}),
      ...(verdict.parts !== undefined ? { parts: verdict.parts } : {}),
      ...(change ? { change } : {}),
    });
  }
  let decision;
  try {
    decision = await broker.decide(
      {
        approvalId,
        sessionId: log.sessionId,
        callId: call.callId,
        tool: tool.name,
        risk: tool.risk,
        summary,
        args: args as Json,
        reason: verdict.reason,
      },
      deps.signal,
    );
  } catch (error) {
    if (!deps.signal.aborted) throw error;
    // Closing the app leaves the question open for next time: nothing is written.
    if (isShuttingDown(deps.signal)) throw deps.signal.reason;
    return refused(tool, args, 'Not run: the session was stopped while this call waited for approval.');
  }
  const edit = decision.action === 'allow' && decision.editedArgs !== undefined ? checkEdit(tool, args, decision.editedArgs) : undefined;
  decision = edit && edit.kind !== 'unchanged' ? editedOnce(decision) : withinOffer(withoutEdit(decision), verdict.allowAlways);
  // Only a person's allow, given on a dialog that said there is no sandbox, covers running unsandboxed;
  // a headless stand-in's does not, so the command asks again about that (and is refused).
  const sandboxNote = decision.by === 'person' ? shownNote : undefined;
  // The call starts (tool.started) or is refused (tool.finished) next; a rule is a write that commits.
  log.record({ type: 'approval.answered', approvalId, callId: call.callId, decision });
  if (decision.action === 'deny') {
    const who = decision.by === 'person' ? 'The person denied this call.' : 'Denied.';
    return refused(tool, args, decision.message ? `${who} ${decision.message}` : `${who} Try another way, or ask what they want.`);
  }
  if (edit?.kind === 'invalid') {
    return {
      action: 'refuse',
      outcome: 'error',
      title: `Not run: the person's edit of ${tool.name} was invalid`,
      message:
        `The person edited the arguments of this ${tool.name} call before allowing it, but the edited arguments are invalid, so nothing was run:\n` +
        `${edit.problem}\nCall ${tool.name} again if it is still needed, or ask the person what they want.`,
    };
  }
  if (edit?.kind === 'changed') {
    // The person approved this exact call, so an ask counts as answered; a deny rule still wins over them.
    const again = evaluate(edit.args);
    if (again.action === 'deny') {
      return refused(tool, edit.args, `${describeEdit(tool.name, asObject(args), asObject(edit.args), false)}\nThe changed call was not run. ${deniedBy(again)}`);
    }
    // The dialog the person edited in said there is no sandbox: their allow covers that too.
    return {
      action: 'allow',
      args: edit.args,
      editNote: describeEdit(tool.name, asObject(args), asObject(edit.args), true),
      ...(sandboxNote ? { sandboxNote } : {}),
      ...approvedFile,
      ...outsideContent(again),
    };
  }
  if (decision.scope !== 'once' && decision.rule) deps.onGrant?.({ approvalId, rule: decision.rule, scope: decision.scope });
  return { action: 'allow', args, ...(sandboxNote ? { sandboxNote } : {}), ...approvedFile, ...outsideContent(verdict) };
}

/** The file a call would change, as the request shows it; a preview that fails leaves the request without a diff, never fails the call. */
async function previewChange(tool: AnyTool, args: unknown, workspace: Workspace): Promise<FileChange | undefined> {
  if (!tool.preview) return undefined;
  try {
    return await tool.preview(args as never, workspace);
  } catch {
    return undefined;
  }
}

/** For a command, when no sandbox is available: the dialog says so (and the person's allow covers it). */
function unsandboxedNote(tool: AnyTool, sandbox: CommandSandbox | undefined): SandboxNote | undefined {
  if (tool.risk !== 'exec' || !sandbox || sandbox.off || sandbox.availability.available || sandbox.unavailable === 'refuse') return undefined;
  return { kind: 'unavailable', reason: sandbox.availability.reason };
}

/**
 * A second question a tool asks within its call (run a command again outside the sandbox?). It is its
 * own approval in the log, and it is answered once: no rule is ever created from it, so nothing that
 * runs outside the fence is remembered as "always", tainted session or not.
 */
async function askFollowUp(callId: string, tool: AnyTool, question: FollowUpQuestion, deps: ToolRunnerDeps, signal: AbortSignal): Promise<FollowUpAnswer> {
  const { log } = deps;
  const approvalId = randomUUID();
  const request = { approvalId, callId, tool: tool.name, risk: tool.risk, summary: question.summary, args: question.args, reason: question.reason };
  log.append({
    type: 'approval.asked',
    ...request,
    allowAlways: { refused: 'Running outside the sandbox is allowed once at a time, never always.' },
    sandbox: question.sandbox,
  });
  let decision: Decision;
  try {
    // Every follow-up question is about running outside the sandbox.
    decision = await deps.broker.decide({ ...request, sessionId: log.sessionId, leavesFence: true }, signal);
  } catch (error) {
    if (!signal.aborted) throw error;
    if (isShuttingDown(signal)) throw signal.reason;
    return { allowed: false, message: 'The call was stopped while the question waited for an answer.' };
  }
  const once: Decision = { action: decision.action, scope: 'once', by: decision.by, ...(decision.message ? { message: decision.message } : {}) };
  // Appended, not recorded: an allow here runs the command outside the sandbox as soon as this returns.
  log.append({ type: 'approval.answered', approvalId, callId, decision: once });
  return { allowed: once.action === 'allow', ...(once.message ? { message: once.message } : {}) };
}

/**
 * A running command connects to a host its fence does not allow (the sandbox's proxy holds the
 * connection until this returns). Its own approval in the log, with a `network` sandbox note: Allow
 * once lets this command reach the host, Allow always also adds it to the project's fence (never
 * offered while the session is tainted), Deny refuses the connection. The headless broker denies at
 * once unless unleashed. A question the command no longer waits for (it ended) is answered by policy.
 */
async function askNetworkAccess(callId: string, tool: AnyTool, question: NetworkQuestion, deps: ToolRunnerDeps, signal: AbortSignal): Promise<NetworkAnswer> {
  const { log } = deps;
  const { host, port } = question;
  const taint = log.state.taints.length > 0 ? log.state.taints.join('; ') : undefined;
  // Deny rules on the domain, and outside content set to block, refuse it before anybody is asked.
  const ruled = deps.policy.evaluateHost?.(host, taint);
  if (ruled?.action === 'deny') return { allowed: false, message: ruled.reason, by: 'policy' };
  const offer: AllowAlwaysOffer = taint
    ? { refused: 'the session has read outside content, so a host is allowed for one command at a time; add it in Settings → Sandbox yourself if commands should always reach it.' }
    : question.always
      ? { rule: question.always }
      : { refused: 'this session has no project whose fence could keep the host.' };
  const summary = safeSummary(tool, question.args);
  const wants = `\`${question.command.trim().split('\n')[0]}\` wants to reach ${isPackageRegistry(host) ? 'its package registry ' : ''}${host}:${port}`;
  const approvalId = randomUUID();
  const request = {
    approvalId,
    callId,
    tool: tool.name,
    risk: 'egress' as const,
    summary,
    args: question.args,
    reason: `${wants}, which this project's sandbox fence does not allow. The command waits for the answer.`,
  };
  log.append({
    type: 'approval.asked',
    ...request,
    allowAlways: offer,
    ...(taint ? { taint } : {}),
    sandbox: { kind: 'network', reason: wants, host, port, followUp: true },
  });
  const waiting = AbortSignal.any([signal, question.signal]);
  let decision: Decision;
  try {
    decision = await deps.broker.decide({ ...request, sessionId: log.sessionId, network: { host, port } }, waiting);
  } catch (error) {
    if (!waiting.aborted) throw error;
    if (deps.signal.aborted) {
      // Stopped (Ctrl-C): the command is killed and the session's end settles the question.
      if (isShuttingDown(deps.signal)) throw deps.signal.reason;
      return { allowed: false, message: 'The session was stopped while the question waited for an answer.' };
    }
    const message = 'The command ended before anyone answered.';
    log.append({ type: 'approval.answered', approvalId, callId, decision: { action: 'deny', scope: 'once', by: 'policy', message } });
    return { allowed: false, message, by: 'policy' };
  }
  const entry = 'rule' in offer ? offer.rule : undefined;
  // Only what was offered: anything else a person sent with "always" counts once.
  const always = decision.action === 'allow' && decision.scope !== 'once' && entry !== undefined && (decision.rule === undefined || decision.rule.trim() === entry);
  const answer: Decision = always
    ? { action: 'allow', scope: 'project', by: decision.by, rule: entry }
    : { action: decision.action, scope: 'once', by: decision.by, ...(decision.message ? { message: decision.message } : {}) };
  // Appended: the connection goes ahead (and the fence may widen) as soon as this returns.
  log.append({ type: 'approval.answered', approvalId, callId, decision: answer });
  return { allowed: answer.action === 'allow', by: answer.by, ...(always ? { always: true } : {}), ...(answer.message ? { message: answer.message } : {}) };
}

/** Answers, as `decision`, every question about the call still waiting: none of them will be asked again. */
export function answerPendingQuestions(log: SessionLog, callId: string, decision: Decision): void {
  for (const approvalId of [...log.state.pendingApprovals]) {
    if (log.state.approvals[approvalId]?.callId === callId) log.record({ type: 'approval.answered', approvalId, callId, decision });
  }
}

/**
 * A command's output is outside content too when it ran outside the sandbox, where nothing held its
 * network back; when it may have reached the network (curl, git fetch, a line that cannot be pinned
 * down) and its fence let something through (a domain the project allows, a host the person allowed
 * while it ran): a page it fetched can carry instructions just as fetch_url's can; and when it read
 * outside the workspace. A sandboxed command whose fence lets nothing out brought nothing in from the
 * network, however networked it looks (`node test.js`).
 */
function commandTaint(tool: AnyTool, args: unknown, brought: OutsideContent, metadata: Json | undefined, sandbox: CommandSandbox | undefined): string | undefined {
  if (tool.risk !== 'exec') return undefined;
  const facts = metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata : {};
  const where = facts.sandbox;
  if (where === 'outside' || where === 'unavailable' || where === 'off') return `the output of \`${safeSummary(tool, args)}\`, which ran outside the sandbox (outside content)`;
  const reached = Array.isArray(facts.reachedHosts) && facts.reachedHosts.length > 0;
  const fenceLetsOut = where !== 'sandboxed' || (sandbox?.fence.allowedDomains.length ?? 0) > 0 || reached;
  if (brought.egress && fenceLetsOut) return `the output of \`${safeSummary(tool, args)}\`, a command that may reach the network (outside content)`;
  if (brought.readsOutside !== undefined) return `the output of \`${safeSummary(tool, args)}\`, which read ${brought.readsOutside} outside the workspace (outside content)`;
  return undefined;
}

function refused(tool: AnyTool, args: unknown, message: string): Permission {
  return { action: 'refuse', outcome: 'denied', title: `Denied: ${safeSummary(tool, args)}`, message };
}

function deniedBy(verdict: PolicyVerdict): string {
  return `Denied by ${verdict.rule ? `the rule ${verdict.rule}` : 'policy'}: ${verdict.reason}`;
}

/**
 * An edited call is allowed once, whatever scope was chosen: the rule on offer was worked out for the
 * model's call, and a rule the person never saw for their own must not be created behind them.
 */
function editedOnce(decision: Decision): Decision {
  return {
    action: 'allow',
    scope: 'once',
    by: decision.by,
    ...(decision.message ? { message: decision.message } : {}),
    ...(decision.editedArgs !== undefined ? { editedArgs: decision.editedArgs } : {}),
  };
}

/** A denial runs nothing and an edit that changes nothing is no edit: neither is recorded as one. */
function withoutEdit(decision: Decision): Decision {
  if (decision.editedArgs === undefined) return decision;
  const { editedArgs: _dropped, ...rest } = decision;
  return rest;
}

function asObject(args: unknown): object {
  return typeof args === 'object' && args !== null ? args : {};
}

/**
 * A person can only grant what they were offered: an "Allow always" where none was offered, or with a
 * rule broader than the offer, becomes "allow once". The dialog checks this too; main decides.
 */
function withinOffer(decision: Decision, offer: AllowAlwaysOffer | undefined): Decision {
  if (decision.action !== 'allow' || decision.scope === 'once') return decision;
  const once: Decision = { action: 'allow', scope: 'once', by: decision.by, ...(decision.message ? { message: decision.message } : {}) };
  if (!offer || !('rule' in offer)) return once;
  const check = validateAllowAlwaysRule(decision.rule ?? offer.rule, offer.rule);
  return check.ok ? { ...decision, rule: check.rule } : once;
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
  approvedWith?: SandboxNote,
  approvedFile?: { hash: string },
): Promise<RunResult> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  // The call's time stands still while a question within it waits for a person.
  const hold = new TimeoutHold();
  const timeout = new AbortController();
  const cancelTimeout = pausableTimeout(timeoutMs, () => timeout.abort(new DOMException(`The call took longer than ${timeoutMs} ms`, 'TimeoutError')), hold);
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
    confirm: (question: FollowUpQuestion) => hold.during(() => askFollowUp(callId, tool, question, deps, signal)),
    askNetwork: (question: NetworkQuestion) => hold.during(() => askNetworkAccess(callId, tool, question, deps, signal)),
  };
  const stopped = new Promise<'stopped'>((resolve) => {
    if (signal.aborted) resolve('stopped');
    signal.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  try {
    // `args` is the output of this tool's own schema (parseArguments), which is what execute takes.
    const running = tool.execute(args as never, ctx);
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

function safeSummary(tool: AnyTool, args: unknown): string {
  try {
    return tool.summarize(args as never);
  } catch {
    return tool.name;
  }
}
