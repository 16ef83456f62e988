import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AuditRow } from '../../src/shared/auditExport';
import { PermissionHistory } from '../../src/renderer/src/features/history/PermissionHistory';
import { sinceTime } from '../../src/renderer/src/lib/historySince';
import type { AppStore } from '../../src/renderer/src/stores/createAppStore';
import { StoreContext } from '../../src/renderer/src/stores/useApp';
import { FakeApi, settle } from './fakeApi';
import { harness } from './storeHarness';

const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);

function row(overrides: Partial<AuditRow> & { seq: number }): AuditRow {
  return {
    at: T0 + overrides.seq * 60_000,
    sessionId: 's1',
    callId: `c${overrides.seq}`,
    tool: 'run_command',
    what: 'npm test',
    action: 'allow',
    by: 'person',
    project: '/work/repo',
    sessionTitle: 'Fix the tests',
    ...overrides,
  };
}

const EVERY_KIND: AuditRow[] = [
  row({ seq: 1, callId: null, tool: null, what: 'commands ran with no OS sandbox', action: 'no sandbox', by: 'run option' }),
  row({ seq: 2, by: 'person', rule: 'run_command(npm test *)', scope: 'project' }),
  row({ seq: 3, action: 'deny', what: 'echo "<b>x</b>"\nrm -rf ~', reason: 'not <i>that</i>' }),
  row({ seq: 4, by: 'managed policy', rule: 'run_command(make *)', source: 'managed' }),
  row({ seq: 5, action: 'deny', by: 'hook', rule: 'guard.sh', source: 'user', reason: 'PreToolUse hook: no rm' }),
  row({ seq: 6, action: 'deny', by: 'headless default' }),
  row({ seq: 7, action: 'waiting', what: '=HYPERLINK("http://evil.example")' }),
];

function render(store: AppStore): string {
  // The server renderer reads a store's initial state; this one's current state is the point.
  const current = { ...store, getInitialState: store.getState };
  return renderToStaticMarkup(createElement(StoreContext.Provider, { value: current }, createElement(PermissionHistory)));
}

/** A store whose audit:list answers `rows` (filtered by session as main filters them), recording each request. */
async function opened(rows: AuditRow[], sessionId: string | null = null) {
  const api = new FakeApi({
    'audit:list': (input) => rows.filter((r) => input.sessionId === undefined || r.sessionId === input.sessionId),
  });
  const { store } = harness(api);
  store.getState().showHistory(sessionId);
  await settle();
  return { api, store };
}

