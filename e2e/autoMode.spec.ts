import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, keepScreenshot, permissionDialog, sessionStatus } from './support/ui';

// Mode auto as a person meets it through `tether serve`: the question a project asks the first time
// it is opened, a session that starts in auto, what ran on its own (the card, the header's count,
// the rewind preview), and, where no sandbox is available, auto saying it works as ask.

let app: ServedApp | undefined;
let bin: string | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
  if (bin) rmSync(bin, { recursive: true, force: true });
  bin = undefined;
});

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 1024, height: 700 };

/** A screenshot at both sizes, kept in /tmp to be looked at. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const size of [WIDE, NARROW]) {
    await page.setViewportSize(size);
    // The diff editor lays itself out again on the next frames after a resize.
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(tmpdir(), `tether-${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(WIDE);
}

async function newSession(page: Page): Promise<void> {
  await page.getByTestId('project-item').first().locator('.project-header').hover();
  await page.getByTestId('project-new-session').first().click();
}

async function typeTask(page: Page, task: string): Promise<void> {
  await page.getByTestId('task-box').fill(task);
  await page.getByTestId('task-box').press('Enter');
  await expect(page.getByTestId('session-view')).toBeVisible();
}

test('a new project asks once; auto then runs a sandboxed command unasked, and the card, the header and the rewind preview say so', async ({
  page,
}, testInfo) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ id: 'call_notes', name: 'write_file', arguments: { path: 'notes.txt', content: 'notes\n' } }] },
      {
        toolCalls: [
          { id: 'call_touch', name: 'run_command', arguments: { command: 'touch made-by-auto.txt', description: 'Leave a mark' } },
        ],
      },
      { text: 'Wrote the notes and left a mark.' },
    ],
  });
  await page.goto(app.url);
  await newSession(page);
  const question = page.getByTestId('project-mode-question');
  await expect(question).toBeVisible();
  await expect(question).toContainText('How should Tether work in workspace?');
  await expect(question.getByTestId('project-mode-ask')).toContainText('Ask before every command');
  const auto = question.getByTestId('project-mode-auto');
  await expect(auto).toContainText('Run commands inside the sandbox on their own');
  await expect(auto).toContainText('write only inside this folder');
  await expect(auto).toContainText('Still asks');
  await expect(auto).toHaveAttribute('data-works-as-ask', 'false');
  await expect(page.getByTestId('task-box')).toHaveCount(0);
  await keepScreenshot(page, testInfo, '1-first-open-question');
  await shoot(page, 'auto-question');

  await auto.click();
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('draft-mode-select')).toHaveValue('auto');
  await expect(page.getByTestId('draft-mode-default')).toContainText('starts sessions in auto');
  await typeTask(page, 'Write notes and leave a mark');

  const badge = page.getByTestId('auto-badge');
  await expect(badge).toBeVisible();
  await expect(badge).toHaveAttribute('data-works-as-ask', 'false');
  await expect(page.getByTestId('mode-select')).toHaveValue('auto');
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('permission-dialog')).toHaveCount(0);
  expect(existsSync(path.join(app.workspace, 'made-by-auto.txt'))).toBe(true);

  const touch = page.locator('[data-testid="tool-card"][data-call-id="call_touch"]');
  await expect(touch.getByTestId('tool-card-sandbox')).toHaveText('ran in the sandbox');
  await expect(touch.getByTestId('tool-card-sandbox')).toHaveAttribute('data-sandbox', 'sandboxed');
  await expect(touch.getByTestId('tool-card-unasked')).toHaveText('unasked');
  const notes = page.locator('[data-testid="tool-card"][data-call-id="call_notes"]');
  await expect(notes.getByTestId('tool-card-unasked')).toBeVisible();
  await expect(notes.getByTestId('tool-card-sandbox')).toHaveCount(0);
  const count = page.getByTestId('ran-unasked-count');
  await expect(count).toHaveAttribute('data-count', '2');
  await expect(count).toHaveText('2 calls ran unasked');
  await keepScreenshot(page, testInfo, '2-session-in-auto');
  await shoot(page, 'auto-session');

  // Rewinding to right after the notes: the preview marks the command that ran unasked since.
  const step = page.getByTestId('conversation').locator('.rewindable:has([data-call-id="call_notes"]) [data-testid="rewind-here"]');
  await step.focus();
  await page.keyboard.press('Enter');
  const rewind = page.getByTestId('rewind-dialog');
  await expect(rewind).toBeVisible();
  const unasked = rewind.getByTestId('rewind-unasked');
  await expect(unasked).toContainText('1 command after this step ran unasked');
  await expect(unasked.locator('li[data-call-id="call_touch"]')).toContainText('touch made-by-auto.txt');
  await expect(unasked.locator('li[data-call-id="call_touch"]')).toContainText('ran unasked');
  await keepScreenshot(page, testInfo, '3-rewind-preview');
  await page.screenshot({ path: path.join(tmpdir(), 'tether-auto-rewind-1440x900.png') });
  await page.keyboard.press('Escape');
  await expect(rewind).toHaveCount(0);

  // The second open asks nothing: the draft starts in the project's default, also after a reload.
  await newSession(page);
  await expect(page.getByTestId('task-box')).toBeVisible();
  await expect(page.getByTestId('project-mode-question')).toHaveCount(0);
  await expect(page.getByTestId('draft-mode-select')).toHaveValue('auto');
  await page.reload();
  await newSession(page);
  await expect(page.getByTestId('task-box')).toBeVisible();
  await expect(page.getByTestId('project-mode-question')).toHaveCount(0);
  await expect(page.getByTestId('draft-mode-select')).toHaveValue('auto');

  // Settings show the project's default, and change it.
  await page.getByTestId('settings-button').click();
  const field = page.getByTestId('project-default-mode');
  await expect(field).toHaveValue('auto');
  await field.selectOption('ask');
  await expect(field).toHaveValue('ask');
  await page.getByTestId('settings-close').click();
  await newSession(page);
  await expect(page.getByTestId('draft-mode-select')).toHaveValue('ask');
});

test('where no sandbox is available, the question and the session say auto works as ask, and a command asks', async ({
  page,
}, testInfo) => {
  // The server's PATH has every program of /usr/bin but bubblewrap: no sandbox can be made.
  bin = mkdtempSync(path.join(tmpdir(), 'tether-e2e-bin-'));
  for (const name of readdirSync('/usr/bin')) if (name !== 'bwrap') symlinkSync(path.join('/usr/bin', name), path.join(bin, name));
  app = await startServedApp({
    env: { PATH: bin },
    turns: [
      { toolCalls: [{ id: 'call_touch', name: 'run_command', arguments: { command: 'touch made-by-auto.txt' } }] },
      { text: 'It was refused.' },
    ],
  });
  await page.goto(app.url);
  await newSession(page);
  const auto = page.getByTestId('project-mode-auto');
  await expect(auto).toHaveAttribute('data-works-as-ask', 'true');
  const note = auto.getByTestId('project-mode-auto-as-ask');
  await expect(note).toContainText('auto will work as ask');
  await expect(note).toContainText('bubblewrap');
  await keepScreenshot(page, testInfo, '4-question-without-sandbox');
  await shoot(page, 'auto-question-no-sandbox');

  await auto.click();
  await expect(page.getByTestId('draft-mode-select')).toHaveValue('auto');
  await expect(page.getByTestId('draft-mode-auto-as-ask')).toContainText('auto works as ask');
  await typeTask(page, 'Leave a mark');

  const badge = page.getByTestId('auto-badge');
  await expect(badge).toHaveAttribute('data-works-as-ask', 'true');
  await expect(badge).toContainText('works as ask');
  await expect(badge).toHaveAttribute('title', /bubblewrap/);
  const dialog = await permissionDialog(page);
  await expect(dialog).toContainText('auto mode asks as ask mode does');
  await dialog.getByTestId('permission-deny').click();
  await dialogGone(page);
  await sessionStatus(page, 'done');
  await shoot(page, 'auto-session-no-sandbox');
  expect(existsSync(path.join(app.workspace, 'made-by-auto.txt'))).toBe(false);
  const card = page.locator('[data-testid="tool-card"][data-call-id="call_touch"]');
  await expect(card).toHaveAttribute('data-status', 'denied');
  await expect(card.getByTestId('tool-card-unasked')).toHaveCount(0);
  await expect(page.getByTestId('ran-unasked-count')).toHaveCount(0);
});
