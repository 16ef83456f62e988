import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { sessionEventTypes } from './support/sessionEvents';
import { dialogGone, keepScreenshot, permissionDialog, reachRequest, sessionStatus, startTask } from './support/ui';

// No stray key decides (issue #16, item 6). The Permission required request comes on screen while the
// person types a message; what they type stays theirs: nothing answers the request, focus never
// leaves the box. Only a deliberate act (the shortcut, then a key; or a click) answers it.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const command = 'git push --force origin main && touch PUSHED';

/** The model asks to run `command`, but only once the test lets it: the request then comes mid-typing. */
function gatedRequest() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const turns = [
    async () => {
      await gate;
      return { toolCalls: [{ name: 'run_command', arguments: { command } }] };
    },
    { text: 'Understood, not pushing.' },
  ];
  return { turns, release };
}

/** Records in the page every key, where focus was when it came, each time the box lost focus, and when the request appeared. */
async function watchKeys(page: Page) {
  await page.evaluate(() => {
    const box = document.querySelector('[data-testid="task-box"]')!;
    const record = { keys: [] as { key: string; at: number; focus: string }[], blurs: 0, appearedAt: null as number | null };
    (window as unknown as { strayKeys: typeof record }).strayKeys = record;
    box.addEventListener('blur', () => (record.blurs += 1));
    document.addEventListener(
      'keydown',
      (event) => {
        const active = document.activeElement as HTMLElement | null;
        record.keys.push({ key: event.key, at: performance.now(), focus: active?.dataset.testid ?? active?.tagName ?? 'none' });
      },
      true,
    );
    new MutationObserver(() => {
      if (record.appearedAt === null && document.querySelector('[data-testid="permission-dialog"]')) record.appearedAt = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  return async () =>
    page.evaluate(
      () =>
        (
          window as unknown as {
            strayKeys: { keys: { key: string; at: number; focus: string }[]; blurs: number; appearedAt: number | null };
          }
        ).strayKeys,
    );
}

/** Types as a person does, one key at a time (capitals with Shift held), about 15 keys a second. */
async function typeSlowly(page: Page, text: string) {
  for (const char of text) {
    if (/[A-Z]/.test(char)) await page.keyboard.press(`Shift+${char}`);
    else await page.keyboard.type(char);
    await page.waitForTimeout(60);
  }
}

test('a message typed key by key across the request’s appearance answers nothing and stays the person’s', async ({ page }, testInfo) => {
  const { turns, release } = gatedRequest();
  app = await startServedApp({ turns });
  await page.goto(app.url);
  await startTask(page, 'Tidy the release');
  const box = page.getByTestId('task-box');
  await box.click();
  const keys = await watchKeys(page);

  // Sentences full of the request's letters (a, d, e, Shift+A) and Enter; the request comes during the first.
  const first = 'also add a changelog entry';
  const second = 'And deploy it, then edit the docs';
  const third = 'Add a date. Enter it as Ada did.';
  await typeSlowly(page, 'also add ');
  release();
  await typeSlowly(page, first.slice('also add '.length));
  await page.keyboard.press('Enter');
  await typeSlowly(page, second);
  await page.keyboard.press('Enter');
  await typeSlowly(page, third);

  // The request came while the person typed, and every key after it still went to the box.
  const dialog = await permissionDialog(page);
  const seen = await keys();
  expect(seen.appearedAt).not.toBeNull();
  const after = seen.keys.filter((key) => key.at > seen.appearedAt!);
  expect(after.length).toBeGreaterThan(40);
  expect(after.map((key) => key.key)).toEqual(expect.arrayContaining(['a', 'd', 'e', 'A', 'Enter']));
  expect(after.filter((key) => key.focus !== 'task-box')).toEqual([]);
  expect(seen.blurs).toBe(0);
  await expect(box).toBeFocused();

  // All of it is the person's: two messages queued for the agent, the third still in the box.
  await expect(box).toHaveValue(third);
  await expect(page.getByTestId('message-queued')).toHaveText([first, second].map((text) => new RegExp(text)));
  await keepScreenshot(page, testInfo, 'request-while-typing');

  // Nothing answered it: still waiting in the UI, in the session's record, and the model was not asked again.
  const sessionId = (await dialog.getAttribute('data-session-id'))!;
  await expect(dialog.getByTestId('permission-command')).toHaveText(command);
  await expect(page.getByTestId('inbox-item')).toHaveCount(1);
  await sessionStatus(page, 'waiting');
  let types = sessionEventTypes(app!, sessionId);
  expect(types).toContain('approval.asked');
  expect(types).not.toContain('approval.answered');
  expect(types).not.toContain('tool.started');
  expect(app.model.requests).toHaveLength(1);

  // A final Enter sends the third message; still nothing answered.
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await expect(page.getByTestId('message-queued')).toHaveCount(3);
  await expect(dialog).toBeVisible();
  await expect(box).toBeFocused();

  // The deliberate path: the shortcut moves focus in; a key typed a moment ago still does not count…
  // x, the shortcut and d back to back: "a moment ago" is a second, which checks in between could use up.
  await box.pressSequentially('x');
  await page.keyboard.press('F6');
  await page.keyboard.press('d');
  await expect(dialog).toHaveAttribute('data-focused', 'true');
  await expect(dialog.getByTestId('permission-keys-hint')).toHaveAttribute('data-refusal', 'typing');
  await expect(dialog).toBeVisible();
  // …and once the person has stopped typing for a second, Esc still answers nothing: focus goes back
  // to the box and the request stays waiting, listed and unanswered in the session's record.
  await page.waitForTimeout(1_100);
  await page.keyboard.press('Escape');
  await expect(box).toBeFocused();
  await expect(dialog).toHaveAttribute('data-focused', 'false');
  await page.waitForTimeout(300);
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('inbox-item')).toHaveCount(1);
  await sessionStatus(page, 'waiting');
  expect(sessionEventTypes(app!, sessionId)).not.toContain('approval.answered');
  await expect(box).toHaveValue('x');
  // Reached again, its hint says what Esc does, the Deny button shows only D, and D denies.
  await reachRequest(page);
  await expect(dialog.getByTestId('permission-keys-hint')).toContainText('Esc: back, leaves it waiting', { useInnerText: true });
  // Its key is a word of its name (WCAG 2.5.3, issue 29): what a screen reader says and voice control hears.
  await expect(dialog.getByTestId('permission-deny')).toHaveText('Deny D');
  await expect(dialog.getByRole('button', { name: 'Deny D', exact: true })).toBeVisible();
  await page.keyboard.press('d');
  await dialogGone(page);
  await sessionStatus(page, 'done');
  types = sessionEventTypes(app!, sessionId);
  expect(types).toContain('approval.answered');
  expect(types).not.toContain('tool.started');
  expect(existsSync(path.join(app.workspace, 'PUSHED'))).toBe(false);
  // Focus went back to where the person was.
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('x');
});

test('a request that comes while nobody types takes no focus either; a stray E opens no editor, a click answers', async ({ page }) => {
  const { turns, release } = gatedRequest();
  app = await startServedApp({ turns });
  await page.goto(app.url);
  await startTask(page, 'Tidy the release');
  const box = page.getByTestId('task-box');
  await box.click();
  release();
  const dialog = await permissionDialog(page);
  await page.waitForTimeout(1_100);
  await expect(box).toBeFocused();
  await expect(dialog.getByTestId('permission-keys-hint')).toContainText('Press F6', { useInnerText: true });
  await expect(page.getByTestId('permission-announcer')).toContainText(/Permission required in “.+”: run_command/);

  // E, A, D and Enter typed in the box are text, not answers, and open no editor.
  await box.pressSequentially('eadE');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('permission-edit-input')).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('message-queued')).toHaveText([/eadE/]);

  // Ctrl+Shift+A reaches it; once the typing is a second old, E opens the editor, Esc leaves it.
  await reachRequest(page, 'Control+Shift+A');
  await page.waitForTimeout(1_100);
  await page.keyboard.press('e');
  await expect(dialog.getByTestId('permission-edit-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  // F6 goes back to the box; the rest of the window was never blocked.
  await page.keyboard.press('F6');
  await expect(box).toBeFocused();

  // A click answers at once, typing or not: it is deliberate.
  await box.pressSequentially('and one more');
  await dialog.getByTestId('permission-deny').click();
  await dialogGone(page);
  await sessionStatus(page, 'done');
  expect(existsSync(path.join(app.workspace, 'PUSHED'))).toBe(false);
});
