import { expect, type Page, type TestInfo } from '@playwright/test';

/**
 * Opens a new session's draft in the first project, as a person would. The first time, the project
 * asks how it should work; this answers "Ask before every command" (e2e/autoMode.spec.ts answers it
 * itself), and the draft shows.
 */
export async function openDraft(page: Page): Promise<void> {
  // The project's "new session" button shows on hover, as in VS Code's tree views.
  await page.getByTestId('project-item').first().locator('.project-header').hover();
  await page.getByTestId('project-new-session').first().click();
  const box = page.getByTestId('task-box');
  const question = page.getByTestId('project-mode-question');
  await expect(box.or(question)).toBeVisible();
  if (await question.isVisible()) await question.getByTestId('project-mode-ask').click();
  await expect(box).toBeVisible();
}

/** Starts a new session in the first project with `task`, as a person would. */
export async function startTask(page: Page, task: string): Promise<void> {
  await openDraft(page);
  const box = page.getByTestId('task-box');
  await box.fill(task);
  await box.press('Enter');
  await expect(page.getByTestId('session-view')).toBeVisible();
}

/**
 * The Permission required request, on screen. It never takes focus: click its buttons, or reach it
 * first ({@link reachRequest}) to answer with keys.
 */
export async function permissionDialog(page: Page) {
  const dialog = page.getByTestId('permission-dialog');
  await expect(dialog).toBeVisible();
  // A request's buttons take a click only once they have stood still, in sight, for half a second (issue 29's
  // pointer guard): a spec clicks as a person does, after that, or the click is refused as a stray one.
  await expect(dialog.getByTestId('permission-actions')).toHaveAttribute('data-armed', 'true');
  return dialog;
}

/** Moves focus into the request with its shortcut, as a person answering from the keyboard does. */
export async function reachRequest(page: Page, key: 'F6' | 'Control+Shift+A' = 'F6') {
  const dialog = await permissionDialog(page);
  await page.keyboard.press(key);
  await expect(dialog).toHaveAttribute('data-focused', 'true');
  return dialog;
}

/** Waits until no dialog is shown (the answer was taken). */
export async function dialogGone(page: Page): Promise<void> {
  await expect(page.getByTestId('permission-dialog')).toHaveCount(0);
}

export async function sessionStatus(page: Page, status: string): Promise<void> {
  await expect(page.getByTestId('session-header-status')).toHaveAttribute('data-status', status, { timeout: 30_000 });
}

/** A screenshot kept with the test's results, for a person to look at. */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}
