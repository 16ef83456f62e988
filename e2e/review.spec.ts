import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, openDraft, sessionStatus } from './support/ui';

// Per-hunk review in the live diff, and a worktree session's ending, as a person does them in the
// browser: `tether serve` with the scripted model, one fresh data folder per test.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const priceBefore =
  '// Applies a percentage discount to a price in cents.\nexport function discounted(cents, percent) {\n  return cents - cents * percent;\n}\n';
const edit = (file: string, from: string, to: string) => ({
  name: 'edit_file',
  arguments: { path: file, old_string: from, new_string: to },
});
const twoHunks = [
  edit('src/price.js', 'discount to a price', 'discount (0-100) to a price'),
  edit('src/price.js', 'cents * percent;', 'cents * percent / 100;'),
  edit('README.md', 'A tiny project', 'A very small project'),
];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** Starts a session in the first project in auto-edit mode (edits run without a dialog). */
async function startAutoEdit(page: Page, task: string, options: { worktree?: boolean } = {}): Promise<void> {
  await openDraft(page);
  await page.getByTestId('draft-mode-select').selectOption('auto-edit');
  if (options.worktree) {
    const toggle = page.getByTestId('worktree-toggle');
    await expect(toggle).toBeEnabled();
    await toggle.click();
    await expect(toggle).toBeChecked();
  }
  await page.getByTestId('task-box').fill(task);
  await page.getByTestId('task-box').press('Enter');
  await expect(page.getByTestId('session-view')).toBeVisible();
}

test('reverts one hunk and a whole file from the diff, and scopes the review to the last turn', async ({ page }, testInfo) => {
  app = await startServedApp({ turns: [{ toolCalls: twoHunks }, { text: 'Fixed the discount and the README.' }] });
  await page.goto(app.url);
  await startAutoEdit(page, 'Fix the discount');
  await sessionStatus(page, 'done');

  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  await page.locator('[data-testid="diff-file"][data-path="src/price.js"]').click();
  await expect(page.getByTestId('diff-viewer')).toHaveAttribute('data-path', 'src/price.js');
  const hunks = page.getByTestId('hunk');
  await expect(hunks).toHaveCount(2);
  await expect(page.locator('.hunk-revert-glyph')).toHaveCount(2);
  await keepScreenshot(page, testInfo, '1-review-two-hunks');

  // Undo the second hunk only: the fix goes, the comment stays.
  await hunks.nth(1).getByTestId('revert-hunk').click();
  await expect(hunks).toHaveCount(1);
  const workspace = app.workspace;
  expect(readFileSync(path.join(workspace, 'src/price.js'), 'utf8')).toBe(
    priceBefore.replace('discount to a price', 'discount (0-100) to a price'),
  );
  expect(readFileSync(path.join(workspace, 'README.md'), 'utf8')).toContain('A very small project');

  // Undo the README whole.
  await page.locator('[data-testid="diff-file"][data-path="README.md"]').click();
  await expect(page.getByTestId('diff-viewer')).toHaveAttribute('data-path', 'README.md');
  await page.getByTestId('revert-file').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(1);
  expect(readFileSync(path.join(workspace, 'README.md'), 'utf8')).toContain('A tiny project');

  // The next turn: the model is told, and "Last turn" shows only what it changed.
  app.model.push({ toolCalls: [edit('package.json', '"private": true', '"private": false')] }, { text: 'Done.' });
  await page.getByTestId('task-box').fill('Make the package public');
  await page.getByTestId('task-box').press('Enter');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Done.');
  await sessionStatus(page, 'done');
  const told = JSON.stringify(app.model.requests[2]);
  expect(told.split('The person reverted these changes').length - 1).toBe(1);
  expect(told).toContain('src/price.js line 3 (hunk), README.md (whole file)');

  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  await page.getByTestId('diff-scope-turn').click();
  await expect(page.getByTestId('diff-scope-turn')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('diff-file')).toHaveCount(1);
  await expect(page.getByTestId('diff-file')).toHaveAttribute('data-path', 'package.json');
  await keepScreenshot(page, testInfo, '2-last-turn-scope');
  await page.getByTestId('diff-scope-session').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(2);

  await page.getByTestId('diff-accept').click();
  await expect(page.getByTestId('diff-file')).toHaveCount(0);
  await expect(page.getByTestId('review-notice')).toContainText('Accepted');
  await expect(page.getByTestId('diff-count')).toHaveText('0 files');
});

test('a worktree session ends from the diff panel: squash into the current branch', async ({ page }, testInfo) => {
  app = await startServedApp({ turns: [{ toolCalls: twoHunks }, { text: 'Fixed.' }] });
  const repo = app.workspace;
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'start');
  const head = git(repo, 'rev-parse', 'HEAD');

  await page.goto(app.url);
  await startAutoEdit(page, 'Fix the discount', { worktree: true });
  await sessionStatus(page, 'done');
  const bar = page.getByTestId('worktree-bar');
  await expect(bar).toHaveAttribute('data-state', 'open');
  await expect(bar).toContainText(/tether\/[0-9a-z]{8}/);
  await expect(page.getByTestId('diff-file')).toHaveCount(2);
  // The person's checkout did not change while the agent worked.
  expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toBe(priceBefore);
  await keepScreenshot(page, testInfo, '3-worktree-open');

  await page.getByTestId('worktree-squash').click();
  await page.getByTestId('worktree-message').fill('Fix the discount percentage');
  await keepScreenshot(page, testInfo, '4-worktree-squash-confirm');
  await page.getByTestId('worktree-confirm-button').click();
  await expect(bar).toHaveAttribute('data-state', 'squash');
  await expect(page.getByTestId('review-notice')).toContainText('Squashed into main');
  await keepScreenshot(page, testInfo, '5-worktree-squashed');
  expect(git(repo, 'rev-list', '--count', `${head}..HEAD`)).toBe('1');
  expect(git(repo, 'log', '-1', '--format=%s')).toBe('Fix the discount percentage');
  expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toContain('percent / 100');
  expect(git(repo, 'branch', '--list', 'tether/*')).toBe('');
});

test('a worktree session can be discarded, and the setting is refused outside a git repository', async ({ page }, testInfo) => {
  app = await startServedApp({ turns: [{ toolCalls: twoHunks }, { text: 'Fixed.' }] });
  await page.goto(app.url);
  await openDraft(page);
  await expect(page.getByTestId('worktree-unavailable')).toContainText('not in a git repository');
  await expect(page.getByTestId('worktree-toggle')).toBeDisabled();
  await keepScreenshot(page, testInfo, '6-worktree-unavailable');

  const repo = app.workspace;
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'start');
  await page.reload();
  await startAutoEdit(page, 'Fix the discount', { worktree: true });
  await sessionStatus(page, 'done');
  const worktreePath = JSON.stringify(await page.getByTestId('worktree-bar').locator('.worktree-branch').getAttribute('title'));
  await page.getByTestId('worktree-discard').click();
  await page.getByTestId('worktree-confirm-button').click();
  await expect(page.getByTestId('worktree-bar')).toHaveAttribute('data-state', 'discard');
  expect(existsSync(JSON.parse(worktreePath) as string)).toBe(false);
  expect(git(repo, 'branch', '--list', 'tether/*')).toBe('');
  expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toBe(priceBefore);
});
