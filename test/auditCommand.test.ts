import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditCommand, parseSince } from '../src/main/cli/auditCommand';
import { FORMULA, HOSTILE, runAudit as run, sessionWithEveryDecision } from './support/everyDecision';
import { removeTempDirs } from './support/tempDirs';

afterEach(() => {
  vi.restoreAllMocks();
  removeTempDirs();
});

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
      'runner',
    ]);
    expect(records).toHaveLength(16);
    expect(records.every((record) => record.length === 14)).toBe(true);
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
