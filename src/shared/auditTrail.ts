import { z } from 'zod';
import type { EventOf, StoredEvent } from './events';
import { RuleSource, Scope } from './permissions';

/**
 * Every permission decision a session's log records, read back out of it: what was decided, when,
 * and who decided. The log is the only source (nothing is kept twice), so the CLI's `tether audit`
 * and the UI's permission history read the same list.
 */

/** Who settled a decision, in the words the audit prints. */
export const AuditDecider = z.enum([
  /** The person answered the request. */
  'person',
  /** A headless run answered for nobody: its default (deny), or allow under `--unleashed`. */
  'headless default',
  'headless --unleashed',
  /** The rules, the mode or the built-in defaults, with no question asked (`rule` names the rule when the log kept it). */
  'rules',
  /** A rule of the machine's managed policy. */
  'managed policy',
  /** Unleashed mode allowed what would have asked. */
  'unleashed mode',
  /** A PreToolUse or PermissionRequest hook (`rule` is its command). */
  'hook',
  /** The rules settled a question asked earlier (after a restart), or the question lapsed (its command ended). */
  'policy',
  /** The person's own choice for a run, made on the command line (`tether run --no-sandbox`). */
  'run option',
]);
export type AuditDecider = z.infer<typeof AuditDecider>;

export const AuditAction = z.enum(['allow', 'deny', 'waiting', 'no sandbox']);
export type AuditAction = z.infer<typeof AuditAction>;

