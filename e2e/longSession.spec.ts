import { expect, test } from '@playwright/test';
import { writeLongSessionWithVite } from './support/longSession';
import { startServedApp, type ServedApp } from './support/servedApp';

// A session far longer than one answer could carry (its log is about 20 MB of JSON), opened through
// `tether serve` in Chromium: it opens from a snapshot with its latest items, no frame comes near the
// socket's limits, and scrolling back pages older entries in.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const SESSION_EVENTS = 50_000;

/** The step a tool card's call belongs to (the long session numbers its calls `call_<step in base 36>`). */
function stepOf(callId: string | null): number {
  return parseInt((callId ?? '').replace(/^call_/, ''), 36);
}

test('a 50,000-event session opens under tether serve, and scrolling back pages older entries in', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startServedApp();
  const session = await writeLongSessionWithVite({
    dataDir: app.dataDir,
    workspace: app.workspace,
    baseUrl: app.model.baseUrl,
    minEvents: SESSION_EVENTS,
  });
  const LAST_ANSWER_MARK = session.lastAnswerMark;
  expect(session.events).toBeGreaterThanOrEqual(SESSION_EVENTS);
  // The server reads the session the store now holds, as after any restart.
  await app.restart();

  const received: { bytes: number; text: string }[] = [];
  const sent: string[] = [];
  let closed = 0;
  page.on('websocket', (socket) => {
    socket.on('close', () => closed++);
    socket.on('framereceived', ({ payload }) => received.push({ bytes: Buffer.byteLength(payload), text: String(payload).slice(0, 200) }));
    socket.on('framesent', ({ payload }) => sent.push(String(payload).slice(0, 200)));
  });
  await page.goto(app.url);
  const item = page.locator(`[data-testid="session-item"][data-session-id="${session.sessionId}"]`);
  await item.waitFor();
  const clicked = Date.now();
  await item.locator('.session-select').click();
  const conversation = page.getByTestId('conversation');
  await expect(conversation.getByTestId('message-assistant').last()).toContainText(LAST_ANSWER_MARK, { timeout: 30_000 });
  const openedInMs = Date.now() - clicked;
  test.info().annotations.push({ type: 'opened in', description: `${openedInMs} ms` });

  // It opened from a snapshot: one session:open, no session:events, and nothing near the limits went over the socket.
  expect(sent.filter((frame) => frame.includes('"name":"session:open"'))).toHaveLength(1);
  expect(sent.filter((frame) => frame.includes('"name":"session:events"'))).toHaveLength(0);
  const largest = Math.max(...received.map((frame) => frame.bytes));
  expect(largest).toBeLessThan(1024 * 1024);
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  expect(closed).toBe(0);

  const earliestStep = async () =>
    Math.min(
      ...(await conversation.getByTestId('tool-card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-call-id')))).map(
        stepOf,
      ),
    );
  const openedFrom = await earliestStep();
  expect(openedFrom).toBeGreaterThan(10_000);

  // The person scrolls to the top, again and again: each time, earlier entries are added above.
  let earliest = openedFrom;
  for (let scroll = 0; scroll < 4; scroll++) {
    await conversation.evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect.poll(earliestStep, { timeout: 15_000 }).toBeLessThan(earliest);
    earliest = await earliestStep();
  }
  expect(sent.filter((frame) => frame.includes('"name":"session:page"')).length).toBeGreaterThanOrEqual(2);
  // About four turns to a page of 200 items: the window reaches well before what the snapshot held.
  expect(earliest).toBeLessThan(openedFrom - 80);
  // The last message is still there, below what was added.
  await expect(conversation.getByTestId('message-assistant').last()).toContainText(LAST_ANSWER_MARK);
  expect(Math.max(...received.map((frame) => frame.bytes))).toBeLessThan(1024 * 1024);
  expect(closed).toBe(0);
});
