import type { AnswerOutcome, DeskDecision } from '../../../shared/deskProtocol';
import type { Decision } from '../../../shared/permissions';
import type { ApprovalRequest, Broker } from '../../permissions/broker';

/**
 * `tether run --desk`: every question goes to the person at the desk, and the run waits for their
 * answer, never proceeding without one. The request itself reaches the desk as the run's own
 * `approval.asked` event (mirrored with the rest of its log); this broker waits for the answer to its
 * id. No answer within the wait (`--desk-wait`), or a desk that is gone for good, is a denial with a
 * message to the model. While it waits, the call's timeouts stand still (the runner holds them for
 * every question asked within a call), and a desk that goes away and comes back within the wait
 * still answers. An answer is applied once: a repeat (sent again after a reconnect) is only acknowledged.
 */
export class RemoteBroker implements Broker {
  private readonly waiting = new Map<string, (decision: Decision) => void>();
  private readonly applied = new Set<string>();
  private goneBecause: string | undefined;

  constructor(
    private readonly options: {
      /** How long a question waits for the desk's answer, in ms. */
      waitMs: number;
      /** The runner's name, for the messages. */
      runner: string;
    },
  ) {}

  decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision> {
    if (this.goneBecause) return Promise.resolve(denied(this.goneBecause));
    return new Promise<Decision>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const finish = (decision: Decision): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiting.delete(request.approvalId);
        resolve(decision);
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        this.waiting.delete(request.approvalId);
        reject(signal.reason);
      };
      const minutes = this.options.waitMs / 60_000;
      const timer = setTimeout(
        () =>
          finish(
            denied(
              `Nobody answered this request at the desk within ${minutes >= 1 ? `${+minutes.toFixed(1)} min` : `${Math.round(this.options.waitMs / 1000)} s`} (tether run --desk-wait), so it was denied. Try another way that needs no approval, or finish and say what you would do.`,
            ),
          ),
        this.options.waitMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.approvalId, finish);
    });
  }

  /** The person's answer, from the desk: applied once, if the question still waits. */
  take(approvalId: string, answer: DeskDecision): AnswerOutcome {
    if (this.applied.has(approvalId)) return 'already';
    const finish = this.waiting.get(approvalId);
    if (!finish) return 'not_waiting';
    this.applied.add(approvalId);
    finish({
      action: answer.action,
      scope: answer.action === 'allow' ? answer.scope : 'once',
      by: 'person',
      ...(answer.message ? { message: answer.message } : {}),
      ...(answer.action === 'allow' && answer.rule && answer.scope !== 'once' ? { rule: answer.rule } : {}),
      ...(answer.action === 'allow' && answer.editedArgs !== undefined ? { editedArgs: answer.editedArgs } : {}),
    });
    return 'applied';
  }

  /** The desk is gone for good: every question waiting now, and every one after, is denied with `why`. */
  giveUp(why: string): void {
    this.goneBecause = why;
    for (const finish of [...this.waiting.values()]) finish(denied(why));
  }

  /** How many questions wait for the desk now. */
  get waitingCount(): number {
    return this.waiting.size;
  }
}

function denied(message: string): Decision {
  return { action: 'deny', scope: 'once', by: 'headless', message };
}
