import type { ApprovalPreview } from '../../shared/contract';
import type { Json } from '../../shared/json';
import type { Decision, Risk } from '../../shared/permissions';

/** A permission request as the person (or their stand-in) sees it. */
export interface ApprovalRequest {
  approvalId: string;
  sessionId: string;
  callId: string;
  tool: string;
  risk: Risk;
  summary: string;
  args: Json;
  /** Why the policy asked. */
  reason: string;
  /**
   * Set when allowing would run something outside the OS sandbox (a command that hit the fence, run
   * again; a command with no sandbox available). Only a person can allow that.
   */
  leavesFence?: boolean;
  /** Set when a running command waits to connect to a host its sandbox fence does not allow. */
  network?: { host: string; port: number };
  /** Set when the managed policy's ask rule asks: only a person may answer it, never --unleashed. */
  managedAsk?: boolean;
  /**
   * Judges the person's version of the call (edited arguments) as the answer will: the same engine,
   * rules and taint, nothing run or logged. Absent where the call cannot be edited.
   */
  preview?(args: Json): ApprovalPreview;
}

/**
 * Turns an "ask" into a decision: the desktop app waits for the person, a headless run answers for
 * them. The request is already in the log when `decide` is called, so it survives a restart.
 */
export interface Broker {
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision>;
}

/**
 * `tether run`: nobody is there to ask, so every ask is a denial, unless the run was unleashed. Even
 * then nothing leaves the OS sandbox: --unleashed answers questions, it never switches the fence off
 * (that is --no-sandbox, a choice of its own), nor opens it to a host the fence does not allow (that
 * is --allow-host, for one run, or the project's allowed domains).
 */
export class HeadlessBroker implements Broker {
  constructor(private readonly options: { unleashed: boolean }) {}

  async decide(request: ApprovalRequest): Promise<Decision> {
    if (request.leavesFence) {
      return {
        action: 'deny',
        scope: 'once',
        by: 'headless',
        message:
          `Not run outside the sandbox: ${request.reason} A headless run keeps every command inside the sandbox` +
          `${this.options.unleashed ? ', --unleashed included' : ''}. Work inside the fence (the workspace, no secrets, ` +
          'only the allowed hosts), or say what needs to run outside it; only the person can choose to run without the sandbox (tether run --no-sandbox).',
      };
    }
    if (this.options.unleashed && request.managedAsk) {
      return {
        action: 'deny',
        scope: 'once',
        by: 'headless',
        message: `${request.reason} The managed policy wants a person to decide this, and a headless run has nobody to ask (--unleashed does not answer it).`,
      };
    }
    if (request.network) {
      // A host is part of the fence: --unleashed answers questions, it never opens the fence.
      const { host, port } = request.network;
      return {
        action: 'deny',
        scope: 'once',
        by: 'headless',
        message:
          `The connection to ${host}:${port} was refused: the project's sandbox fence does not allow that host, and a headless run (tether run` +
          `${this.options.unleashed ? ', --unleashed included' : ''}) opens no host nobody named. Work without it, or say which host the command needs: ` +
          `the person can name it for one run (tether run --allow-host ${host}) or add it to the project's allowed domains (Settings → Sandbox).`,
      };
    }
    if (this.options.unleashed) return { action: 'allow', scope: 'once', by: 'headless' };
    return {
      action: 'deny',
      scope: 'once',
      by: 'headless',
      message:
        'This is a headless run (tether run) and nobody can approve actions; it denies every action that needs ' +
        'approval unless it was started with --unleashed. Use the read-only tools, or finish and say what you would do.',
    };
  }
}
