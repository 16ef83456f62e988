import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { editableField, editOutcome } from '../../src/renderer/src/features/permission/approvalEdit';
import { selectCurrentApproval } from '../../src/renderer/src/stores/selectors';
import { FakeApi, settle, storedEvents, usage } from './fakeApi';
import { harness } from './storeHarness';

// What the dialog sends when the person changes a call before allowing it: which argument they may
// change, when a draft counts as a change, what it refuses before sending, and what reaches the host.

const command = { tool: 'run_command', args: { command: 'npm test', timeout_ms: 120000 } };

describe('the edit a person makes before allowing', () => {
  it('offers the command, the new text of an edit, and a file’s content, and nothing else', () => {
    expect(editableField(command)).toEqual({ name: 'command', label: 'command', original: 'npm test' });
    expect(editableField({ tool: 'edit_file', args: { path: 'a', old_string: 'x', new_string: 'y' } })).toMatchObject({
      name: 'new_string',
      original: 'y',
    });
    expect(editableField({ tool: 'write_file', args: { path: 'a', content: '' } })).toMatchObject({ name: 'content', original: '' });
    expect(editableField({ tool: 'fetch_url', args: { url: 'https://example.com' } })).toBeUndefined();
    // Arguments that are not what the tool takes (the log holds what the model sent) offer nothing to edit.
    expect(editableField({ tool: 'run_command', args: { command: 42 } })).toBeUndefined();
  });

  it('sends the whole call with only the edited argument changed', () => {
    const field = editableField(command)!;
    expect(editOutcome(command, field, 'npm test -- --bail')).toEqual({
      kind: 'changed',
      args: { command: 'npm test -- --bail', timeout_ms: 120000 },
    });
  });

  it('counts a draft equal to the model’s value as no edit, so Allow always stays on', () => {
    const field = editableField(command)!;
    expect(editOutcome(command, field, 'npm test')).toEqual({ kind: 'unchanged' });
    // Enter adds a line in the box; a line break left at the end of a command is not a change.
    expect(editOutcome(command, field, 'npm test\n')).toEqual({ kind: 'unchanged' });
  });

  it('refuses an empty command before sending, and says what to do', () => {
    const outcome = editOutcome(command, editableField(command)!, '  \n ');
    expect(outcome).toEqual({ kind: 'invalid', problem: expect.stringMatching(/^The command is empty: type the command to run/) });
  });

  it('keeps every character of new text and content, an empty one included', () => {
    const edit = { tool: 'edit_file', args: { path: 'a', old_string: 'x', new_string: 'y' } };
    expect(editOutcome(edit, editableField(edit)!, '')).toEqual({ kind: 'changed', args: { path: 'a', old_string: 'x', new_string: '' } });
    const write = { tool: 'write_file', args: { path: 'a', content: 'one' } };
    expect(editOutcome(write, editableField(write)!, 'one\n\n')).toEqual({ kind: 'changed', args: { path: 'a', content: 'one\n\n' } });
  });
});

describe('answering with an edit', () => {
  const events: SessionEvent[] = [
    { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:1/v1', maxSteps: 5 },
    { type: 'user.messaged', text: 'go' },
    {
      type: 'model.responded',
      usage,
      items: [{ type: 'tool_call', callId: 'c1', name: 'run_command', arguments: '{"command":"npm test"}' }],
    },
    { type: 'approval.asked', approvalId: 'a1', callId: 'c1', tool: 'run_command', risk: 'exec', summary: 'npm test', args: command.args },
  ];

  it('sends the person’s version to the host as it is, and the folded log shows the edit once answered', async () => {
    const api = new FakeApi({
      'session:events': () => storedEvents('s1', events),
      'approval:answer': () => undefined,
      'approvals:pending': () => [],
    });
    const { store } = harness(api);
    await store.getState().loadSession('s1');
    const approval = selectCurrentApproval(store.getState())!.approval;
    const outcome = editOutcome(approval, editableField(approval)!, 'npm test -- --bail');
    if (outcome.kind !== 'changed') throw new Error('expected a change');

    expect(await store.getState().answerApproval({ approvalId: 'a1', action: 'allow', scope: 'once', args: outcome.args })).toBe(true);
    expect(api.callsTo('approval:answer')).toEqual([
      { approvalId: 'a1', action: 'allow', scope: 'once', args: { command: 'npm test -- --bail', timeout_ms: 120000 } },
    ]);

    const decision = { action: 'allow' as const, scope: 'once' as const, by: 'person' as const, editedArgs: outcome.args };
    api.emit('session:event', {
      sessionId: 's1',
      seq: 5,
      at: 9,
      event: { type: 'approval.answered', approvalId: 'a1', callId: 'c1', decision },
    });
    await settle();
    expect(store.getState().logs.s1?.state.approvals.a1?.decision?.editedArgs).toEqual({
      command: 'npm test -- --bail',
      timeout_ms: 120000,
    });
    expect(selectCurrentApproval(store.getState())).toBeNull();
  });
});
