import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ToolCallItem } from '../../shared/conversation';
import type { LiveEvent, ToolOutcome } from '../../shared/events';
import type { Json } from '../../shared/json';
import type { Decision, Scope } from '../../shared/permissions';
import type { PlanStep } from '../../shared/plan';
import { isShuttingDown } from '../agent/shuttingDown';
import type { SessionLog } from '../agent/sessionLog';
import type { Broker } from '../permissions/broker';
import { validateAllowAlwaysRule } from '../permissions/allowAlways';
import type { AllowAlwaysOffer, Policy } from '../permissions/policy';
import type { Terminal } from '../terminal/terminal';
import type { Workspace } from '../workspace/workspace';
import { ToolError, type AnyTool } from './defineTool';
import type { ToolRegistry } from './registry';

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
}

/** A rule a person created with "Allow always". */
export interface Grant {
  approvalId: string;
  rule: string;
  scope: Exclude<Scope, 'once'>;
}

const DEFAULT_TOOL_TIMEOUT_MS = 11 * 60_000;

export async function executeToolCall(call: ToolCallItem, deps: ToolRunnerDeps): Promise<void> {
  const started = performance.now();
  const finish = (outcome: ToolOutcome, title: string, output: string, metadata?: Json): void => {
    deps.log.append({
      type: 'tool.finished',
      callId: call.callId,
      name: call.name,
      outcome,
      title,
      output,
      durationMs: Math.round(performance.now() - started),
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
  if (permission.action === 'deny') {
    finish('denied', `Denied: ${safeSummary(tool, args)}`, permission.message);
    return;
  }
  if (deps.signal.aborted) {
    finish('aborted', `Not run: ${safeSummary(tool, args)}`, 'Not run: the session was stopped before this call started.');
    return;
  }

  deps.log.append({ type: 'tool.started', callId: call.callId, name: tool.name, args: args as Json });
  const result = await runWithTimeout(tool, args, call.callId, deps);
  finish(result.outcome, result.title, result.output, result.metadata);
  // What the tool brought in is outside content whether or not it "succeeded" (an error page is a page too).
  const taint = result.outcome === 'ok' || result.outcome === 'error' ? tool.taints?.(args as never) : undefined;
  if (taint && !deps.log.state.taints.includes(taint)) {
    deps.log.append({ type: 'session.tainted', callId: call.callId, reason: taint });
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

type Permission = { action: 'allow' } | { action: 'deny'; message: string };

async function askPermission(call: ToolCallItem, tool: AnyTool, args: unknown, deps: ToolRunnerDeps): Promise<Permission> {
  const { log, broker } = deps;
  const taint = log.state.taints.length > 0 ? log.state.taints.join('; ') : undefined;
  const verdict = deps.policy.evaluate({ sessionId: log.sessionId, callId: call.callId, tool, args, ...(taint ? { taint } : {}) });
  if (verdict.action === 'allow') return { action: 'allow' };
  if (verdict.action === 'deny') {
    return { action: 'deny', message: `Denied by ${verdict.rule ? `the rule ${verdict.rule}` : 'policy'}: ${verdict.reason}` };
  }

  // A request asked before a restart is still the person's to answer: wait for it, do not ask twice.
  const existing = log.state.toolCalls[call.callId]?.approvalId;
  const approvalId = existing && !log.state.approvals[existing]?.decision ? existing : randomUUID();
  const summary = safeSummary(tool, args);
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
    return { action: 'deny', message: 'Not run: the session was stopped while this call waited for approval.' };
  }
  decision = withinOffer(decision, verdict.allowAlways);
  log.append({ type: 'approval.answered', approvalId, callId: call.callId, decision });
  if (decision.action === 'allow') {
    if (decision.scope !== 'once' && decision.rule) deps.onGrant?.({ approvalId, rule: decision.rule, scope: decision.scope });
    return { action: 'allow' };
  }
  const who = decision.by === 'person' ? 'The person denied this call.' : 'Denied.';
  return { action: 'deny', message: decision.message ? `${who} ${decision.message}` : `${who} Try another way, or ask what they want.` };
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

async function runWithTimeout(tool: AnyTool, args: unknown, callId: string, deps: ToolRunnerDeps): Promise<RunResult> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([deps.signal, timeout]);
  const { log } = deps;
  const collected: string[] = [];
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
      log.append({ type: 'plan.updated', steps });
    },
    canRead: deps.canRead ?? (() => true),
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
  }
  const partial = collected.join('');
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
