import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { ApprovalPreview } from '../../shared/contract';
import type { EventOf, SessionEvent, ToolOutcome } from '../../shared/events';
import type { FileChange } from '../../shared/fileChange';
import type { Json } from '../../shared/json';
import type { Decision } from '../../shared/permissions';
import type { SandboxNote } from '../../shared/sandbox';
import type { ScriptRun } from '../../shared/scriptRun';
import type { SessionState } from '../../shared/session';
import { toolTraits } from '../../shared/toolCatalog';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import { registryPhrase } from '../sandbox/packageRegistries';
import type { HookDecision } from './hookDecision';
import { isShuttingDown } from '../process/shuttingDown';
import type { Workspace } from '../workspace/workspace';
import { validateAllowAlwaysRule } from './allowAlways';
import type { ApprovalRequest, Broker } from './broker';
import { describeEdit } from './describeEdit';
import type { GrantKeeper } from './grant';
import type { PermissionTool } from './permissionSubject';
import type { AllowAlwaysOffer, Policy, PolicyVerdict } from './policyVerdict';
import type { FollowUpAnswer, FollowUpQuestion, NetworkAnswer, NetworkQuestion } from './questions';
import { initShellParser } from '../shell/parser';
import { analyzeCommand } from '../shell/analyzeCommand';
import { markChanged, scriptsRun } from './scriptsRun';
import { whatLineSends } from '../shell/commandProofs';

/**
 * The approval conversation of one tool call, in one place: ask the policy; when it asks, write the
 * request to the log, ask the broker (the dialog, or the headless stand-in) and wait; check the answer
 * (an "Allow always" only within the offer, edited arguments validated and judged again); record it;
 * and hand an "Allow always" to the grant keeper, which stores it and puts it in force. The questions
 * a call asks while it runs (run again outside the sandbox? reach this host?) go through it too. The
 * time spent waiting for a person is counted here (`waitedMs`), so the runner shows it apart.
 *
 * Where an "Allow always" rule is stored: this gate checks it (`withinOffer`) and gives it to
 * `GrantKeeper.remember` (sessionPermissions.ts), which writes it to the store's `rules` and adds it
 * to the session's engine.
 */

/** The session's log as the gate writes and reads it (agent's SessionLog is one). */
export interface ApprovalLog {
  readonly sessionId: string;
  readonly state: Pick<SessionState, 'taints' | 'toolCalls' | 'approvals' | 'pendingApprovals'> & Partial<Pick<SessionState, 'baseUrl'>>;
  /** Commits before it returns: the caller may act on the event. */
  append(event: SessionEvent): unknown;
  /** Commits with the next append. */
  record(event: SessionEvent): unknown;
}

/** A tool as the gate sees it: what the engine reads, plus its schema, its summary and its preview. */
export interface GatedTool extends PermissionTool {
  parameters: z.ZodType<unknown>;
  summarize(args: never): string;
  preview?(args: never, workspace: Workspace): Promise<FileChange | undefined>;
  mcpReadOnly?: boolean;
}

export interface ApprovalGateDeps {
  log: ApprovalLog;
  policy: Policy;
  broker: Broker;
  /** Stores an "Allow always" (already checked against the offer) and puts it in force; absent in tests that keep none. */
  grants?: GrantKeeper;
  workspace: Workspace;
  /** The session's sandbox: a request for a command says when none is available. */
  sandbox: CommandSandbox;
  /** Aborted when the person stops the session. */
  signal: AbortSignal;
  /**
   * A workspace file as it was when the session started (its first snapshot): null when it did not
   * exist then, undefined when that cannot be told. A request for a command marks the scripts it runs
   * that the session changed.
   */
  fileAtSessionStart?(relativePath: string): Promise<string | null | undefined>;
}

/** What the verdict says about what the call brings in, for the taint after it ran. */
export type OutsideContent = Pick<PolicyVerdict, 'egress' | 'readsOutside'>;

/**
 * The gate's verdict on one call: run it (with the arguments the person allowed, and what to tell the
 * model about their edit), or do not, with the outcome and result the ledger records.
 */
export type Permission =
  | ({
      action: 'allow';
      args: unknown;
      editNote?: string;
      sandboxNote?: SandboxNote;
      approvedFile?: { hash: string };
      /** The rules or the mode let it run with no question: what the log keeps of why (tool.started's allowedBy). */
      allowedBy?: AllowedBy;
    } & OutsideContent)
  | { action: 'refuse'; outcome: Extract<ToolOutcome, 'denied' | 'error'>; title: string; message: string };

