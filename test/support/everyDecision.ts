import { vi } from 'vitest';
import { auditCommand } from '../../src/main/cli/auditCommand';
import type { SessionEvent } from '../../src/shared/events';
import { openStore } from '../../src/main/store/store';
import { tempDir } from './tempDirs';

// A data directory whose log holds a decision of every kind the audit names, for `tether audit`'s
// tests and the permission history's (test/auditHistory.test.ts).

/** A summary with a comma, quotes and a line break, as a model may write one. */
export const HOSTILE = 'echo "a, b"\nrm -rf x';
/** A summary a spreadsheet would run as a formula. */
export const FORMULA = '=HYPERLINK("http://evil.example")';
/** A session title, as the model may name a session: a formula, a comma and quotes. */
export const TITLE = '@SUM(1,2) fix the "login"';
const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);

/** A session whose log holds a decision of every kind, each a minute after the last. */
export function sessionWithEveryDecision(): { dataDir: string; sessionId: string; otherId: string; project: string } {
  const dataDir = tempDir();
  const project = tempDir();
  let clock = T0;
  const store = openStore(dataDir, { now: () => (clock += 60_000) });
  try {
    const projectId = store.projects.ensure(project).id;
    const session = store.sessions.create({
      workspace: project,
      model: 'm',
      api: 'responses',
      baseUrl: 'http://x',
      maxSteps: 5,
      projectId,
      title: TITLE,
    });
    const other = store.sessions.create({ workspace: project, model: 'm', api: 'responses', baseUrl: 'http://x', maxSteps: 5 });
    const asked = (approvalId: string, callId: string, summary: string): SessionEvent => ({
      type: 'approval.asked',
      approvalId,
      callId,
      tool: 'run_command',
      risk: 'exec',
      summary,
      args: { command: summary },
      reason: 'run_command asks by default.',
    });
    const events: SessionEvent[] = [
      { type: 'sandbox.turned_off', by: 'tether run --no-sandbox' },
      // The person allowed always, with the rule they created.
      asked('a1', 'c1', 'npm test'),
      {
        type: 'approval.answered',
        approvalId: 'a1',
        callId: 'c1',
        decision: { action: 'allow', scope: 'project', by: 'person', rule: 'run_command(npm test *)' },
      },
      { type: 'tool.started', callId: 'c1', name: 'run_command', args: { command: 'npm test' } },
      { type: 'tool.finished', callId: 'c1', name: 'run_command', outcome: 'ok', title: 'npm test', output: '', durationMs: 1 },
      // The person denied, with a message.
      asked('a2', 'c2', HOSTILE),
      {
        type: 'approval.answered',
        approvalId: 'a2',
        callId: 'c2',
        decision: { action: 'deny', scope: 'once', by: 'person', message: 'not "that", please' },
      },
      {
        type: 'tool.finished',
        callId: 'c2',
        name: 'run_command',
        outcome: 'denied',
        title: 'Denied',
        output: 'The person denied this call.',
        durationMs: 0,
      },
      // A rule allowed it unasked.
      { type: 'tool.started', callId: 'c3', name: 'read_file', args: { path: 'a.ts' } },
      { type: 'tool.finished', callId: 'c3', name: 'read_file', outcome: 'ok', title: 'Read a.ts', output: 'x', durationMs: 1 },
      // A rule of the person's allowed it, the managed policy allowed one, unleashed mode another.
      {
        type: 'tool.started',
        callId: 'c3u',
        name: 'run_command',
        args: { command: 'npm test' },
        allowedBy: { reason: 'allowed', rule: 'run_command(npm test *)', source: 'user' },
      },
      {
        type: 'tool.started',
        callId: 'c3m',
        name: 'run_command',
        args: { command: 'make' },
        allowedBy: { reason: 'allowed', rule: 'run_command(make *)', source: 'managed' },
      },
      {
        type: 'tool.started',
        callId: 'c3x',
        name: 'run_command',
        args: { command: 'touch x' },
        allowedBy: { reason: 'Unleashed mode allows what would ask: run_command asks.' },
      },
      // A hook allowed one, and blocked another.
      {
        type: 'hook.ran',
        hookEvent: 'PreToolUse',
        source: 'project',
        command: './vouch.sh',
        callId: 'c3h',
        result: 'ok',
        decision: 'allow',
        reason: 'vouched',
        durationMs: 3,
      },
      { type: 'tool.started', callId: 'c3h', name: 'run_command', args: { command: 'ls' } },
      {
        type: 'hook.ran',
        hookEvent: 'PreToolUse',
        source: 'user',
        command: 'guard.sh',
        callId: 'c3b',
        result: 'blocked',
        exitCode: 2,
        reason: 'no rm',
        durationMs: 3,
      },
      {
        type: 'tool.finished',
        callId: 'c3b',
        name: 'run_command',
        outcome: 'denied',
        title: 'Blocked by a hook: rm x',
        output: 'Blocked by a PreToolUse hook: no rm',
        durationMs: 0,
      },
      // A rule denied it unasked.
      {
        type: 'tool.finished',
        callId: 'c4',
        name: 'run_command',
        outcome: 'denied',
        title: 'Denied: =cmd|calc',
        output: 'Denied by the rule run_command(rm *): run_command(rm *) denies rm -rf /.',
        durationMs: 0,
      },
      // A rule of the managed policy denied it.
      {
        type: 'tool.finished',
        callId: 'c4m',
        name: 'fetch_url',
        outcome: 'denied',
        title: 'Denied: fetch evil.example',
        output: 'Denied by the rule fetch_url: fetch_url denies fetching from evil.example (a rule of the managed policy).',
        durationMs: 0,
      },
      // The headless default, and --unleashed.
      asked('a5', 'c5', 'curl example.com'),
      {
        type: 'approval.answered',
        approvalId: 'a5',
        callId: 'c5',
        decision: { action: 'deny', scope: 'once', by: 'headless', message: 'headless' },
      },
      asked('a6', 'c6', 'make'),
      { type: 'approval.answered', approvalId: 'a6', callId: 'c6', decision: { action: 'allow', scope: 'once', by: 'headless' } },
      // The rules settled a question after a restart.
      asked('a7', 'c7', 'ls'),
      { type: 'approval.answered', approvalId: 'a7', callId: 'c7', decision: { action: 'allow', scope: 'once', by: 'policy' } },
      // Still waiting.
      asked('a8', 'c8', FORMULA),
    ];
    for (const event of events) store.events.append(session.id, event);
    store.events.append(other.id, { type: 'tool.started', callId: 'o1', name: 'list_files', args: {} });
    return { dataDir, sessionId: session.id, otherId: other.id, project: store.projects.get(projectId)?.path ?? project };
  } finally {
    store.close();
  }
}

/** Runs `tether audit` in this process and returns what it printed. */
export async function runAudit(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await auditCommand(args), out };
  } finally {
    vi.restoreAllMocks();
  }
}
