import type { ApprovalAnswer, ApprovalPreview } from '../../../shared/contract';
import type { Json } from '../../../shared/json';
import type { Decision } from '../../../shared/permissions';
import type { ApprovalRequest, Broker } from '../../permissions/broker';
import { RequestError } from '../../../shared/requestError';

interface Waiting {
  request: ApprovalRequest;
  resolve(decision: Decision): void;
}

/**
 * The desktop broker: a request waits until the person answers it (in any window). The request is
 * already in the log when it arrives here, so after a restart it is asked again under the same id.
 * An answer is taken once; a second one, or one for a request that no longer waits, is refused.
 */
export class InteractiveBroker implements Broker {
  private readonly waiting = new Map<string, Waiting>();
  /** Answers to requests stored in the log that a resuming run has not reached yet. */
  private readonly early = new Map<string, Decision>();
  /**
   * Requests this broker has taken an answer for. The log records the answer a moment later (when
   * the call goes on), so until then only this says a second answer comes too late.
   */
  private readonly taken = new Set<string>();

  decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision> {
    const answered = this.early.get(request.approvalId);
    if (answered) {
      this.early.delete(request.approvalId);
      return Promise.resolve(answered);
    }
    return new Promise<Decision>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.waiting.delete(request.approvalId);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.approvalId, {
        request,
        resolve: (decision) => {
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
    });
  }

  /** Whether this process holds the request, i.e. an answer now would be taken. */
  isWaiting(approvalId: string): boolean {
    return this.waiting.has(approvalId);
  }

  /** What answering with the person's version of the call would come to (see ApprovalRequest.preview). */
  preview(approvalId: string, args: Json): ApprovalPreview {
    const waiting = this.waiting.get(approvalId);
    if (!waiting) throw new RequestError('not_found', 'This permission request is no longer waiting, so there is nothing to check.');
    if (!waiting.request.preview)
      throw new RequestError('conflict', 'This request cannot be edited: it is a yes or no about a call already allowed.');
    return waiting.request.preview(args);
  }

  /**
   * Takes the person's answer. `stillAsked` says the log holds the request unanswered and its session is
   * resuming: the answer is then kept until the run asks again, rather than refused.
   */
  answer(answer: ApprovalAnswer, options: { stillAsked?: boolean } = {}): void {
    const waiting = this.waiting.get(answer.approvalId);
    if (!waiting && this.taken.has(answer.approvalId)) {
      throw new RequestError('not_found', 'This permission request is no longer waiting: it was already answered.');
    }
    if (!waiting && options.stillAsked && !this.early.has(answer.approvalId)) {
      this.early.set(answer.approvalId, toDecision(answer));
      return;
    }
    if (!waiting) {
      throw new RequestError('not_found', 'This permission request is no longer waiting: it was already answered, or its session stopped.');
    }
    // Taken before resolving, so a second answer arriving in the same tick is refused, not applied twice.
    this.waiting.delete(answer.approvalId);
    this.taken.add(answer.approvalId);
    waiting.resolve(toDecision(answer));
  }
}

function toDecision(answer: ApprovalAnswer): Decision {
  return {
    action: answer.action,
    scope: answer.action === 'allow' ? answer.scope : 'once',
    by: 'person',
    ...(answer.message?.trim() ? { message: answer.message.trim() } : {}),
    ...(answer.action === 'allow' && answer.scope !== 'once' && answer.rule ? { rule: answer.rule } : {}),
    // Passed on as the person sent them: the runner validates them against the tool and decides the scope.
    ...(answer.action === 'allow' && answer.args !== undefined ? { editedArgs: answer.args } : {}),
  };
}