/**
 * What the session's hooks say about the call: the PreToolUse hooks' decision, and the PermissionRequest
 * hooks, run when a person would be asked. A hook's deny always holds; its ask makes an allowed call ask;
 * its allow answers only a question no rule, taint or fence raised (`hookMayAnswer`).
 */
export interface HookSay {
  decision?: HookDecision;
  onRequest?(): Promise<HookDecision | undefined>;
}

/** What became of the person's edit: nothing changed after all, not valid for the tool, or a changed call. */
type Edit = { kind: 'unchanged' } | { kind: 'invalid'; problem: string } | { kind: 'changed'; args: unknown };

/** The gate for one call; built by the runner for each call it runs. */
export class ApprovalGate {
  private waited = 0;

  constructor(
    private readonly deps: ApprovalGateDeps,
    private readonly callId: string,
    private readonly tool: GatedTool,
  ) {}

  /** How long this call's questions waited for an answer, in whole milliseconds. */
  get waitedMs(): number {
    return Math.round(this.waited);
  }

  /** Whether the call may run, and with which arguments: the policy's verdict, and the person's when it asks. */
  async check(args: unknown, hooks: HookSay = {}): Promise<Permission> {
    const { deps, tool, callId } = this;
    const { log } = deps;
    // The shell parser loads with the first command to check: a run that never runs one never loads it.
    // One that fails to load leaves the command unread, which the policy asks about rather than allows.
    if (isCommand(tool, args)) await initShellParser().catch(() => undefined);
    const taint = sessionTaint(log);
    const evaluate = (callArgs: unknown) =>
      deps.policy.evaluate({
        sessionId: log.sessionId,
        callId,
        tool,
        args: callArgs,
        ...(taint ? { taint } : {}),
        ...(tool.mcpReadOnly ? { mcpReadOnly: true } : {}),
      });
    const verdict = withHook(evaluate(args), hooks.decision);
    // The person's version of the call, judged as the model's was (a hook's question about the call holds for it too).
    // The last version shown to them judged (see previewOf): "Allow always" holds only for a version they saw judged.
    let shownJudged: unknown;
    const judgeEdit = (edited: unknown): PolicyVerdict => {
      const judged = evaluate(edited);
      return hooks.decision?.action === 'ask' && judged.action === 'ask' ? { ...judged, allowAlways: { refused: HOOK_ASKED } } : judged;
    };
    if (verdict.action !== 'deny' && hooks.decision?.action === 'deny') {
      settleQuestions(log, callId, { action: 'deny', scope: 'once', by: 'policy', message: 'A PreToolUse hook denied the call.' });
      return this.refusedByHook(args, 'PreToolUse', hooks.decision);
    }
    if (verdict.action === 'ask' && hooks.decision?.action === 'allow' && hookMayAnswer(verdict, tool, deps.sandbox)) {
      settleQuestions(log, callId, { action: 'allow', scope: 'once', by: 'policy', message: 'A PreToolUse hook allowed the call.' });
      return { action: 'allow', args, ...outsideContent(verdict) };
    }
    if (verdict.action !== 'ask') {
      // A question asked before a restart that the rules now settle (a rule added, the folder trusted
      // meanwhile) is answered by them, so it leaves the inbox and the session is no longer waiting.
      settleQuestions(log, callId, { action: verdict.action, scope: 'once', by: 'policy' });
      return verdict.action === 'allow'
        ? { action: 'allow', args, allowedBy: allowedBy(verdict), ...outsideContent(verdict) }
        : this.refused(args, deniedBy(verdict));
    }

    // A request asked before a restart is still the person's to answer: wait for it, do not ask twice.
    const existing = log.state.toolCalls[callId]?.approvalId;
    const approvalId = existing && !log.state.approvals[existing]?.decision ? existing : randomUUID();
    const summary = safeSummary(tool, args);
    const shownNote = unsandboxedNote(tool, deps.sandbox) ?? outsideWriteNote(tool, deps.sandbox, verdict);
    // The diff the person is shown is against the file as it is now; the call checks it is still so.
    const change = approvalId !== existing ? await previewChange(tool, args, deps.workspace) : log.state.approvals[approvalId]?.change;
    const approvedFile = change ? { approvedFile: { hash: change.hash } } : {};
    // What the command's scripts run (npm test's script, make's recipe, pytest's options), for the request to show.
    const runs = approvalId !== existing && verdict.commands ? await this.scriptRuns(args) : undefined;
    // Running outside the sandbox is allowed once at a time, never always.
    const offered: AllowAlwaysOffer | undefined =
      shownNote?.kind === 'outside_write'
        ? { refused: 'Running outside the sandbox is allowed once at a time, never always.' }
        : verdict.allowAlways;
    if (approvalId !== existing && hooks.onRequest) {
      // The PermissionRequest hooks answer before a person is asked, as Claude Code's do.
      const said = await hooks.onRequest();
      if (said?.action === 'deny') return this.refusedByHook(args, 'PermissionRequest', said);
      if (said?.action === 'allow' && hookMayAnswer(verdict, tool, deps.sandbox))
        return { action: 'allow', args, ...outsideContent(verdict) };
    }
    if (approvalId !== existing) {
      log.append({
        type: 'approval.asked',
        approvalId,
        callId,
        tool: tool.name,
        risk: tool.risk,
        summary,
        args: args as Json,
        reason: verdict.reason,
        ...(verdict.commands !== undefined ? { commands: verdict.commands } : {}),
        ...(offered ? { allowAlways: offered } : {}),
        ...(verdict.taint ? { taint: verdict.taint } : {}),
        ...(shownNote ? { sandbox: shownNote } : {}),
        ...(verdict.parts !== undefined ? { parts: verdict.parts } : {}),
        ...(change ? { change } : {}),
        ...(runs && runs.length > 0 ? { runs } : {}),
      });
    }
    let decision;
    try {
      decision = await this.decide(
        {
          approvalId,
          sessionId: log.sessionId,
          callId,
          tool: tool.name,
          risk: tool.risk,
          summary,
          args: args as Json,
          reason: verdict.reason,
          ...(verdict.managedAsk ? { managedAsk: true } : {}),
          ...(toolTraits(tool.name)?.editable
            ? {
                preview: (edited: Json) =>
                  previewOf(tool, args, edited, (version) => {
                    shownJudged = version;
                    return judgeEdit(version);
                  }),
              }
            : {}),
        },
        deps.signal,
      );
    } catch (error) {
      if (!deps.signal.aborted) throw error;
      // Closing the app leaves the question open for next time: nothing is written.
      if (isShuttingDown(deps.signal)) throw deps.signal.reason;
      return this.refused(args, 'Not run: the session was stopped while this call waited for approval.');
    }
    const edit = decision.action === 'allow' && decision.editedArgs !== undefined ? checkEdit(tool, args, decision.editedArgs) : undefined;
    // The person approved this exact call, so an ask counts as answered; a deny rule still wins over them.
    const again = edit?.kind === 'changed' ? judgeEdit(edit.args) : undefined;
    const sawJudged = edit?.kind === 'changed' && isDeepStrictEqual(shownJudged, edit.args);
    decision =
      edit && edit.kind !== 'unchanged'
        ? editedDecision(decision, sawJudged && shownNote?.kind !== 'outside_write' ? again : undefined)
        : withinOffer(withoutEdit(decision), offered);
    // Only a person's allow, given on a dialog that said there is no sandbox, covers running unsandboxed;
    // a headless stand-in's does not, so the command asks again about that (and is refused).
    const sandboxNote = decision.by === 'person' ? shownNote : undefined;
    // The call starts (tool.started) or is refused (tool.finished) next; a rule is a write that commits.
    log.record({
      type: 'approval.answered',
      approvalId,
      callId,
      decision,
      // What the person allowed, in the words the request's summary uses: the audit lists it as what ran.
      ...(edit?.kind === 'changed' && decision.action === 'allow' ? { editedSummary: safeSummary(tool, edit.args) } : {}),
    });
    if (decision.action === 'deny') {
      const who = decision.by === 'person' ? 'The person denied this call.' : 'Denied.';
      return this.refused(args, decision.message ? `${who} ${decision.message}` : `${who} Try another way, or ask what they want.`);
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
    if (edit?.kind === 'changed' && again) {
      if (again.action === 'deny') {
        return this.refused(
          edit.args,
          `${describeEdit(tool.name, asObject(args), asObject(edit.args), false)}\nThe changed call was not run. ${deniedBy(again)}`,
        );
      }
      if (decision.scope !== 'once' && decision.rule) deps.grants?.remember({ approvalId, rule: decision.rule, scope: decision.scope });
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
    if (decision.scope !== 'once' && decision.rule) deps.grants?.remember({ approvalId, rule: decision.rule, scope: decision.scope });
    return { action: 'allow', args, ...(sandboxNote ? { sandboxNote } : {}), ...approvedFile, ...outsideContent(verdict) };
  }

  /**
   * A second question the tool asks within its call (run a command again outside the sandbox?). It is
   * its own approval in the log, and it is answered once: no rule is ever created from it, so nothing
   * that runs outside the fence is remembered as "always", tainted session or not.
   */
  async askFollowUp(question: FollowUpQuestion, signal: AbortSignal): Promise<FollowUpAnswer> {
    const { log } = this.deps;
    const approvalId = randomUUID();
    // What a command prints goes back to the model: a secret it reads goes to the session's provider.
    const provider = question.sandbox.secrets?.length ? providerHost(log.state.baseUrl) : undefined;
    const request = {
      approvalId,
      callId: this.callId,
      tool: this.tool.name,
      risk: this.tool.risk,
      summary: question.summary,
      args: question.args,
      reason: provider ? question.reason.replace('to the model provider', `to the model provider (${provider})`) : question.reason,
    };
    log.append({
      type: 'approval.asked',
      ...request,
      allowAlways: { refused: 'Running outside the sandbox is allowed once at a time, never always.' },
      sandbox: { ...question.sandbox, ...(provider ? { provider } : {}) },
    });
    let decision: Decision;
    try {
      // Every follow-up question is about running outside the sandbox.
      decision = await this.decide({ ...request, sessionId: log.sessionId, leavesFence: true }, signal);
    } catch (error) {
      if (!signal.aborted) throw error;
      if (isShuttingDown(signal)) throw signal.reason;
      return { allowed: false, message: 'The call was stopped while the question waited for an answer.' };
    }
    const once: Decision = {
      action: decision.action,
      scope: 'once',
      by: decision.by,
      ...(decision.message ? { message: decision.message } : {}),
    };
    // Appended, not recorded: an allow here runs the command outside the sandbox as soon as this returns.
    log.append({ type: 'approval.answered', approvalId, callId: this.callId, decision: once });
    return { allowed: once.action === 'allow', ...(once.message ? { message: once.message } : {}) };
  }

  /**
   * A running command connects to a host its fence does not allow (the sandbox's proxy holds the
   * connection until this returns). Its own approval in the log, with a `network` sandbox note: Allow
   * once lets this command reach the host, Allow always also adds it to the project's fence (never
   * offered while the session is tainted), Deny refuses the connection. The headless broker denies at
   * once unless unleashed. A question the command no longer waits for (it ended) is answered by policy.
   * Like every grant, the fence entry is made here, from the answer as recorded, and nowhere else.
   */
  async askNetwork(question: NetworkQuestion, signal: AbortSignal): Promise<NetworkAnswer> {
    const { deps, tool, callId } = this;
    const { log } = deps;
    const { host, port } = question;
    const taint = sessionTaint(log);
    // Deny rules on the domain, and outside content set to block, refuse it before anybody is asked.
    const ruled = deps.policy.evaluateHost?.(host, taint);
    if (ruled?.action === 'deny') return { allowed: false, message: ruled.reason, by: 'policy' };
    // What Allow always would add to the project's fence; nothing when there is no project to keep it for.
    const alwaysEntry = deps.sandbox.alwaysEntry?.(host, port);
    // A command that sends data out: the host joins no fence for good, and the question says what goes there.
    const sends = whatLineSends(question.command, {
      cwd: commandFolder(deps.workspace, question.args),
      workspaceRoot: deps.workspace.root,
    });
    const offer: AllowAlwaysOffer =
      // An ask rule on the host beats any allow, the fence's included: it is asked about each time.
      ruled?.action === 'ask' && ruled.rule
        ? { refused: `an ask rule (${ruled.rule}) covers ${host}, so it is allowed for this command only.` }
        : sends.length > 0
          ? { refused: `this command sends data off the machine (${sends.join('; ')}), so its host is allowed for this command only.` }
          : taint
            ? {
                refused:
                  'the session has read outside content, so a host is allowed for one command at a time; add it in Settings → Sandbox yourself if commands should always reach it.',
              }
            : alwaysEntry
              ? { rule: alwaysEntry }
              : { refused: 'this session has no project whose fence could keep the host.' };
    const summary = safeSummary(tool, question.args);
    const registry = registryPhrase(
      host,
      linePrograms(question.command, commandFolder(deps.workspace, question.args), deps.workspace.root),
    );
    const wants = `\`${question.command.trim().split('\n')[0]}\` wants to reach ${registry ? `${registry} ` : ''}${host}:${port}`;
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
      sandbox: { kind: 'network', reason: wants, host, port, followUp: true, ...(sends.length > 0 ? { sends } : {}) },
    });
    const waiting = AbortSignal.any([signal, question.signal]);
    let decision: Decision;
    try {
      decision = await this.decide({ ...request, sessionId: log.sessionId, network: { host, port } }, waiting);
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
    const always =
      decision.action === 'allow' &&
      decision.scope !== 'once' &&
      entry !== undefined &&
      (decision.rule === undefined || decision.rule.trim() === entry);
    const answer: Decision = always
      ? { action: 'allow', scope: 'project', by: decision.by, rule: entry }
      : { action: decision.action, scope: 'once', by: decision.by, ...(decision.message ? { message: decision.message } : {}) };
    // Appended: the connection goes ahead, and the fence widens, as soon as it is committed.
    log.append({ type: 'approval.answered', approvalId, callId, decision: answer });
    const kept = always ? this.keepHost(entry) : undefined;
    return {
      allowed: answer.action === 'allow',
      by: answer.by,
      ...(kept ? { always: kept } : {}),
      ...(answer.message ? { message: answer.message } : {}),
    };
  }

  /**
   * A host's Allow always joins the project's allowed domains (Settings → Sandbox) and the session's
   * fence at once; undefined when it could not be kept (the settings file could not be written): the
   * allow still holds for this command.
   */
  private keepHost(entry: string): string | undefined {
    const { sandbox } = this.deps;
    if (!sandbox.allowAlways) return undefined;
    try {
      sandbox.allowAlways(entry);
      return entry;
    } catch {
      return undefined;
    }
  }

  /**
   * What the runners in the command run, read from the workspace now, each step the session changed
   * since it started marked. A file that cannot be read or understood is said in the run; this never fails the request.
   */
  private async scriptRuns(args: unknown): Promise<ScriptRun[] | undefined> {
    const { workspace, fileAtSessionStart } = this.deps;
    let subject;
    try {
      subject = this.tool.subject?.(args as never);
    } catch {
      return undefined;
    }
    if (subject?.kind !== 'command') return undefined;
    const cwd = path.resolve(workspace.root, subject.cwd ?? '.');
    let analysis;
    try {
      analysis = analyzeCommand(subject.command, { cwd, workspaceRoot: workspace.root });
    } catch {
      return undefined;
    }
    const now = scriptsRun(analysis.commands, { cwd, workspaceRoot: workspace.root, read: (file) => readSmallFile(workspace, file) });
    if (now.length === 0 || !fileAtSessionStart) return now;
    const files = [...new Set(now.filter((run) => run.steps.length > 0).map((run) => run.file))];
    const then = new Map<string, string | null>();
    for (const file of files) {
      const text = await fileAtSessionStart(file).catch(() => undefined);
      // Not known what it was: nothing is marked rather than everything.
      if (text === undefined) return now;
      then.set(file, text);
    }
    const before = scriptsRun(analysis.commands, { cwd, workspaceRoot: workspace.root, read: (file) => then.get(file) ?? undefined });
    return markChanged(now, before, (file) => then.get(file) !== null);
  }

  /** Every question waits here: the time is the person's, not the call's, and is shown apart. */
  private async decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision> {
    const asked = performance.now();
    try {
      return await this.deps.broker.decide(request, signal);
    } finally {
      this.waited += performance.now() - asked;
    }
  }

  private refusedByHook(args: unknown, event: 'PreToolUse' | 'PermissionRequest', said: HookDecision): Permission {
    return {
      action: 'refuse',
      outcome: 'denied',
      title: `Blocked by a hook: ${safeSummary(this.tool, args)}`,
      message: `Blocked by a ${event} hook: ${said.reason ?? 'it gave no reason'}`,
    };
  }

  private refused(args: unknown, message: string): Permission {
    return { action: 'refuse', outcome: 'denied', title: `Denied: ${safeSummary(this.tool, args)}`, message };
  }
}

/** The most of a workspace file read to show what a script runs: a package.json or Makefile is far smaller. */
const MAX_SCRIPT_FILE_BYTES = 1_000_000;

/** A file inside the workspace (never through a link that leads out), if it is there and small. */
function readSmallFile(workspace: Workspace, relative: string): string | undefined {
  try {
    const file = workspace.resolve(relative);
    if (statSync(file).size > MAX_SCRIPT_FILE_BYTES) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The host of the session's model address, for a person to read; undefined when it has none. */
function providerHost(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    return new URL(baseUrl).host || undefined;
  } catch {
    return undefined;
  }
}

/** The programs a command line runs (wrappers stripped), for naming whose registry a host is; none when it cannot be read. */
function linePrograms(command: string, cwd: string, workspaceRoot: string): string[] {
  try {
    return analyzeCommand(command, { cwd, workspaceRoot }).commands.flatMap((part) => part.argv.slice(0, 1));
  } catch {
    return [];
  }
}

/** Where a command of these arguments runs (its `cwd`, inside the workspace), for reading the line. */
function commandFolder(workspace: Workspace, args: Json): string {
  const cwd = typeof args === 'object' && args !== null && !Array.isArray(args) && typeof args.cwd === 'string' ? args.cwd : '.';
  return path.resolve(workspace.root, cwd);
}

/** Answers, as `decision`, every question about the call still waiting: none of them will be asked again. */
export function settleQuestions(log: ApprovalLog, callId: string, decision: Decision): void {
  for (const approvalId of [...log.state.pendingApprovals]) {
    if (log.state.approvals[approvalId]?.callId === callId) log.record({ type: 'approval.answered', approvalId, callId, decision });
  }
}

/** One line for a person; a summary that throws on odd arguments falls back to the tool's name. */
export function safeSummary(tool: Pick<GatedTool, 'name' | 'summarize'>, args: unknown): string {
  try {
    return tool.summarize(args as never);
  } catch {
    return tool.name;
  }
}

/** Whether the call is a command line, which the policy reads with the shell parser. */
function isCommand(tool: GatedTool, args: unknown): boolean {
  try {
    return tool.subject?.(args as never).kind === 'command';
  } catch {
    // The policy reports a subject that cannot be told; that needs no parser.
    return false;
  }
}

function sessionTaint(log: ApprovalLog): string | undefined {
  return log.state.taints.length > 0 ? log.state.taints.join('; ') : undefined;
}

function outsideContent(verdict: PolicyVerdict): OutsideContent {
  return {
    ...(verdict.egress ? { egress: true } : {}),
    ...(verdict.readsOutside !== undefined ? { readsOutside: verdict.readsOutside } : {}),
  };
}

function checkEdit(tool: GatedTool, args: unknown, edited: Json): Edit {
  const result = tool.parameters.safeParse(edited);
  if (!result.success) return { kind: 'invalid', problem: z.prettifyError(result.error) };
  return isDeepStrictEqual(result.data, args) ? { kind: 'unchanged' } : { kind: 'changed', args: result.data };
}

/** The file a call would change, as the request shows it; a preview that fails leaves the request without a diff, never fails the call. */
async function previewChange(tool: GatedTool, args: unknown, workspace: Workspace): Promise<FileChange | undefined> {
  if (!tool.preview) return undefined;
  try {
    return await tool.preview(args as never, workspace);
  } catch {
    return undefined;
  }
}

/** For a command, when no sandbox is available: the dialog says so (and the person's allow covers it). */
/**
 * A command whose redirection writes outside the fence would fail inside the sandbox and then ask to
 * run again outside it: the first question says so instead, and a person's allow runs it outside at
 * once (runCommand.ts). Not where nothing may run outside the sandbox (the managed policy).
 */
function outsideWriteNote(tool: GatedTool, sandbox: CommandSandbox | undefined, verdict: PolicyVerdict): SandboxNote | undefined {
  if (tool.risk !== 'exec' || !sandbox || sandbox.off || !sandbox.availability.available || sandbox.required || !verdict.writesOutside)
    return undefined;
  const shown = verdict.writesOutside.join(', ');
  return {
    kind: 'outside_write',
    reason: `It writes ${shown}, outside the sandbox fence, where a command inside the sandbox cannot write.`,
  };
}

function unsandboxedNote(tool: GatedTool, sandbox: CommandSandbox | undefined): SandboxNote | undefined {
  // Where commands never run outside the sandbox (refused, or the managed policy requires it) nothing runs unsandboxed.
  if (
    tool.risk !== 'exec' ||
    !sandbox ||
    sandbox.off ||
    sandbox.availability.available ||
    sandbox.unavailable === 'refuse' ||
    sandbox.required
  )
    return undefined;
  return { kind: 'unavailable', reason: sandbox.availability.reason };
}

/** A hook's ask turns an allowed call into a question for the person (never one "Allow always" could settle). */
function withHook(verdict: PolicyVerdict, said: HookDecision | undefined): PolicyVerdict {
  if (verdict.action !== 'allow' || said?.action !== 'ask') return verdict;
  const { rule: _rule, source: _source, ...rest } = verdict;
  return {
    ...rest,
    action: 'ask',
    reason: `A PreToolUse hook asks about this call: ${said.reason ?? 'it gave no reason'}`,
    allowAlways: { refused: 'a hook asked about this call; it asks again next time.' },
  };
}

/**
 * A hook may answer a question only the mode raised (nothing allowed the call): never one an ask rule
 * raised (the built-in ones included), the outside-content gate, or a command that would run unsandboxed.
 */
function hookMayAnswer(verdict: PolicyVerdict, tool: GatedTool, sandbox: CommandSandbox): boolean {
  return verdict.rule === undefined && verdict.taint === undefined && unsandboxedNote(tool, sandbox) === undefined;
}

type AllowedBy = NonNullable<EventOf<'tool.started'>['allowedBy']>;

function allowedBy(verdict: PolicyVerdict): AllowedBy {
  return {
    reason: verdict.reason,
    ...(verdict.rule !== undefined ? { rule: verdict.rule } : {}),
    ...(verdict.source !== undefined ? { source: verdict.source } : {}),
  };
}

function deniedBy(verdict: PolicyVerdict): string {
  return `Denied by ${verdict.rule ? `the rule ${verdict.rule}` : 'policy'}: ${verdict.reason}`;
}

/** Why an edit gets no "Allow always" when a PreToolUse hook asked about the call. */
const HOOK_ASKED = 'a hook asked about this call; it asks again next time.';

/**
 * The person's version of the call, as their answer would judge it (`judge` is the check's own
 * evaluation, same rules and taint): for the request to show as they type. Nothing runs, nothing is logged.
 */
function previewOf(tool: GatedTool, args: unknown, edited: Json, judge: (callArgs: unknown) => PolicyVerdict): ApprovalPreview {
  const edit = checkEdit(tool, args, edited);
  if (edit.kind === 'invalid') {
    return {
      action: 'ask',
      reason: `This version is not a valid ${tool.name} call, so allowing it would run nothing.`,
      problem: edit.problem,
    };
  }
  const verdict = judge(edit.kind === 'changed' ? edit.args : args);
  return {
    action: verdict.action,
    reason: verdict.reason,
    ...(verdict.rule !== undefined ? { rule: verdict.rule } : {}),
    ...(verdict.commands !== undefined ? { commands: verdict.commands } : {}),
    ...(verdict.parts !== undefined ? { parts: verdict.parts } : {}),
    ...(verdict.action === 'ask' && verdict.allowAlways ? { allowAlways: verdict.allowAlways } : {}),
  };
}

/**
 * The answer to the person's version of the call. "Allow always" holds only within what would be
 * offered for their version (`again`: undefined unless the request showed them this very version
 * judged, see previewOf), and only while it still asks; anything else is allowed once, so no rule
 * the person never saw for their own version is created behind them.
 */
function editedDecision(decision: Decision, again: PolicyVerdict | undefined): Decision {
  const once = editedOnce(decision);
  if (decision.scope === 'once' || again?.action !== 'ask') return once;
  const kept = withinOffer(decision, again.allowAlways);
  return kept.scope === 'once' ? once : kept;
}

/** An edited call allowed once: no rule is created from it. */
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
