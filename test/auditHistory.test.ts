import { afterEach, describe, expect, it } from 'vitest';
import { auditCsv, auditJson, oneLine } from '../src/shared/auditExport';
import { requests } from '../src/shared/contract';
import { auditRows } from '../src/main/store/auditRows';
import { openStore } from '../src/main/store/store';
import { closeServices, openServices } from './support/appServices';
import { HOSTILE, runAudit, sessionWithEveryDecision } from './support/everyDecision';
import { removeTempDirs } from './support/tempDirs';

// The UI's permission history (`audit:list`) and `tether audit` list the same decisions through one
// function (store/auditRows.ts), and the history's exports are the command's output, byte for byte.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

/** The answer as the renderer receives it: checked and rebuilt by the contract's output schema, as the dispatcher does. */
async function listed(handlers: Awaited<ReturnType<typeof openServices>>['handlers'], input: { sessionId?: string; since?: number }) {
  return requests['audit:list'].output.parse(await handlers['audit:list'](input));
}

describe('audit:list, the permission history', () => {
  it('lists a decision of every kind, with who decided and the project, as tether audit does', async () => {
    const { dataDir, sessionId, otherId, project } = sessionWithEveryDecision();
    const { handlers } = await openServices({ dataDir });

    const rows = await listed(handlers, { sessionId });
    expect(rows.map((row) => [row.callId, row.action, row.by, row.rule ?? null, row.source ?? null])).toEqual([
      [null, 'no sandbox', 'run option', null, null],
      ['c1', 'allow', 'person', 'run_command(npm test *)', null],
      ['c2', 'deny', 'person', null, null],
      ['c3', 'allow', 'rules', null, null],
      ['c3u', 'allow', 'rules', 'run_command(npm test *)', 'user'],
      ['c3m', 'allow', 'managed policy', 'run_command(make *)', 'managed'],
      ['c3x', 'allow', 'unleashed mode', null, null],
      ['c3h', 'allow', 'hook', './vouch.sh', 'project'],
      ['c3b', 'deny', 'hook', 'guard.sh', 'user'],
      ['c4', 'deny', 'rules', 'run_command(rm *)', null],
      ['c4m', 'deny', 'managed policy', 'fetch_url', 'managed'],
      ['c5', 'deny', 'headless default', null, null],
      ['c6', 'allow', 'headless --unleashed', null, null],
      ['c7', 'allow', 'policy', null, null],
      ['c8', 'waiting', 'person', null, null],
    ]);
    expect(rows.every((row) => row.sessionId === sessionId && row.project === project)).toBe(true);
    expect(rows[2]).toMatchObject({ what: HOSTILE, reason: 'not "that", please', scope: 'once' });

    const all = await listed(handlers, {});
    expect(new Set(all.map((row) => row.sessionId))).toEqual(new Set([sessionId, otherId]));
    const since = Date.UTC(2026, 11, 1, 9, 20);
    const late = await listed(handlers, { since });
    expect(late.length).toBeGreaterThan(0);
    expect(late.length).toBeLessThan(all.length);
    expect(late.every((row) => row.at >= since)).toBe(true);
  });

  it('exports what tether audit --json and --csv print for the same data, byte for byte', async () => {
    const { dataDir, sessionId } = sessionWithEveryDecision();
    const { handlers } = await openServices({ dataDir });
    for (const filter of [{}, { sessionId }] as const) {
      const rows = await listed(handlers, filter);
      const flags = 'sessionId' in filter ? ['--session', sessionId] : [];
      expect(auditJson(rows)).toBe((await runAudit([...flags, '--json', '--data-dir', dataDir])).out);
      expect(auditCsv(rows)).toBe((await runAudit([...flags, '--csv', '--data-dir', dataDir])).out);
    }
  });

  it('refuses a session that does not exist, as the command does', async () => {
    const { dataDir } = sessionWithEveryDecision();
    const { handlers } = await openServices({ dataDir });
    await expect(handlers['audit:list']({ sessionId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    const store = openStore(dataDir);
    try {
      expect(auditRows(store, { sessionId: 'nope' })).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('writes an empty audit as the header alone and an empty array', () => {
    expect(auditJson([])).toBe('[]\n');
    expect(auditCsv([])).toBe('time,session,project,seq,call,tool,what,action,decided_by,rule,rule_source,scope,reason,runner\r\n');
  });

  it('puts a summary on one line, a bare carriage return included', () => {
    expect(oneLine('a\r\nb\rc\n  d')).toBe('a ⏎ b ⏎ c ⏎ d');
  });
});
