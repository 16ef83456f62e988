import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { sessionEventTypes } from './support/sessionEvents';
import { keepScreenshot, permissionDialog, reachRequest, sessionStatus, startTask } from './support/ui';

// Issue #18, items 1, 5 and 6: a request is docked in its own session's view and covers nothing; the
// inbox lists every one and opens it; N goes to the next; Esc leaves a request waiting. The panes
// resize, fold and keep their sizes; at 1024×700 every pane is usable; nothing traps focus.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Whether the element is what a click at its centre would reach: nothing lies over it. */
async function uncovered(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 12));
    return top !== null && (element === top || element.contains(top));
  });
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

async function startSecondTask(page: Page, task: string) {
  await page.getByTestId('project-item').first().locator('.project-header').hover();
  await page.getByTestId('project-new-session').first().click();
  const taskBox = page.getByTestId('task-box');
  await taskBox.fill(task);
  await taskBox.press('Enter');
}

test('a request waits in its own session, covers nothing, and the inbox opens any of them; N goes on, Esc leaves it waiting', async ({
  page,
}, testInfo) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch FIRST' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch SECOND' } }] },
      { text: 'The second one is done another way.' },
      { text: 'The first one is done.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'First task');
  const first = await permissionDialog(page);
  const firstSession = (await first.getAttribute('data-session-id'))!;
  // Docked inside its session's view, between the conversation and the task box; the sidebar, the
  // inbox, the conversation and the task box all stay in reach.
  await expect(page.getByTestId('session-view').getByTestId('permission-dialog')).toHaveCount(1);
  for (const part of ['inbox', 'conversation', 'task-box', 'session-header'])
    expect(await uncovered(page.getByTestId(part)), part).toBe(true);
  expect((await box(first)).y + (await box(first)).height).toBeLessThanOrEqual((await box(page.getByTestId('task-box'))).y);

  await startSecondTask(page, 'Second task');
  await expect(page.getByTestId('inbox-item')).toHaveCount(2);
  const second = page.getByTestId('permission-dialog');
  await expect(second).toContainText('touch SECOND');
  const secondSession = (await second.getAttribute('data-session-id'))!;
  expect(secondSession).not.toBe(firstSession);
  // Each view shows only its own session's request, and says how many wait in all.
  await expect(page.getByTestId('permission-dialog')).toHaveCount(1);
  await expect(second.getByTestId('permission-queue')).toContainText('2 waiting in all');

  // The inbox lists each one: tool, summary, risk, session and age.
  const items = page.getByTestId('inbox-item');
  await expect(items.nth(0)).toContainText('run_command');
  await expect(items.nth(0)).toContainText('touch FIRST');
  await expect(items.nth(0)).toContainText('First task');
  await expect(items.nth(0)).toHaveAttribute('data-risk', /.+/);
  await expect(items.nth(1)).toContainText('Second task');
  await keepScreenshot(page, testInfo, 'docked-request-1440');

  // N, from a reached request, goes to the next one waiting, in the other session, and reaches it.
  await reachRequest(page);
  await page.keyboard.press('n');
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', firstSession);
  const again = page.getByTestId('permission-dialog');
  await expect(again).toContainText('touch FIRST');
  await expect(again).toHaveAttribute('data-focused', 'true');
  // Esc answers nothing: focus leaves, the request keeps waiting.
  await page.keyboard.press('Escape');
  await expect(again).toHaveAttribute('data-focused', 'false');
  await page.waitForTimeout(300);
  await expect(again).toBeVisible();
  expect(sessionEventTypes(app!, firstSession)).not.toContain('approval.answered');

  // The inbox opens the second one, in its session, ready for keys; D denies it alone.
  await items.filter({ hasText: 'Second task' }).click();
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', secondSession);
  const picked = page.getByTestId('permission-dialog');
  await expect(picked).toHaveAttribute('data-focused', 'true');
  await page.waitForTimeout(500);
  await page.keyboard.press('d');
  await expect(page.getByTestId('inbox-item')).toHaveCount(1);
  await sessionStatus(page, 'done');
  expect(sessionEventTypes(app!, firstSession)).not.toContain('approval.answered');

  // With nothing waiting here, the reach shortcut goes to the one waiting elsewhere.
  await page.getByTestId('task-box').click();
  await page.keyboard.press('F6');
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', firstSession);
  await expect(page.getByTestId('permission-dialog')).toHaveAttribute('data-focused', 'true');
  await page.getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('inbox-item')).toHaveCount(0);
});

