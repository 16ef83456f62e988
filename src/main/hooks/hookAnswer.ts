import type { HookDecision } from '../permissions/hookDecision';
import { z } from 'zod';
import type { ConfiguredHook, HookEvent } from './hookSettings';
import type { HookCommandResult } from './runHookCommand';

/**
 * What one hook's run says, read as Claude Code reads it: exit 0 goes on, and its stdout, when JSON,
 * may decide about the call (`hookSpecificOutput.permissionDecision` allow|ask|deny with
 * `permissionDecisionReason`; the older `decision: "approve"|"block"`; a PermissionRequest's
 * `hookSpecificOutput.decision.behavior`), block (`decision: "block"` with `reason`) or add context
 * (`hookSpecificOutput.additionalContext`); exit 2 blocks, its stderr the reason; any other exit, a
 * timeout, a command that cannot start or stdout that looks like JSON and is not is a failure, reported
 * and otherwise ignored (Claude Code's "non-blocking error").
 */

export interface HookAnswer {
  kind: 'ok' | 'blocked' | 'failed';
  decision?: HookDecision;
  reason?: string;
  context: string[];
  problem?: string;
}

const Reason = z.string().optional();
const HookJson = z.looseObject({
  decision: z.enum(['approve', 'block']).optional(),
  reason: Reason,
  hookSpecificOutput: z
    .looseObject({
      permissionDecision: z.enum(['allow', 'ask', 'deny']).optional(),
      permissionDecisionReason: Reason,
      additionalContext: Reason,
      decision: z.looseObject({ behavior: z.enum(['allow', 'deny']), message: Reason }).optional(),
    })
    .optional(),
});

/** The events whose plain stdout is context for the model (Claude Code's rule). */
const PLAIN_OUTPUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['SessionStart', 'UserPromptSubmit']);

export function readHookAnswer(event: HookEvent, hook: ConfiguredHook, result: HookCommandResult): HookAnswer {
  const named = `The ${event} hook \`${oneLine(hook.command)}\``;
  if (result.startError !== undefined) return failed(`${named} could not start: ${result.startError}.`);
  if (result.timedOut) return failed(`${named} timed out after ${hook.timeoutSeconds} s and was stopped; Tether went on without it.`);
  if (result.stopped) return failed(`${named} was stopped with the session.`);
  if (result.exitCode === 2) {
    const stderr = result.stderr.trim();
    const reason = stderr || `${named} blocked this.`;
    const decides = event === 'PreToolUse' || event === 'PermissionRequest';
    return { kind: 'blocked', ...(decides ? { decision: { action: 'deny', reason } } : {}), reason, context: [] };
  }
  if (result.exitCode !== 0) {
    const stderr = result.stderr.trim();
    return failed(`${named} failed (exit code ${result.exitCode ?? 'none'})${stderr ? `: ${clip(stderr)}` : '.'}`);
  }
  const stdout = result.stdout.trim();
  if (!stdout.startsWith('{')) {
    return { kind: 'ok', context: stdout && PLAIN_OUTPUT_IS_CONTEXT.has(event) ? [stdout] : [] };
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    return failed(`${named} printed output that is not valid JSON (${(error as Error).message}); it was ignored.`);
  }
  const parsed = HookJson.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')} ${issue.message}`);
    return failed(`${named} printed JSON Tether cannot read (${problems.join('; ')}); it was ignored.`);
  }
  const answer = parsed.data;
  const specific = answer.hookSpecificOutput;
  const context = specific?.additionalContext ? [specific.additionalContext] : [];
  const decision = decisionOf(event, answer);
  if (answer.decision === 'block' && event !== 'PreToolUse' && event !== 'PermissionRequest') {
    return { kind: 'blocked', reason: answer.reason ?? `${named} blocked this.`, context };
  }
  if (decision?.action === 'deny') return { kind: 'blocked', decision, ...(decision.reason ? { reason: decision.reason } : {}), context };
  return { kind: 'ok', ...(decision ? { decision } : {}), ...(decision?.reason ? { reason: decision.reason } : {}), context };
}

function decisionOf(event: HookEvent, answer: z.infer<typeof HookJson>): HookDecision | undefined {
  const specific = answer.hookSpecificOutput;
  const withReason = (action: HookDecision['action'], reason: string | undefined): HookDecision => ({
    action,
    ...(reason ? { reason } : {}),
  });
  if (event === 'PreToolUse') {
    if (specific?.permissionDecision) return withReason(specific.permissionDecision, specific.permissionDecisionReason);
    // Claude Code's older fields, still honoured there.
    if (answer.decision === 'approve') return withReason('allow', answer.reason);
    if (answer.decision === 'block') return withReason('deny', answer.reason);
  }
  if (event === 'PermissionRequest' && specific?.decision) return withReason(specific.decision.behavior, specific.decision.message);
  return undefined;
}

function failed(problem: string): HookAnswer {
  return { kind: 'failed', problem, context: [] };
}

function oneLine(command: string): string {
  const line = command.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}
