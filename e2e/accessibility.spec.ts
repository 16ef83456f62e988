import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/accessibility';
import { startServedApp, type ServedApp } from './support/servedApp';
import { permissionDialog, sessionStatus, startTask } from './support/ui';

// Issue 29, item 10: axe-core finds no serious or critical problem on the screens a person spends
// their time on, light and dark. One journey through `tether serve` stops at each screen; to check
// another, add a stop where the journey passes it (or call expectAccessible from any spec).

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

interface Stop {
  screen: string;
  /** Gets there from the previous stop, and waits until it is drawn. */
  reach(page: Page): Promise<void>;
}

const journey: Stop[] = [
  {
    screen: 'the first screen',
    reach: async (page) => {
      await expect(page.getByTestId('sidebar')).toBeVisible();
    },
  },
  {
    screen: 'the main screen with a command request open',
    reach: async (page) => {
      await startTask(page, 'Fix the discount and write notes');
      const dialog = await permissionDialog(page);
      await expect(dialog.getByTestId('permission-part').first()).toBeVisible();
      await expect(page.getByTestId('inbox-item')).toHaveCount(1);
    },
  },
  {
    screen: 'the same request, reached from the keyboard',
    reach: async (page) => {
      await page.keyboard.press('F6');
      await expect(page.getByTestId('permission-dialog')).toHaveAttribute('data-focused', 'true');
    },
  },
  {
    screen: 'an edit request with its diff',
    reach: async (page) => {
      await page.getByTestId('permission-allow-once').click();
      await expect((await permissionDialog(page)).getByTestId('permission-edit-diff')).toBeVisible();
    },
  },
  {
    screen: 'the review pane with a diff',
    reach: async (page) => {
      await page.getByTestId('permission-allow-once').click();
      await sessionStatus(page, 'done');
      await page.locator('[data-testid="diff-file"][data-path="src/price.js"]').click();
      await expect(page.locator('.diff-viewer .monaco-diff-editor .view-lines').first()).toContainText('percent');
    },
  },
  {
    screen: 'Settings',
    reach: async (page) => {
      await page.getByTestId('settings-button').click();
      await expect(page.getByTestId('settings')).toBeVisible();
      await expect(page.getByTestId('rule-item').or(page.getByTestId('rules-empty')).first()).toBeVisible();
      // One of the person's own rules listed, and the form's refusal of one it cannot read.
      await page.getByTestId('settings-rule-input').fill('run_command(rm -rf *)');
      await page.getByTestId('settings-rule-add').click();
      await expect(page.getByTestId('settings-rule')).toHaveCount(1);
      await page.getByTestId('settings-rule-input').fill('run_command(rm *');
      await page.getByTestId('settings-rule-add').click();
      await expect(page.getByTestId('settings-rule-error')).toBeVisible();
    },
  },
  {
    screen: 'the permission history',
    reach: async (page) => {
      await page.getByTestId('history-button').click();
      await expect(page.getByTestId('history-row')).toHaveCount(2);
    },
  },
  {
    screen: 'the keyboard shortcuts',
    reach: async (page) => {
      await page.getByTestId('shortcuts-button').click();
      await expect(page.getByTestId('shortcuts-sheet')).toBeVisible();
    },
  },
];

test('axe-core finds no serious or critical problem on the main screens, light and dark', async ({ page }) => {
  test.setTimeout(480_000);
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test 2>&1 | tee out.txt && rm -f out.txt' } }] },
      {
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' } },
        ],
      },
      { text: 'Fixed the discount.' },
    ],
  });
  await page.goto(app.url);
  for (const stop of journey) {
    await test.step(stop.screen, async () => {
      await stop.reach(page);
      await expectAccessible(page, stop.screen);
    });
  }
});
