import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { openDraft, sessionStatus } from './support/ui';

// Issue 29, items 4, 5 and 8, as a person meets them in Chromium through `tether serve`: the review
// pane shows the change (inline when narrow, at the first change, unchanged lines folded, the hunk
// list not cut), accepts or reverts a file and undoes an accept, draws a new and a deleted file
// plainly, goes full width and back; at 1024×700 the review column waits to be opened and the tool
// cards stay readable; a path in an answer opens any workspace file at its line, and only those.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const screens = path.resolve('test-results/screens');

/**
 * The screen at 1440×900 and 1024×700, light and dark, kept in test-results/screens/ for a person to
 * look at. A review column in view stays in view at 1024 (opened from its rail, as a person would),
 * unless the shot is of the rail itself.
 */
async function screenshots(page: Page, name: string, { keepRail = false } = {}): Promise<void> {
  mkdirSync(screens, { recursive: true });
  const size = page.viewportSize();
  const reviewShown = !keepRail && (await page.getByTestId('review-column').isVisible());
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 700 },
    ]) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(200);
      if (reviewShown && !(await page.getByTestId('review-column').isVisible())) {
        await page.getByTestId('review-open').click();
        await expect(page.getByTestId('review-column')).toBeVisible();
      }
      await page.screenshot({ path: path.join(screens, `item29-${name}-${viewport.width}x${viewport.height}-${colorScheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (size) await page.setViewportSize(size);
}

const LINES = 400;
const CHANGED_LINE = 350;
const longFile = Array.from({ length: LINES }, (_, i) =>
  i + 1 === CHANGED_LINE ? 'const total = x + 350; // the only line that changes' : `const line${i + 1} = ${i + 1};`,
).join('\n');

const edit = (file: string, from: string, to: string) => ({
  name: 'edit_file',
  arguments: { path: file, old_string: from, new_string: to },
});

async function startAutoEdit(page: Page, task: string): Promise<void> {
  await openDraft(page);
  await page.getByTestId('draft-mode-select').selectOption('auto-edit');
  await page.getByTestId('task-box').fill(task);
  await page.getByTestId('task-box').press('Enter');
  await expect(page.getByTestId('session-view')).toBeVisible();
}

const fileItem = (page: Page, file: string) => page.locator(`[data-testid="diff-file"][data-path="${file}"]`);

/** Waits until Monaco has worked out the open file's diff (the viewer says how many changes it found). */
async function diffed(viewer: Locator): Promise<void> {
  await expect(viewer).toHaveAttribute('data-changes', /\d+/, { timeout: 30_000 });
}

/**
 * The text Monaco draws (only the lines in view) on the agent's side of a diff, removed lines shown
 * inline included, or in a file's editor; spaces as typed.
 */
async function linesInView(view: Locator): Promise<string> {
  const side = view.locator('.editor.modified');
  const drawn = (await side.count()) > 0 ? side : view.locator('.monaco-editor');
  return (await drawn.innerText()).replace(/\u00a0/g, ' ');
}

/** Whether an element's text is cut off (an ellipsis, or hidden overflow). */
function isCut(element: Locator): Promise<boolean> {
  return element.evaluate((node) => node.scrollWidth > node.clientWidth + 1);
}

test('the review pane shows the change: inline when narrow, at the first change, unchanged lines folded, the hunk not cut; full width and back', async ({
  page,
}) => {
  test.setTimeout(180_000);
  app = await startServedApp({
    turns: [{ toolCalls: [edit('src/long.js', 'x + 350', 'x * 350')] }, { text: 'Multiplied the total.' }],
  });
  writeFileSync(path.join(app.workspace, 'src/long.js'), longFile);
  await page.goto(app.url);
  await startAutoEdit(page, 'Multiply the total');
  await sessionStatus(page, 'done');

  const column = page.getByTestId('review-column');
  await expect(column).toBeVisible();
  expect((await column.boundingBox())!.width).toBeLessThan(760);
  await fileItem(page, 'src/long.js').click();
  const viewer = page.getByTestId('diff-viewer');
  await expect(viewer).toHaveAttribute('data-path', 'src/long.js');
  // A column this narrow draws the diff inline, so neither side cuts the line in two.
  await expect(viewer).toHaveAttribute('data-layout', 'inline');
  await diffed(viewer);
  // It opens at the change (line 350 of 400), not at line 1, with the unchanged lines folded away.
  await expect.poll(() => linesInView(viewer)).toContain('x * 350');
  expect(await linesInView(viewer)).toContain('x + 350');
  expect(await linesInView(viewer)).not.toContain('const line1 = 1;');
  await expect(viewer.locator('.diff-hidden-lines').first()).toBeAttached();
  // The hunk list shows the whole changed line, wrapped rather than cut.
  const added = page.getByTestId('hunk-preview').locator('[data-kind="added"] .hunk-line-text');
  await expect(added).toHaveText('const total = x * 350; // the only line that changes');
  expect(await isCut(added)).toBe(false);
  await screenshots(page, '4-narrow-inline-at-change');

  // Unfolded on request, and folded again.
  await page.getByTestId('diff-fold').click();
  await expect(viewer).toHaveAttribute('data-folded', 'false');
  await expect(viewer.locator('.diff-hidden-lines')).toHaveCount(0);
  await page.getByTestId('diff-fold').click();
  await expect(viewer).toHaveAttribute('data-folded', 'true');

  // Full width: the review takes the conversation's place, side by side; Esc goes back.
  await page.getByTestId('review-full-width').click();
  await expect(page.getByRole('region', { name: 'Conversation' })).toHaveCount(0);
  await expect(column).toHaveAttribute('data-full-width', 'true');
  await expect(viewer).toHaveAttribute('data-layout', 'side');
  await expect.poll(() => linesInView(viewer)).toContain('x * 350');
  await screenshots(page, '4-full-width');
  await page.getByTestId('review-full-width-exit').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('region', { name: 'Conversation' })).toBeVisible();
  await expect(column).toHaveAttribute('data-full-width', 'false');
  await expect(viewer).toHaveAttribute('data-layout', 'inline');
  // And by the keyboard alone, both ways.
  await page.getByTestId('task-box').focus();
  await page.keyboard.press('Control+Alt+F');
  await expect(column).toHaveAttribute('data-full-width', 'true');
  await page.keyboard.press('Control+Alt+F');
  await expect(column).toHaveAttribute('data-full-width', 'false');

  // The person's choice holds whatever the width.
  await page.getByTestId('diff-layout').selectOption('side');
  await expect(viewer).toHaveAttribute('data-layout', 'side');
  await page.getByTestId('diff-layout').selectOption('auto');
  await expect(viewer).toHaveAttribute('data-layout', 'inline');
});

test('a file is accepted or reverted on its own, Accept all can be undone, and new and deleted files are drawn plainly', async ({
  page,
}) => {
  test.setTimeout(180_000);
  app = await startServedApp({
    turns: [
      {
        toolCalls: [
          edit('src/price.js', 'cents * percent;', 'cents * percent / 100;'),
          { name: 'write_file', arguments: { path: 'src/added.js', content: 'export const one = 1;\nexport const two = 2;\n' } },
          { name: 'run_command', arguments: { command: 'rm test/price.test.js' } },
        ],
      },
      { text: 'Done.' },
    ],
  });
  await page.goto(app.url);
  await startAutoEdit(page, 'Fix the discount');
  await page.getByTestId('permission-allow-once').click({ timeout: 30_000 });
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('diff-file')).toHaveCount(3);
  const price = readFileSync(path.join(app.workspace, 'src/price.js'), 'utf8');

  // A new file: its two lines, all added, and no empty "line 1" removed beside them.
  await fileItem(page, 'src/added.js').click();
  const whole = page.getByTestId('diff-whole-file');
  await expect(whole).toHaveAttribute('data-path', 'src/added.js');
  await expect(whole).toHaveAttribute('data-tone', 'added');
  await expect(page.getByTestId('diff-viewer')).toHaveCount(0);
  await expect(whole.locator('.view-line')).toHaveCount(2);
  await expect(whole.locator('.code-line-added')).toHaveCount(2);
  await expect(whole.locator('.line-numbers')).toHaveText(['1', '2']);
  await expect(page.getByTestId('hunk').first()).toContainText('new file, 2 lines');
  await screenshots(page, '4-new-file');

  // A deleted file: its seven lines, all removed, and no empty "line 1" added.
  await fileItem(page, 'test/price.test.js').click();
  await expect(whole).toHaveAttribute('data-path', 'test/price.test.js');
  await expect(whole).toHaveAttribute('data-tone', 'removed');
  await expect(whole.locator('.view-line')).toHaveCount(7);
  await expect(whole.locator('.code-line-removed')).toHaveCount(7);
  await expect(page.getByTestId('hunk').first()).toContainText('deleted file, 7 lines');
  await screenshots(page, '4-deleted-file');

  // Accept one file: it leaves the list, the others stay, nothing on disk changes; Undo brings it back.
  await fileItem(page, 'src/added.js').click();
  await page.getByTestId('accept-file').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  await expect(fileItem(page, 'src/added.js')).toHaveCount(0);
  await expect(page.getByTestId('review-notice')).toContainText('Accepted src/added.js.');
  await screenshots(page, '4-accepted-file');
  await page.getByTestId('undo-accept').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(3);
  await expect(page.getByTestId('review-notice')).toContainText('Undid the accept of src/added.js');

  // Revert one file: only it goes back.
  await fileItem(page, 'test/price.test.js').click();
  await page.getByTestId('revert-file').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  expect(readFileSync(path.join(app.workspace, 'test/price.test.js'), 'utf8')).toContain("test('takes 10% off'");

  // Accept all, then undo it: the changes are listed again, the files as they were.
  await page.getByTestId('diff-accept').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(0);
  await expect(page.getByTestId('review-notice')).toContainText('Accepted the session’s changes.');
  await page.getByTestId('undo-accept').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  expect(readFileSync(path.join(app.workspace, 'src/price.js'), 'utf8')).toBe(price);
  expect(readFileSync(path.join(app.workspace, 'src/added.js'), 'utf8')).toBe('export const one = 1;\nexport const two = 2;\n');
});

test('at 1024×700 the review column waits to be opened, and the tool cards keep their titles readable with it open', async ({ page }) => {
  test.setTimeout(180_000);
  app = await startServedApp({
    turns: [
      {
        toolCalls: [
          edit('src/price.js', 'cents * percent;', 'cents * percent / 100;'),
          { name: 'write_file', arguments: { path: 'src/added.js', content: 'export const one = 1;\n' } },
          { name: 'run_command', arguments: { command: 'rm test/price.test.js' } },
        ],
      },
      { text: 'Done.' },
    ],
  });
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(app.url);
  await startAutoEdit(page, 'Fix the discount');
  await page.getByTestId('permission-allow-once').click({ timeout: 30_000 });
  await sessionStatus(page, 'done');

  // Three changed files, and still the conversation keeps its room: the column is a rail until asked for.
  const rail = page.getByTestId('review-rail');
  await expect(rail).toContainText('Changes: 3 files');
  await expect(page.getByTestId('review-column')).toHaveCount(0);
  const titles = page.getByTestId('tool-card-title');
  await expect(titles).toHaveCount(3);
  await expect(titles.nth(2)).toHaveText('Ran: rm test/price.test.js');
  await screenshots(page, '5-1024-rail', { keepRail: true });

  await page.getByTestId('review-open').click();
  await expect(page.getByTestId('review-column')).toBeVisible();
  // With the column open, each card still shows its whole title, and its status.
  for (let index = 0; index < 3; index++) {
    expect(await isCut(titles.nth(index)), await titles.nth(index).innerText()).toBe(false);
    await expect(page.getByTestId('tool-card-status').nth(index)).toBeVisible();
  }
  await expect(page.getByTestId('tool-card').nth(2).getByTestId('tool-card-title')).toHaveText('Ran: rm test/price.test.js');
  await screenshots(page, '5-1024-column-open');

  // Folded again by the person, a file link still opens it.
  await page.keyboard.press('Control+Alt+B');
  await expect(page.getByTestId('review-column')).toHaveCount(0);
  await page.getByTestId('tool-card').first().getByTestId('file-link').click();
  await expect(page.getByTestId('review-column')).toBeVisible();
});

test('a path in an answer opens any workspace file at its line, and nothing outside the workspace', async ({ page }) => {
  test.setTimeout(180_000);
  const answer = [
    'I changed src/long.js:350. The discount is at src/price.js#L2, the stock at `lib/other.js:300:7`.',
    'Also `.env`, `src/missing.js:4`, `img/logo.png`, `src/link.js`, ../outside.txt and `/etc/hostname`.',
  ].join('\n');
  app = await startServedApp({
    turns: [
      { toolCalls: [edit('src/long.js', 'x + 350', 'x * 350'), { name: 'read_file', arguments: { path: 'README.md' } }] },
      { text: answer },
    ],
  });
  writeFileSync(path.join(app.workspace, 'src/long.js'), longFile);
  mkdirSync(path.join(app.workspace, 'lib'));
  writeFileSync(path.join(app.workspace, 'lib/other.js'), longFile.replace('const line300 = 300;', 'const stock = 300; // line 300'));
  writeFileSync(path.join(app.workspace, '.env'), 'API_KEY=sk-the-secret\n');
  mkdirSync(path.join(app.workspace, 'img'));
  writeFileSync(path.join(app.workspace, 'img/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
  writeFileSync(path.join(app.workspace, '../outside.txt'), 'THE-OUTSIDE-CONTENT\n');
  symlinkSync(path.join(app.workspace, '../outside.txt'), path.join(app.workspace, 'src/link.js'));
  await page.goto(app.url);
  await startAutoEdit(page, 'Change the total');
  await sessionStatus(page, 'done');
  const message = page.getByTestId('message-assistant').last();
  const link = (text: string) => message.getByTestId('file-link').filter({ hasText: text });

  // What leaves the workspace is not even a link.
  await expect(message.getByTestId('file-link')).toHaveText([
    'src/long.js:350',
    'src/price.js#L2',
    'lib/other.js:300:7',
    '.env',
    'src/missing.js:4',
    'img/logo.png',
    'src/link.js',
  ]);

  // A file the session changed opens in its diff, at the line named.
  await link('src/long.js:350').click();
  const viewer = page.getByTestId('diff-viewer');
  await expect(viewer).toHaveAttribute('data-path', 'src/long.js');
  await diffed(viewer);
  await expect.poll(() => linesInView(viewer)).toContain('x * 350');

  // One it did not change opens read-only, at the line.
  await link('src/price.js#L2').click();
  const pane = page.getByTestId('workspace-file');
  await expect(pane).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('workspace-file-path')).toHaveText('src/price.js');
  const fileView = page.getByTestId('workspace-file-view');
  await expect.poll(() => linesInView(fileView)).toContain('export function discounted(cents, percent) {');
  await link('lib/other.js:300:7').click();
  await expect(page.getByTestId('workspace-file-path')).toHaveText('lib/other.js');
  await expect(pane).toContainText('read-only, line 300');
  await expect.poll(() => linesInView(fileView)).toContain('const stock = 300; // line 300');
  expect(await linesInView(fileView)).not.toContain('const line1 = 1;');
  await screenshots(page, '8-file-at-line');

  // A tool card's path opens the file it read.
  await page.getByTestId('tool-card').nth(1).getByTestId('file-link').click();
  await expect(page.getByTestId('workspace-file-path')).toHaveText('README.md');
  await expect.poll(() => linesInView(fileView)).toContain('A tiny project with one failing test');

  // A file the read rules ask about waits for the person; shown then, to them only.
  await link('.env').click();
  await expect(pane).toHaveAttribute('data-status', 'asks');
  await expect(page.getByTestId('workspace-file-asks')).toContainText('secrets');
  await expect(pane).not.toContainText('sk-the-secret');
  await screenshots(page, '8-env-asks');
  await page.getByTestId('workspace-file-confirm').click();
  await expect.poll(() => linesInView(fileView)).toContain('API_KEY=sk-the-secret');

  // A missing file, a binary one and a link that leads out get a clear message, and nothing of the file.
  await link('src/missing.js:4').click();
  await expect(page.getByTestId('workspace-file-error')).toContainText('src/missing.js does not exist in the session’s folder.');
  await link('img/logo.png').click();
  await expect(page.getByTestId('workspace-file-error')).toContainText('img/logo.png is a binary file');
  await link('src/link.js').click();
  await expect(page.getByTestId('workspace-file-error')).toContainText('src/link.js is a symbolic link, or inside one, that leads outside');
  await expect(pane).not.toContainText('THE-OUTSIDE-CONTENT');
  await screenshots(page, '8-link-leads-out');

  // Back to the changes, by the button or Esc.
  await page.getByTestId('workspace-file-back').click();
  await expect(page.getByTestId('workspace-file')).toHaveCount(0);
  await expect(fileItem(page, 'src/long.js')).toBeVisible();
  await link('src/price.js#L2').click();
  await expect(pane).toHaveAttribute('data-status', 'ready');
  await page.getByTestId('workspace-file-back').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('workspace-file')).toHaveCount(0);
});
