import { describe, expect, it } from 'vitest';
import { zeroUsage } from '../../src/shared/conversation';
import type { ProjectView, SessionSummary } from '../../src/shared/contract';
import {
  goToPlace,
  keepPlaceInAddress,
  placeFragment,
  placeFromFragment,
  placeOf,
  type PageAddressBar,
} from '../../src/renderer/src/app/pagePlace';
import { asking, opening } from './askingLogs';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { harness } from './storeHarness';

// Issue 29, item 9: the page's address keeps where the person is (the session, the request they
// opened, Settings or the history), so a reload, or a restarted server's address pasted into the tab,
// brings them back there.

function summary(id: string): SessionSummary {
  return {
    id,
    projectId: 'p1',
    title: `Session ${id}`,
    workspace: '/w',
    model: 'm',
    status: 'waiting',
    pendingApprovals: 0,
    mode: 'ask',
    updatedAt: 1,
    lastSeq: 4,
    usage: zeroUsage,
    costUsd: null,
  };
}

const project = { id: 'p1', name: 'w', path: '/w' } as ProjectView;

/** Two sessions, the second with two requests waiting; every list the first screen loads. */
function api(): FakeApi {
  const logs = {
    s1: storedEvents('s1', opening),
    s2: storedEvents('s2', [...opening, ...asking('c1', 'a1', 'ls'), ...asking('c2', 'a2', 'make')], 1, 1000),
  };
  return new FakeApi({
    'projects:list': () => [project],
    'sessions:list': () => [summary('s1'), summary('s2')],
    'approvals:pending': () => [
      { approvalId: 'a1', sessionId: 's2', sessionTitle: 'two', askedAt: 1003 },
      { approvalId: 'a2', sessionId: 's2', sessionTitle: 'two', askedAt: 1005 },
    ],
    'session:events': ({ sessionId }) => logs[sessionId as 's1' | 's2'],
    'diff:files': () => [],
    'settings:get': () => ({}) as never,
    'rules:list': () => [],
    'audit:list': () => [],
    'app:update': () => ({ ready: false }) as never,
    'layout:get': () => ({}),
  });
}

/** The window's address bar, as keepPlaceInAddress sees it. */
function addressBar(hash: string) {
  const listeners: (() => void)[] = [];
  const location = { pathname: '/', search: '', hash };
  const page: PageAddressBar & { paste(hash: string): void } = {
    location,
    history: {
      state: null,
      replaceState(_data, _unused, url) {
        location.hash = url.includes('#') ? url.slice(url.indexOf('#')) : '';
      },
    },
    addEventListener: (_type, listener) => void listeners.push(listener),
    paste(next) {
      location.hash = next;
      for (const listener of listeners) listener();
    },
  };
  return page;
}

describe('the place in the page’s address', () => {
  it('writes a place as a fragment and reads it back; a fragment that names nothing is no place', () => {
    const place = { view: 'main' as const, session: 's2', request: 'a&b=c' };
    expect(placeFragment(place)).toBe('session=s2&request=a%26b%3Dc');
    expect(placeFromFragment(`#${placeFragment(place)}`)).toEqual(place);
    expect(placeFromFragment('#view=settings')).toEqual({ view: 'settings' });
    expect(placeFragment({ view: 'main' })).toBe('');
    for (const none of ['', '#', '#view=main', '#view=nonsense', '#token=x', '#session=']) expect(placeFromFragment(none), none).toBeNull();
  });

  it('waits for the lists, then opens the session and the request the address names', async () => {
    const { store } = harness(api());
    const place = { view: 'main' as const, session: 's2', request: 'a2' };
    expect(goToPlace(store.getState(), place)).toBe('wait');
    await store.getState().init();
    await settle();
    expect(goToPlace(store.getState(), place)).toBe('done');
    await settle();
    expect(store.getState().selectedSessionId).toBe('s2');
    expect(store.getState().pickedApprovals.s2).toBe('a2');
    expect(placeOf(store.getState())).toEqual(place);
  });

  it('goes as near as what still exists: a deleted session opens nothing, an answered request only its session', async () => {
    const { store } = harness(api());
    await store.getState().init();
    await settle();
    expect(goToPlace(store.getState(), { view: 'main', session: 'gone' })).toBe('done');
    expect(store.getState().selectedSessionId).toBeNull();
    goToPlace(store.getState(), { view: 'main', session: 's1', request: 'a1' });
    expect(store.getState().selectedSessionId).toBe('s1');
    expect(store.getState().pickedApprovals.s1).toBeUndefined();
  });

  it('keeps the address naming the place across a reload, and follows the person', async () => {
    const { store } = harness(api());
    const page = addressBar('#view=history&session=s2&request=a1');
    keepPlaceInAddress(store, page);
    // Before the lists load, the address still names the place a reload must come back to.
    expect(page.location.hash).toBe('#view=history&session=s2&request=a1');
    await store.getState().init();
    await settle();
    expect([store.getState().view, store.getState().selectedSessionId, store.getState().pickedApprovals.s2]).toEqual([
      'history',
      's2',
      'a1',
    ]);

    store.getState().selectSession('s1');
    await settle();
    expect(page.location.hash).toBe('#session=s1');
    store.getState().showSettings();
    await settle();
    expect(page.location.hash).toBe('#view=settings&session=s1');
  });

  it('keeps the place when the pasted address names none (the token was taken out of it), and goes where one names', async () => {
    const { store } = harness(api());
    const page = addressBar('');
    keepPlaceInAddress(store, page);
    await store.getState().init();
    store.getState().openApproval({ sessionId: 's2', approvalId: 'a2' });
    await settle();
    expect(page.location.hash).toBe('#session=s2&request=a2');

    page.paste('');
    await settle();
    expect(page.location.hash).toBe('#session=s2&request=a2');
    expect(store.getState().selectedSessionId).toBe('s2');

    page.paste('#session=s1');
    await settle();
    expect(store.getState().selectedSessionId).toBe('s1');
    expect(page.location.hash).toBe('#session=s1');
  });

  it('still reaches the place a reloaded page named when the address pasted later names none', async () => {
    const { store } = harness(api());
    const page = addressBar('#view=settings&session=s1');
    keepPlaceInAddress(store, page);
    // The token was refused: nothing loaded. The pasted address (its token already taken out) is empty.
    page.paste('');
    await store.getState().init();
    await settle();
    expect([store.getState().view, store.getState().selectedSessionId]).toEqual(['settings', 's1']);
    expect(page.location.hash).toBe('#view=settings&session=s1');
  });
});
