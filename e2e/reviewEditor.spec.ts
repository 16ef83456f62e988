import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { openDraft, sessionStatus } from './support/ui';

// The diff editor loads only the parts of Monaco a read-only review uses (monacoForReview.ts): what a
// person reading a change reaches for is still there. Characters a change can hide code behind are
// marked, find and go to line work from the keyboard, and nothing offers to edit.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const LINES = 60;
const before = Array.from({ length: LINES }, (_, i) => `const value${i + 1} = ${i + 1};`).join('\n') + '\n';
/** A zero-width space inside the new name, and a right-to-left override in a comment (Trojan Source). */
const HIDDEN = 'const is\u200bAdmin = false; // \u202eeurt = nimdAsi\u202c';

async function openChangedFile(page: Page): Promise<void> {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/values.js', old_string: 'const value30 = 30;', new_string: HIDDEN } }] },
      { text: 'Renamed a value.' },
    ],
  });
  writeFileSync(path.join(app.workspace, 'src/values.js'), before);
  await page.goto(app.url);
  await openDraft(page);
  await page.getByTestId('draft-mode-select').selectOption('auto-edit');
  await page.getByTestId('task-box').fill('Rename a value');
  await page.getByTestId('task-box').press('Enter');
  await sessionStatus(page, 'done');
  await page.locator('[data-testid="diff-file"][data-path="src/values.js"]').click();
  const viewer = page.getByTestId('diff-viewer');
  await expect(viewer).toHaveAttribute('data-path', 'src/values.js');
  await expect(viewer).toHaveAttribute('data-changes', /\d+/, { timeout: 30_000 });
}

test('the diff editor marks invisible and direction-changing characters in a change', async ({ page }) => {
  await openChangedFile(page);
  const modified = page.getByTestId('diff-viewer').locator('.editor.modified');
  // Monaco's unicode highlighter draws a box around each such character (worked out in its worker).
  await expect(modified.locator('.unicode-highlight').first()).toBeVisible({ timeout: 30_000 });
});

test('find (Ctrl+F) and go to line (Ctrl+G) work in the diff editor, and typing changes nothing', async ({ page }) => {
  await openChangedFile(page);
  const viewer = page.getByTestId('diff-viewer');
  const modified = viewer.locator('.editor.modified');
  await modified.locator('.view-line', { hasText: 'value31' }).click();

  await page.keyboard.press('Control+f');
  const find = viewer.locator('.find-widget.visible');
  await expect(find).toBeVisible();
  await page.keyboard.type('value2');
  await expect(find.locator('.matchesCount')).toHaveText(/of 11$/);
  await page.keyboard.press('Escape');
  await expect(find).toHaveCount(0);

  await modified.locator('.view-line', { hasText: 'value31' }).click();
  await page.keyboard.press('Control+g');
  const quickInput = page.locator('.quick-input-widget');
  await expect(quickInput).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(quickInput).toBeHidden();

  // Read-only: a key typed in the editor says so and leaves the text as it was.
  await modified.locator('.view-line', { hasText: 'value31' }).click();
  await page.keyboard.type('x');
  await expect(viewer.locator('.monaco-editor-overlaymessage')).toContainText(/read-only/i);
  await expect(modified.locator('.view-line', { hasText: 'xconst' })).toHaveCount(0);
});