test('at 1024×700 every pane is usable; panes resize, fold and keep their sizes; nothing traps focus; ? lists the shortcuts', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: "printf 'one\\ntwo\\nthree\\n' > notes.txt && seq 1 40" } }] },
      { text: 'Wrote notes.txt.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Write some notes');
  await (await permissionDialog(page)).getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  // At this width the review column waits, folded, for the person to open it.
  await expect(page.getByTestId('review-rail')).toContainText('Changes: 1 file', { timeout: 15_000 });
  await page.getByTestId('review-open').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(1, { timeout: 15_000 });
  await page.getByTestId('diff-file').first().click();
  await expect(page.locator('.diff-viewer .monaco-editor').first()).toBeVisible({ timeout: 20_000 });

  // Side by side, nothing overlapping, the conversation readable, the diff at least 250 px tall.
  const conversation = await box(page.getByTestId('conversation'));
  const review = await box(page.getByTestId('review-column'));
  const diff = await box(page.locator('.diff-viewer-host'));
  const terminal = await box(page.getByTestId('terminal-panel'));
  expect(conversation.width).toBeGreaterThanOrEqual(360);
  expect(conversation.height).toBeGreaterThanOrEqual(150);
  expect(review.x).toBeGreaterThanOrEqual(conversation.x + conversation.width);
  expect(diff.height).toBeGreaterThanOrEqual(250);
  expect(diff.y + diff.height).toBeLessThanOrEqual(terminal.y + 1);
  expect(terminal.y + terminal.height).toBeLessThanOrEqual(700);
  for (const part of ['conversation', 'task-box', 'terminal-panel', 'diff-panel'])
    expect(await uncovered(page.getByTestId(part)), part).toBe(true);
  await keepScreenshot(page, testInfo, 'session-1024x700');

  // Drag the review column's edge 120 px left: it grows by that much, and stays so after a reload.
  const splitter = await box(page.getByTestId('review-splitter'));
  await page.mouse.move(splitter.x + 3, splitter.y + 200);
  await page.mouse.down();
  await page.mouse.move(splitter.x - 60, splitter.y + 200, { steps: 4 });
  await page.mouse.move(splitter.x - 117, splitter.y + 200, { steps: 4 });
  await page.mouse.up();
  const wider = (await box(page.getByTestId('review-column'))).width;
  expect(Math.abs(wider - (review.width + 120))).toBeLessThanOrEqual(2);
  // The keyboard resizes too: the separator takes arrow keys.
  await page.getByTestId('terminal-splitter').focus();
  const before = (await box(page.getByTestId('terminal-panel'))).height;
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await box(page.getByTestId('terminal-panel'))).height).toBeCloseTo(before + 16, 0);
  // Saved a moment after the last change (a timer in the page): wait for the file, not for a time.
  const layoutFile = path.join(app.dataDir, 'layout.json');
  await expect
    .poll(() => {
      if (!existsSync(layoutFile)) return null;
      const saved = JSON.parse(readFileSync(layoutFile, 'utf8')) as { reviewWidth?: number; terminalHeight?: number };
      return Math.abs((saved.reviewWidth ?? 0) - wider) <= 1 && Math.abs((saved.terminalHeight ?? 0) - (before + 16)) <= 1;
    })
    .toBe(true);
  await page.reload();
  await page.getByTestId('session-item').first().locator('button').first().click();
  await expect(page.getByTestId('review-column')).toBeVisible();
  await expect.poll(async () => (await box(page.getByTestId('review-column'))).width).toBeCloseTo(wider, 0);
  await expect.poll(async () => (await box(page.getByTestId('terminal-panel'))).height).toBeCloseTo(before + 16, 0);

  // A drag can never squeeze the conversation under its minimum.
  const edge = await box(page.getByTestId('review-splitter'));
  await page.mouse.move(edge.x + 3, edge.y + 100);
  await page.mouse.down();
  await page.mouse.move(0, edge.y + 100, { steps: 5 });
  await page.mouse.up();
  expect((await box(page.getByTestId('conversation'))).width).toBeGreaterThanOrEqual(359);

  // The review column folds to a rail, and the conversation takes the room.
  const narrow = (await box(page.getByTestId('conversation'))).width;
  await page.getByTestId('review-toggle').click();
  await expect(page.getByTestId('review-rail')).toBeVisible();
  await expect(page.getByTestId('review-column')).toHaveCount(0);
  expect((await box(page.getByTestId('conversation'))).width).toBeGreaterThan(narrow + 200);
  await page.getByTestId('review-open').click();
  await expect(page.getByTestId('review-column')).toBeVisible();
  // The sidebar folds too, its inbox count staying in view; Ctrl+B brings it back.
  await page.getByTestId('sidebar-fold').click();
  await expect(page.getByTestId('sidebar-rail')).toBeVisible();
  await page.getByTestId('task-box').click();
  await page.keyboard.press('Control+b');
  await expect(page.getByTestId('sidebar')).toBeVisible();

  // Tab enters the terminal and leaves it again; so do Shift+Tab and Esc.
  await page.keyboard.press('Control+Shift+Digit4');
  const inTerminal = () => page.evaluate(() => Boolean(document.activeElement?.closest('.xterm')));
  await expect.poll(inTerminal).toBe(true);
  await page.keyboard.press('Tab');
  await expect.poll(inTerminal).toBe(false);
  await page.keyboard.press('Control+Shift+Digit4');
  await expect.poll(inTerminal).toBe(true);
  await page.keyboard.press('Shift+Tab');
  await expect.poll(inTerminal).toBe(false);
  await page.keyboard.press('Control+Shift+Digit4');
  await expect.poll(inTerminal).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(inTerminal).toBe(false);
  // The diff editor does not keep Tab either.
  await page.locator('.diff-viewer .monaco-editor textarea').last().focus();
  await page.keyboard.press('Tab');
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-diff-editor, .monaco-editor')))).toBe(false);

  // ? lists the shortcuts; Esc closes the list; in a text field ? is just a character.
  await page.getByTestId('task-box').click();
  await page.keyboard.type('?');
  await expect(page.getByTestId('task-box')).toHaveValue('?');
  await expect(page.getByTestId('shortcuts-sheet')).not.toBeVisible();
  await page.getByTestId('diff-refresh').focus();
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts-sheet')).toBeVisible();
  await expect(page.getByTestId('shortcuts-sheet')).toContainText('the next request waiting');
  await keepScreenshot(page, testInfo, 'shortcuts-1024x700');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcuts-sheet')).not.toBeVisible();
});
