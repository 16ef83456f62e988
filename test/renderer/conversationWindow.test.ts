import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { Conversation } from '../../src/renderer/src/features/chat/Conversation';
import { EARLIER_PAGE, FIRST_WINDOW, earlierWindowStart, firstWindowStart } from '../../src/renderer/src/features/chat/conversationWindow';
import { StoreContext } from '../../src/renderer/src/stores/useApp';
import { EARLIER_ITEMS_PAGE } from '../../src/renderer/src/stores/logsSlice';
import { SNAPSHOT_ITEMS } from '../../src/shared/sessionWindow';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { harness } from './storeHarness';

/** The conversation of a session with `messages` user messages, as the window first draws it. */
async function drawn(messages: number): Promise<string> {
  const events: SessionEvent[] = [
    { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:1/v1', maxSteps: 5 },
    ...Array.from({ length: messages }, (_, i): SessionEvent => ({ type: 'user.messaged', text: `message ${i + 1}` })),
  ];
  const api = new FakeApi({ 'session:events': () => storedEvents('s1', events), 'diff:files': () => [] });
  const { store } = harness(api);
  store.getState().selectSession('s1');
  await settle();
  // The server renderer reads a store's initial state; this one's current state is the point.
  const current = { ...store, getInitialState: store.getState };
  return renderToStaticMarkup(createElement(StoreContext.Provider, { value: current }, createElement(Conversation, { sessionId: 's1' })));
}

const count = (html: string, testId: string) => html.split(`data-testid="${testId}"`).length - 1;

describe('the conversation window', () => {
  it('opens a long session on its latest entries, with a way to show the earlier ones', async () => {
    const html = await drawn(1000);
    expect(count(html, 'message-user')).toBe(FIRST_WINDOW);
    expect(html).toContain('message 1000<');
    expect(html).toContain(`message ${1000 - FIRST_WINDOW + 1}<`);
    expect(html).not.toContain(`message ${1000 - FIRST_WINDOW}<`);
    expect(count(html, 'conversation-earlier')).toBe(1);
  });

  it('draws a short session whole, with nothing to show earlier', async () => {
    const html = await drawn(FIRST_WINDOW - 1);
    expect(count(html, 'message-user')).toBe(FIRST_WINDOW - 1);
    expect(count(html, 'conversation-earlier')).toBe(0);
  });

  it('holds only the latest items of a long session, and pages older ones in before them as asked', async () => {
    const events: SessionEvent[] = [
      { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:1/v1', maxSteps: 5 },
      ...Array.from({ length: 1000 }, (_, i): SessionEvent => ({ type: 'user.messaged', text: `message ${i + 1}` })),
    ];
    const api = new FakeApi({ 'session:events': () => storedEvents('s1', events), 'diff:files': () => [] });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    const opened = store.getState().logs.s1!.state;
    expect(opened.itemsFrom).toBe(1000 - SNAPSHOT_ITEMS);
    expect(opened.items).toHaveLength(SNAPSHOT_ITEMS);
    await store.getState().loadEarlier('s1');
    expect(api.callsTo('session:page')).toEqual([{ sessionId: 's1', beforeItem: 1000 - SNAPSHOT_ITEMS, limit: EARLIER_ITEMS_PAGE }]);
    const paged = store.getState().logs.s1!.state;
    expect(paged.itemsFrom).toBe(1000 - SNAPSHOT_ITEMS - EARLIER_ITEMS_PAGE);
    expect(paged.items[0]).toEqual({ type: 'user', text: `message ${paged.itemsFrom + 1}` });
    expect(paged.items.at(-1)).toEqual({ type: 'user', text: 'message 1000' });
    // Live events still fold on top of a paged window.
    api.emit('session:event', { sessionId: 's1', seq: 1002, at: 1, event: { type: 'user.messaged', text: 'message 1001' } });
    expect(store.getState().logs.s1!.state.items.at(-1)).toEqual({ type: 'user', text: 'message 1001' });
    while (store.getState().logs.s1!.state.itemsFrom > 0) await store.getState().loadEarlier('s1');
    expect(store.getState().logs.s1!.state.items).toHaveLength(1001);
    expect(api.callsTo('session:events')).toEqual([]);
  });

  it('opens afresh when a rewind goes back past what it holds', async () => {
    const events: SessionEvent[] = [
      { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:1/v1', maxSteps: 5 },
      ...Array.from({ length: 400 }, (_, i): SessionEvent => ({ type: 'user.messaged', text: `message ${i + 1}` })),
    ];
    const log = storedEvents('s1', events);
    const api = new FakeApi({ 'session:events': () => log, 'diff:files': () => [] });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    expect(store.getState().logs.s1!.state.itemsFrom).toBeGreaterThan(0);
    // The second message (seq 3) is long before the window.
    log.push({
      sessionId: 's1',
      seq: 402,
      at: 2,
      event: { type: 'session.rewound', toSeq: 3, restore: 'conversation', files: [], warnings: [] },
    });
    api.emit('session:event', log.at(-1)!);
    await settle();
    expect(api.callsTo('session:open')).toHaveLength(2);
    const state = store.getState().logs.s1!.state;
    expect(state.lastSeq).toBe(402);
    expect(state.itemsFrom).toBe(0);
    expect(state.items).toEqual([
      { type: 'user', text: 'message 1' },
      { type: 'user', text: 'message 2' },
    ]);
    expect(store.getState().logs.s1!.stale).toBe(false);
  });

  it('adds a page above each time, down to the first item', () => {
    expect(firstWindowStart(1000)).toBe(1000 - FIRST_WINDOW);
    expect(earlierWindowStart(1000 - FIRST_WINDOW)).toBe(1000 - FIRST_WINDOW - EARLIER_PAGE);
    expect(earlierWindowStart(EARLIER_PAGE - 1)).toBe(0);
    expect(firstWindowStart(3)).toBe(0);
  });
});
