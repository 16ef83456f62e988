import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, openDraft, sessionStatus } from './support/ui';

// Changes belong to their session (issue 18, item 2), as a person sees them in the browser through
// `tether serve` with the scripted model: two sessions in one folder, one still working while the
// other edits. Each Changes panel lists only its own session's edits; the one sharing the folder with
// a live session says so and offers a worktree, and the move takes its changes along.

let app: ServedApp | undefined;
// The first session's model answers only when the test is over: it works in the folder throughout,
// however slow the machine (a fixed delay ran out on a loaded one before the test was done).
let releaseReader: () => void = () => {};
test.afterEach(async () => {
  releaseReader();
  await app?.close();
  app = undefined;
});

const priceBefore =
  '// Applies a percentage discount to a price in cents.\nexport function discounted(cents, percent) {\n  return cents - cents * percent;\n}\n';
const edit = (file: string, from: string, to: string) => ({
  name: 'edit_file',
  arguments: { path: file, old_string: from, new_string: to },
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' }).trim();
}

async function startAutoEdit(page: Page, task: string): Promise<void> {
  await openDraft(page);
  await page.getByTestId('draft-mode-select').selectOption('auto-edit');
  await page.getByTestId('task-box').fill(task);
  await page.getByTestId('task-box').press('Enter');
  await expect(page.getByTestId('session-view')).toBeVisible();
}

/** A screenshot kept with the results and where a person looks at the main screens. */
async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await keepScreenshot(page, testInfo, name);
  await page.screenshot({ path: path.resolve('test-results/screens', `shared-folder-${name}-1440x900.png`) });
}

function sessionItem(page: Page, title: string) {
  return page.getByTestId('session-item').filter({ hasText: title }).locator('.session-select');
}

test('two sessions in one folder: each lists only its own changes, and the shared folder is named with a worktree offer', async ({
  page,
}, testInfo) => {
  app = await startServedApp({
    turns: [
      // The first session's model takes its time: it stays working in the folder meanwhile.
      async () => {
        await new Promise<void>((resolve) => (releaseReader = resolve));
        return { text: 'Still reading.' };
      },
      {
        toolCalls: [
          edit('src/price.js', 'cents * percent;', 'cents * percent / 100;'),
          edit('README.md', 'A tiny project', 'A very small project'),
        ],
      },
      { text: 'Fixed the discount.' },
    ],
  });
  const folder = app.workspace;
  git(folder, 'init', '--quiet', '--initial-branch=main');
  git(folder, 'add', '.');
  git(folder, 'commit', '--quiet', '-m', 'start');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);

  await startAutoEdit(page, 'Read the tests');
  await sessionStatus(page, 'working');
  await startAutoEdit(page, 'Fix the discount');
  await sessionStatus(page, 'done');

  // The editing session: its two files, and the working one named above them with the offer.
  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  await expect(page.getByTestId('shared-folder-text')).toHaveText(
    'Another session (“Read the tests”) is working in this folder; its changes are not shown here.',
  );
  await expect(page.getByTestId('move-to-worktree')).toBeEnabled();
  await shot(page, testInfo, '1-own-changes-and-shared-folder');

  // The working session changed nothing: its list is empty though the folder holds the other's edits,
  // and its notice is gone (the other session is done, no longer working there).
  await sessionItem(page, 'Read the tests').click();
  await expect(page.getByTestId('session-header-status')).toHaveAttribute('data-status', 'working');
  // With nothing to review the column may be folded: it says so, and opens on request.
  const rail = page.getByTestId('review-rail');
  await expect(rail.or(page.getByTestId('diff-panel'))).toBeVisible();
  if (await rail.isVisible()) {
    await expect(rail).toContainText('No changes yet');
    await page.getByTestId('review-open').click();
  }
  await expect(page.getByTestId('diff-count')).toHaveText('0 files');
  await expect(page.getByTestId('diff-file')).toHaveCount(0);
  await expect(page.getByTestId('shared-folder')).toHaveCount(0);
  await expect(page.getByTestId('revert-file')).toHaveCount(0);
  expect(readFileSync(path.join(folder, 'src/price.js'), 'utf8')).toContain('percent / 100');
  await shot(page, testInfo, '2-session-that-changed-nothing');

  // Back to the editor: move it to a worktree of its own. Its changes go along and leave the folder.
  await sessionItem(page, 'Fix the discount').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  await page.getByTestId('move-to-worktree').click();
  await expect(page.getByTestId('move-to-worktree-confirm')).toContainText(
    'This session’s changes (2 files) go with it and leave this folder',
  );
  await shot(page, testInfo, '3-move-confirm');
  await page.getByTestId('move-to-worktree-button').click();
  await expect(page.getByTestId('review-notice')).toContainText(
    /now works in its own worktree on tether\/\S+, with its changes to 2 files/,
  );
  await expect(page.getByTestId('shared-folder')).toHaveCount(0);
  await expect(page.getByTestId('worktree-bar')).toHaveAttribute('data-state', 'open');
  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  expect(readFileSync(path.join(folder, 'src/price.js'), 'utf8')).toBe(priceBefore);
  expect(readFileSync(path.join(folder, 'README.md'), 'utf8')).toContain('A tiny project');
  const worktree = await page.getByTestId('worktree-bar').locator('.worktree-branch').getAttribute('title');
  expect(readFileSync(path.join(worktree!, 'src/price.js'), 'utf8')).toContain('percent / 100');
  await shot(page, testInfo, '4-moved-to-worktree');
});
