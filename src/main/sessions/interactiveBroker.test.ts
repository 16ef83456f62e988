import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../permissions/broker';
import { InteractiveBroker } from './interactiveBroker';

const request: ApprovalRequest = {
  approvalId: 'a1',
  sessionId: 's',
  callId: 'c',
  tool: 'run_command',
  risk: 'exec',
  summary: 'Run npm test',
  args: { command: 'npm test' },
  reason: 'exec asks',
};

describe('InteractiveBroker', () => {
  it('waits until the person answers, and passes their message on', async () => {
    const broker = new InteractiveBroker();
    const decided = broker.decide(request, new AbortController().signal);
    expect(broker.isWaiting('a1')).toBe(true);
    broker.answer({ approvalId: 'a1', action: 'deny', scope: 'once', message: '  use pnpm  ' });
    await expect(decided).resolves.toEqual({ action: 'deny', scope: 'once', by: 'person', message: 'use pnpm' });
  });

  it('takes one answer only: a second window answering the same request is refused', async () => {
    const broker = new InteractiveBroker();
    const decided = broker.decide(request, new AbortController().signal);
    broker.answer({ approvalId: 'a1', action: 'allow', scope: 'once' });
    expect(() => broker.answer({ approvalId: 'a1', action: 'deny', scope: 'once' })).toThrow(/no longer waiting/);
    await expect(decided).resolves.toMatchObject({ action: 'allow' });
  });

  it('refuses an answer to a request that does not exist', () => {
    expect(() => new InteractiveBroker().answer({ approvalId: 'nope', action: 'allow', scope: 'once' })).toThrow(/no longer waiting/);
  });

  it('keeps the rule only for an allow beyond once', async () => {
    const broker = new InteractiveBroker();
    const decided = broker.decide(request, new AbortController().signal);
    broker.answer({ approvalId: 'a1', action: 'allow', scope: 'project', rule: 'run_command(npm test *)' });
    await expect(decided).resolves.toEqual({ action: 'allow', scope: 'project', by: 'person', rule: 'run_command(npm test *)' });
  });

  it('gives up the request when the session stops', async () => {
    const broker = new InteractiveBroker();
    const controller = new AbortController();
    const decided = broker.decide(request, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(decided).rejects.toThrow('stopped');
    expect(broker.isWaiting('a1')).toBe(false);
  });
});