/** One decision. A schema as well as a type: the UI's permission history receives these over the contract. */
export const AuditEntry = z.object({
  /** When it was decided (ms since the epoch): the answer's, or the call's start or refusal. */
  at: z.number(),
  sessionId: z.string(),
  /** The log position of the event that records the decision. */
  seq: z.number().int(),
  callId: z.string().nullable(),
  tool: z.string().nullable(),
  /**
   * What was decided about, in one line: the request's summary, or the call's title. When the person
   * changed the call before allowing it, their version: what ran (or was refused after).
   */
  what: z.string(),
  /** The person changed the call before allowing it (the command, the new text, the content). */
  edited: z.boolean().optional(),
  /** For an edited call: what the model proposed, in one line, when it reads differently from `what`. */
  proposed: z.string().optional(),
  action: AuditAction,
  by: AuditDecider,
  /** The rule that decided, or the rule an "Allow always" created; for a hook, its command. */
  rule: z.string().optional(),
  /** Where that rule came from (user, project, managed…), when the log kept it; for a hook, whose settings. */
  source: RuleSource.optional(),
  /** How long an allow lasts (an "Allow always" is wider than once). */
  scope: Scope.optional(),
  /** Why: the engine's reason for asking, the person's message, the refusal. */
  reason: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** A refusal by the rules reads `Denied by the rule <pattern>: <reason>` or `Denied by policy: <reason>` (approvalGate's deniedBy). */
const DENIED_BY_RULE = /^Denied by the rule (.+?): ([\s\S]*)$/;
/** How the engine's reason names a rule of the managed policy (decisionLadder.ts's builtIn). */
const MANAGED_RULE_NOTE = '(a rule of the managed policy)';
const DENIED_BY_POLICY = /^Denied by policy: ([\s\S]*)$/;
/** What comes before the rules' refusal of an edited call (approvalGate's check): the rest quotes both versions. */
const EDIT_REFUSED = '\nThe changed call was not run. ';

export function auditEntries(events: readonly StoredEvent[]): AuditEntry[] {
  const entries: AuditEntry[] = [];
  const asked = new Map<string, { stored: StoredEvent; event: EventOf<'approval.asked'> }>();
  const answered = new Set<string>();
  const callsAsked = new Set<string>();
  /** Calls that ran unasked, by call id: their entry, so the finish can give it the call's title. */
  const ranUnasked = new Map<string, AuditEntry>();
  /** What a hook said about a call before it ran (allow, or deny and blocks), by call id. */
  const hookSaid = new Map<string, EventOf<'hook.ran'>>();
  /** The latest answer to each call's questions, by call id: an allowed call the rules then refused is listed again. */
  const lastAnswer = new Map<string, EventOf<'approval.answered'>['decision']>();

  for (const stored of events) {
    const { event, sessionId, seq, at } = stored;
    const base = { sessionId, seq, at };
    switch (event.type) {
      case 'approval.asked':
        asked.set(event.approvalId, { stored, event });
        callsAsked.add(event.callId);
        break;
      case 'hook.ran':
        if (event.callId && (event.hookEvent === 'PreToolUse' || event.hookEvent === 'PermissionRequest')) {
          if (event.result === 'blocked' || event.decision === 'allow' || event.decision === 'deny') hookSaid.set(event.callId, event);
        }
        break;
      case 'approval.answered': {
        const request = asked.get(event.approvalId);
        answered.add(event.approvalId);
        const { decision } = event;
        const hook = decision.by === 'policy' ? hookSaid.get(event.callId) : undefined;
        if (hook) {
          entries.push({
            ...base,
            callId: event.callId,
            tool: request?.event.tool ?? null,
            what: request?.event.summary ?? `request ${event.approvalId}`,
            ...hookDecision(hook),
          });
          break;
        }
        lastAnswer.set(event.callId, decision);
        const by: AuditDecider =
          decision.by === 'person'
            ? 'person'
            : decision.by === 'policy'
              ? 'policy'
              : decision.action === 'allow'
                ? 'headless --unleashed'
                : 'headless default';
        const proposed = request?.event.summary ?? `request ${event.approvalId}`;
        entries.push({
          ...base,
          callId: event.callId,
          tool: request?.event.tool ?? null,
          what: proposed,
          ...(decision.action === 'allow' && decision.editedArgs !== undefined ? edited(proposed, event.editedSummary) : {}),
          action: decision.action,
          by,
          ...(decision.rule ? { rule: decision.rule } : {}),
          scope: decision.scope,
          ...(decision.message ? { reason: decision.message } : request?.event.reason ? { reason: request.event.reason } : {}),
        });
        break;
      }
      case 'tool.started':
        if (!callsAsked.has(event.callId) && !ranUnasked.has(event.callId)) {
          const hook = hookSaid.get(event.callId);
          const entry: AuditEntry = {
            ...base,
            callId: event.callId,
            tool: event.name,
            what: event.name,
            ...(event.allowedBy
              ? allowedBy(event.allowedBy)
              : hook
                ? hookDecision(hook)
                : {
                    action: 'allow',
                    by: 'rules',
                    reason: 'allowed without asking (a rule, the mode or the built-in defaults; this log does not say which)',
                  }),
          };
          ranUnasked.set(event.callId, entry);
          entries.push(entry);
        }
        break;
      case 'tool.finished': {
        const unasked = ranUnasked.get(event.callId);
        if (unasked) {
          unasked.what = event.title;
        } else if (event.outcome === 'denied' && lastAnswer.get(event.callId)?.action === 'allow') {
          // Allowed, then refused before it ran: the person's edit, judged again, met a deny rule.
          const judged = event.output.lastIndexOf(EDIT_REFUSED);
          const output = judged === -1 ? event.output : event.output.slice(judged + EDIT_REFUSED.length);
          entries.push({ ...base, callId: event.callId, tool: event.name, what: event.title, action: 'deny', ...refusal(output) });
        } else if (event.outcome === 'denied' && !callsAsked.has(event.callId)) {
          const hook = hookSaid.get(event.callId);
          if (hook) {
            entries.push({ ...base, callId: event.callId, tool: event.name, what: event.title, ...hookDecision(hook) });
            break;
          }
          entries.push({
            ...base,
            callId: event.callId,
            tool: event.name,
            what: event.title,
            action: 'deny',
            ...refusal(event.output),
          });
        }
        break;
      }
      case 'sandbox.turned_off':
        entries.push({
          ...base,
          callId: null,
          tool: null,
          what: 'commands ran with no OS sandbox',
          action: 'no sandbox',
          by: 'run option',
          reason: event.by,
        });
        break;
      default:
        break;
    }
  }

  // Questions nobody has answered yet are decisions still to be made: listed, so none goes unseen.
  for (const [approvalId, { stored, event }] of asked) {
    if (answered.has(approvalId)) continue;
    entries.push({
      sessionId: stored.sessionId,
      seq: stored.seq,
      at: stored.at,
      callId: event.callId,
      tool: event.tool,
      what: event.summary,
      action: 'waiting',
      by: 'person',
      ...(event.reason ? { reason: event.reason } : {}),
    });
  }
  return entries.sort((a, b) => a.at - b.at || a.seq - b.seq);
}

/**
 * An allow of the person's own version of the call: what ran is theirs. A log written before the
 * edit's summary was recorded says only that it was edited, and what the model proposed.
 */
function edited(proposed: string, summary: string | undefined): Pick<AuditEntry, 'what' | 'edited' | 'proposed'> {
  if (summary === undefined) return { what: proposed, edited: true };
  return { what: summary, edited: true, ...(summary !== proposed ? { proposed } : {}) };
}

function allowedBy(
  allowed: NonNullable<EventOf<'tool.started'>['allowedBy']>,
): Pick<AuditEntry, 'action' | 'by' | 'rule' | 'source' | 'reason'> {
  const by: AuditDecider =
    allowed.source === 'managed' ? 'managed policy' : allowed.reason.startsWith('Unleashed mode allows') ? 'unleashed mode' : 'rules';
  return {
    action: 'allow',
    by,
    ...(allowed.rule !== undefined ? { rule: allowed.rule } : {}),
    ...(allowed.source !== undefined ? { source: allowed.source } : {}),
    reason: allowed.reason,
  };
}

function hookDecision(hook: EventOf<'hook.ran'>): Pick<AuditEntry, 'action' | 'by' | 'rule' | 'source' | 'reason'> {
  return {
    action: hook.decision === 'allow' && hook.result !== 'blocked' ? 'allow' : 'deny',
    by: 'hook',
    rule: hook.command,
    source: hook.source,
    reason: `${hook.hookEvent} hook${hook.reason ? `: ${hook.reason}` : ''}`,
  };
}

function refusal(output: string): Pick<AuditEntry, 'by' | 'rule' | 'reason'> {
  const byRule = DENIED_BY_RULE.exec(output);
  if (byRule) {
    const reason = byRule[2] as string;
    const managed = reason.includes(MANAGED_RULE_NOTE);
    return {
      by: managed ? 'managed policy' : 'rules',
      rule: byRule[1] as string,
      ...(managed ? { source: 'managed' as const } : {}),
      reason,
    };
  }
  const byPolicy = DENIED_BY_POLICY.exec(output);
  return { by: 'rules', reason: byPolicy ? (byPolicy[1] as string) : output };
}
