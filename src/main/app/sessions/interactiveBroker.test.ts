import { describe, expect, it } from 'vitest';
import { ApprovalAnswer } from '../../../shared/contract';
import type { ApprovalRequest } from '../../permissions/broker';
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

  it('passes the arguments the person edited on with their allow', async () => {
    const broker = new InteractiveBroker();
    const decided = broker.decide(request, new AbortController().signal);
    broker.answer({ approvalId: 'a1', action: 'allow', scope: 'once', args: { command: 'npm test -- --bail' } });
    await expect(decided).resolves.toEqual({ action: 'allow', scope: 'once', by: 'person', editedArgs: { command: 'npm test -- --bail' } });
  });

  it('keeps edited arguments for a session still resuming, as it keeps any early answer', async () => {
    const broker = new InteractiveBroker();
    broker.answer({ approvalId: 'a1', action: 'allow', scope: 'once', args: { command: 'npm test' } }, { stillAsked: true });
    await expect(broker.decide(request, new AbortController().signal)).resolves.toMatchObject({ editedArgs: { command: 'npm test' } });
  });

  it('is spared edited arguments on a denial by the contract, which refuses them with a reason', () => {
    const result = ApprovalAnswer.safeParse({ approvalId: 'a1', action: 'deny', scope: 'once', args: { command: 'ls' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/only with "allow"/);
    expect(ApprovalAnswer.safeParse({ approvalId: 'a1', action: 'allow', scope: 'once', args: { command: 'ls' } }).success).toBe(true);
  });

  it('never turns edited arguments into part of a denial', async () => {
    const broker = new InteractiveBroker();
    const decided = broker.decide(request, new AbortController().signal);
    // The contract refuses this shape; the broker must not act on it if a host skipped the check.
    broker.answer({ approvalId: 'a1', action: 'deny', scope: 'once', args: { command: 'rm -rf /' } });
    await expect(decided).resolves.toEqual({ action: 'deny', scope: 'once', by: 'person' });
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