describe('the permission history', () => {
  it('opens from anywhere for every session, or for one session, and asks main for exactly that', async () => {
    const { api, store } = await opened(EVERY_KIND, 's1');
    expect(store.getState().view).toBe('history');
    expect(api.callsTo('audit:list')).toEqual([{ sessionId: 's1' }]);
    store.getState().setHistoryFilter({ sessionId: null });
    await settle();
    expect(api.callsTo('audit:list').at(-1)).toEqual({});
    expect(store.getState().history).toMatchObject({ status: 'ready', rows: EVERY_KIND });
  });

  it('asks for decisions since a span back from now, or since the start of a chosen day', async () => {
    const { api, store } = await opened(EVERY_KIND);
    const before = Date.now();
    store.getState().setHistoryFilter({ since: '24h' });
    await settle();
    const { since } = api.callsTo('audit:list').at(-1) as { since: number };
    expect(since).toBeGreaterThanOrEqual(before - 86_400_000);
    expect(since).toBeLessThanOrEqual(Date.now() - 86_400_000);
    expect(sinceTime('day:2026-12-01', 0)).toBe(new Date(2026, 11, 1).getTime());
    expect(sinceTime('any', 0)).toBeUndefined();
  });

  it('asks for one tool, one action and one decider, together or alone, and offers each to choose', async () => {
    const { api, store } = await opened(EVERY_KIND);
    store.getState().setHistoryFilter({ tool: 'run_command', action: 'deny', by: 'person' });
    await settle();
    expect(api.callsTo('audit:list').at(-1)).toEqual({ tool: 'run_command', action: 'deny', by: 'person' });
    store.getState().setHistoryFilter({ tool: null, action: null });
    await settle();
    expect(api.callsTo('audit:list').at(-1)).toEqual({ by: 'person' });

    const html = render(store);
    for (const choice of ['history-filter-tool', 'history-filter-action', 'history-filter-by'])
      expect(html).toContain(`data-testid="${choice}"`);
    for (const option of ['run_command', 'fetch_url', 'no sandbox', 'managed policy', 'headless --unleashed']) {
      expect(html).toContain(`<option value="${option}"`);
    }
  });

  it('names a session by the title its rows carry when the sidebar does not list it', async () => {
    const { store } = await opened([row({ seq: 1, sessionId: 'elsewhere', sessionTitle: 'Old work' })]);
    expect(render(store)).toContain('Old work');
  });

  it('keeps the answer for the latest filter when an older one comes back last', async () => {
    let releaseFirst: (rows: AuditRow[]) => void = () => {};
    const api = new FakeApi({
      'audit:list': (input) =>
        input.sessionId === 'slow' ? new Promise<AuditRow[]>((resolve) => (releaseFirst = resolve)) : [row({ seq: 9, sessionId: 's2' })],
    });
    const { store } = harness(api);
    store.getState().showHistory('slow');
    store.getState().setHistoryFilter({ sessionId: 's2' });
    await settle();
    releaseFirst([row({ seq: 1, sessionId: 'slow' })]);
    await settle();
    expect(store.getState().history.rows.map((r) => r.sessionId)).toEqual(['s2']);
  });

  it('lists every kind of decision newest first, with who decided, the rule and its source, hostile text as text on one line', async () => {
    const { store } = await opened(EVERY_KIND);
    const html = render(store);
    const rows = html.split('data-testid="history-row"').slice(1);
    expect(rows).toHaveLength(EVERY_KIND.length);
    expect(rows[0]).toContain('data-action="waiting"');
    expect(rows.at(-1)).toContain('no sandbox');
    expect(html).toContain('7 decisions, newest first');
    expect(html).toContain('rule run_command(make *) from managed');
    expect(html).toContain('hook guard.sh from user');
    expect(html).toContain('headless default');
    expect(html).toContain('managed policy');
    // The model's text never becomes markup, and its line break does not split the row.
    expect(html).not.toContain('<b>x</b>');
    expect(html).not.toContain('<i>that</i>');
    expect(html).toContain('echo &quot;&lt;b&gt;x&lt;/b&gt;&quot; ⏎ rm -rf ~');
    expect(html).toContain('not &lt;i&gt;that&lt;/i&gt;');
  });

  it('says so when nothing was decided, naming the filter', async () => {
    const { store } = await opened([], 's1');
    const html = render(store);
    expect(html).toContain('data-testid="history-empty"');
    expect(html).toContain('No decisions recorded in this session');
    expect(html).not.toContain('data-testid="history-list"');
    store.getState().setHistoryFilter({ tool: 'fetch_url', by: 'hook' });
    await settle();
    expect(render(store)).toContain('No decisions recorded in this session of fetch_url, decided by hook.');
  });

  it('says why the list could not be had, with a way to try again', async () => {
    const api = new FakeApi({
      'audit:list': () => {
        throw new Error('There is no session gone.');
      },
    });
    const { store } = harness(api);
    store.getState().showHistory('gone');
    await settle();
    const html = render(store);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Could not list the decisions: There is no session gone.');
    expect(html).toContain('disabled=""');
  });

  it('draws hundreds of decisions a page at a time', async () => {
    const many = Array.from({ length: 450 }, (_, i) => row({ seq: i + 1 }));
    const { store } = await opened(many);
    const started = performance.now();
    const html = render(store);
    const ms = performance.now() - started;
    expect(html.split('data-testid="history-row"')).toHaveLength(201);
    expect(html).toContain('450 decisions, newest first');
    expect(html).toContain('Show 200 more of 250');
    // The newest is drawn first: the page holds the latest 200.
    expect(html).toContain('data-call-id="c450"');
    expect(html).not.toContain('data-call-id="c250"');
    expect(ms).toBeLessThan(2_000);
  });
});
