import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { Conversation } from '../../src/renderer/src/features/chat/Conversation';
import { EARLIER_PAGE, FIRST_WINDOW, earlierWindowStart, firstWindowStart } from '../../src/renderer/src/features/chat/conversationWindow';
import { StoreContext } from '../../src/renderer/src/stores/useApp';
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

  it('adds a page above each time, down to the first item', () => {
    expect(firstWindowStart(1000)).toBe(1000 - FIRST_WINDOW);
    expect(earlierWindowStart(1000 - FIRST_WINDOW)).toBe(1000 - FIRST_WINDOW - EARLIER_PAGE);
    expect(earlierWindowStart(EARLIER_PAGE - 1)).toBe(0);
    expect(firstWindowStart(3)).toBe(0);
  });
});
