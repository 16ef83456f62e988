import type { SessionEvent } from '../../src/shared/events';
import { usage } from './fakeApi';

/** A session's first two events: it started, and the person gave it a task. */
export const opening: SessionEvent[] = [
  { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:1/v1', maxSteps: 5 },
  { type: 'user.messaged', text: 'go' },
];

/** The model asks to run `command`, and the request for it waits for the person. */
export function asking(callId: string, approvalId: string, command: string): SessionEvent[] {
  return [
    { type: 'model.responded', usage, items: [{ type: 'tool_call', callId, name: 'run_command', arguments: JSON.stringify({ command }) }] },
    { type: 'approval.asked', approvalId, callId, tool: 'run_command', risk: 'exec', summary: `Run ${command}`, args: { command } },
  ];
}
