import type { ApprovalAnswer } from '../../src/shared/contract';
import type { EventOf, StoredEvent } from '../../src/shared/events';
import type { Core } from '../../src/main/core';
import type { ModelConfig } from '../../src/main/model/config';
import { InteractiveBroker } from '../../src/main/app/sessions/interactiveBroker';

export type Asked = EventOf<'approval.asked'>;
export type Reply = Omit<ApprovalAnswer, 'approvalId'>;

/**
 * Runs one session through the real core against the scripted model at `baseUrl`, a person answering
 * each request with `answer` (or leaving it waiting when that returns undefined), as the desktop
 * broker would: after the request is logged, never before.
 */
export async function runAnsweredSession(
  core: Core,
  baseUrl: string,
  workspace: string,
  answer: (asked: Asked) => Reply | undefined,
  options: { rulesFile?: string } = {},
) {
  const model: ModelConfig = { baseUrl, apiKey: 'k', model: 'scripted-model', api: 'chat' };
  const broker = new InteractiveBroker();
  const sessionId = core.createSession({ workspace, task: 'work', model, maxSteps: 10 });
  const asked: Asked[] = [];
  const outcome = await core.run(sessionId, {
    model,
    broker,
    signal: new AbortController().signal,
    ...(options.rulesFile ? { rulesFile: options.rulesFile } : {}),
    onEvent(stored: StoredEvent) {
      if (stored.event.type !== 'approval.asked') return;
      const event = stored.event;
      asked.push(event);
      const reply = answer(event);
      if (reply) queueMicrotask(() => broker.answer({ approvalId: event.approvalId, ...reply }));
    },
  });
  return { sessionId, outcome, asked, events: core.store.events.list(sessionId) };
}
