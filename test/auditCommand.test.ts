import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../src/shared/events';
import { auditCommand, parseSince } from '../src/main/cli/auditCommand';
import { openStore } from '../src/main/store/store';
import { removeTempDirs, tempDir } from './support/tempDirs';

afterEach(() => {
  vi.restoreAllMocks();
  removeTempDirs();
});

const HOSTILE = 'echo "a, b"\nrm -rf x';
const FORMULA = '=HYPERLINK("http://evil.example")';
const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);

/** A session whose log holds a decision of every kind, each a minute after the last. */
function sessionWithEveryDecision(): { dataDir: string; sessionId: string; otherId: string; project: string } {
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

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const code = await auditCommand(args);
  vi.restoreAllMocks();
  return { code, out };
}

describe('tether audit', () => {
  it('lists a decision of every kind with who decided, as JSON', async () => {
    const { dataDir, sessionId, project } = sessionWithEveryDecision();
    const { code, out } = await run(['--session', sessionId, '--json', '--data-dir', dataDir]);
    expect(code).toBe(0);
    const rows = JSON.parse(out) as Array<Record<string, unknown>>;
    expect(rows.map((row) => [row.callId, row.action, row.by, row.rule ?? null])).toEqual([
      [null, 'no sandbox', 'run option', null],
      ['c1', 'allow', 'person', 'run_command(npm test *)'],
      ['c2', 'deny', 'person', null],
      ['c3', 'allow', 'rules', null],
      ['c3u', 'allow', 'rules', 'run_command(npm test *)'],
      ['c3m', 'allow', 'managed policy', 'run_command(make *)'],
      ['c3x', 'allow', 'unleashed mode', null],
      ['c3h', 'allow', 'hook', './vouch.sh'],
      ['c3b', 'deny', 'hook', 'guard.sh'],
      ['c4', 'deny', 'rules', 'run_command(rm *)'],
      ['c4m', 'deny', 'managed policy', 'fetch_url'],
      ['c5', 'deny', 'headless default', null],
      ['c6', 'allow', 'headless --unleashed', null],
      ['c7', 'allow', 'policy', null],
      ['c8', 'waiting', 'person', null],
    ]);
    expect(rows.every((row) => row.sessionId === sessionId && row.project === project)).toBe(true);
    expect(rows[1]).toMatchObject({ scope: 'project', what: 'npm test', tool: 'run_command' });
    expect(rows[2]).toMatchObject({ what: HOSTILE, reason: 'not "that", please' });
    expect(rows[3]).toMatchObject({ what: 'Read a.ts', tool: 'read_file' });
    expect(rows[4]).toMatchObject({ source: 'user' });
    expect(rows[7]).toMatchObject({ source: 'project', reason: 'PreToolUse hook: vouched' });
    expect(rows[8]).toMatchObject({ source: 'user', reason: 'PreToolUse hook: no rm', what: 'Blocked by a hook: rm x' });
    expect(rows[9]).toMatchObject({ reason: 'run_command(rm *) denies rm -rf /.' });
    expect(rows[0]?.time).toMatch(/^2026-12-01T09:\d\d:00\.000Z$/);
  });

  it('lists every session without --session, and --since keeps only what came after', async () => {
    const { dataDir, sessionId, otherId } = sessionWithEveryDecision();
    const all = JSON.parse((await run(['--json', '--data-dir', dataDir])).out) as Array<{ sessionId: string; callId: string }>;
    expect(new Set(all.map((row) => row.sessionId))).toEqual(new Set([sessionId, otherId]));
    // The store's clock ticks a minute per write: two sessions, then the events from 09:03 on.
    const late = JSON.parse((await run(['--json', '--since', '2026-12-01T09:20:00Z', '--data-dir', dataDir])).out) as Array<{
      callId: string;
      time: string;
    }>;
    expect(late.length).toBeGreaterThan(0);
    expect(late.length).toBeLessThan(all.length);
    expect(late.every((row) => row.time >= '2026-12-01T09:20:00.000Z')).toBe(true);
    expect((await run(['--since', '2030-01-01', '--data-dir', dataDir])).out).toBe('No decisions recorded.\n');
  });

  it('writes CSV that quotes commas, quotes and line breaks and defuses formulas', async () => {
    const { dataDir, sessionId } = sessionWithEveryDecision();
    const { out } = await run(['--session', sessionId, '--csv', '--data-dir', dataDir]);
    const records = parseCsv(out);
    expect(records[0]).toEqual([
      'time',
      'session',
      'project',
      'seq',
      'call',
      'tool',
      'what',
      'action',
      'decided_by',
      'rule',
      'rule_source',
      'scope',
      'reason',
    ]);
    expect(records).toHaveLength(16);
    expect(records.every((record) => record.length === 13)).toBe(true);
    const denied = records.find((record) => record[4] === 'c2');
    expect(denied?.[6]).toBe(HOSTILE);
    expect(denied?.[12]).toBe('not "that", please');
    expect(records.find((record) => record[4] === 'c4')?.[6]).toBe('Denied: =cmd|calc');
    expect(records.find((record) => record[4] === 'c8')?.[6]).toBe(`'${FORMULA}`);
    expect(out).toContain(`"${HOSTILE.replaceAll('"', '""')}"`);
  });

  it('prints one line per decision as text, a summary with line breaks included', async () => {
    const { dataDir, sessionId } = sessionWithEveryDecision();
    const { out } = await run(['--session', sessionId, '--data-dir', dataDir]);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(15);
    expect(lines[1]).toMatch(/allow\s+by person \(rule run_command\(npm test \*\), project\)\s+run_command: npm test/);
    expect(lines[2]).toContain('echo "a, b" ⏎ rm -rf x');
  });

  it('refuses bad flags with a clear message', async () => {
    const { dataDir } = sessionWithEveryDecision();
    await expect(auditCommand(['--session', 'nope', '--data-dir', dataDir])).rejects.toThrow('No session nope');
    await expect(auditCommand(['--json', '--csv', '--data-dir', dataDir])).rejects.toThrow('Choose one of --json and --csv');
    for (const bad of ['yesterday', '12', '7w', '2026-13-45', '']) {
      await expect(auditCommand(['--since', bad, '--data-dir', dataDir])).rejects.toThrow('--since takes a date');
    }
  });

  it('reads --since as a date, a date-time or a span back from now', () => {
    const now = Date.UTC(2026, 11, 2, 12, 0, 0);
    expect(parseSince('2026-12-01', now)).toBe(Date.UTC(2026, 11, 1));
    expect(parseSince('2026-12-01T09:30:00Z', now)).toBe(Date.UTC(2026, 11, 1, 9, 30));
    expect(parseSince('30m', now)).toBe(now - 30 * 60_000);
    expect(parseSince('12h', now)).toBe(now - 12 * 3_600_000);
    expect(parseSince('7d', now)).toBe(now - 7 * 86_400_000);
  });
});

/** A small RFC 4180 reader, to check the output as a spreadsheet would read it (the ' before a formula stays). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (record.push(field), (field = ''));
    else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  return records;
}
