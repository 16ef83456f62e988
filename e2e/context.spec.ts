import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, sessionStatus, startTask } from './support/ui';

// The context meter, the cost, "Compact now" and the instructions chip, as a person sees them in the
// session header, through `tether serve` in Chromium with the scripted model.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const plan = {
  name: 'update_plan',
  arguments: {
    steps: [
      { step: 'Read the price code', status: 'in_progress' },
      { step: 'Explain it', status: 'pending' },
    ],
  },
};

test('the header shows the context meter, the cost and the instruction files; Compact now summarises with progress', async ({
  page,
}, testInfo) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [plan], usage: { inputTokens: 4_400, outputTokens: 60 } },
      {
        toolCalls: [{ name: 'read_file', arguments: { path: 'src/price.js' } }],
        usage: { inputTokens: 4_700, outputTokens: 40, cachedInputTokens: 4_000 },
      },
      {
        text: 'The price module subtracts a percentage discount.',
        usage: { inputTokens: 5_100, outputTokens: 120, cachedInputTokens: 4_500 },
      },
    ],
    settings: { models: { 'scripted-model': { contextWindow: 16_000, inputPrice: 2, cachedInputPrice: 0.5, outputPrice: 8 } } },
  });
  writeFileSync(path.join(app.workspace, 'AGENTS.md'), 'Run npm test before you answer.\n');
  writeFileSync(path.join(app.workspace, 'src', 'AGENTS.md'), 'Prices are in cents.\n');
  await page.goto(app.url);
  await startTask(page, 'Explain how prices are computed');
  await sessionStatus(page, 'done');

  const header = page.getByTestId('session-header');
  // 5,100 in + 120 out of a 16,000-token window.
  await expect(header.getByTestId('context-meter')).toContainText('5.2k / 16k · 33%');
  // 14,200 in (8,500 cached) and 220 out: 5,700 × $2 + 8,500 × $0.50 + 220 × $8 per million.
  await expect(header.getByTestId('session-tokens')).toContainText('14k in (8.5k cached) · 220 out');
  await expect(header.getByTestId('session-cost')).toHaveText('$0.0174');

  const chip = header.getByTestId('instructions-chip');
  await expect(chip).toContainText('AGENTS.md +1');
  await chip.locator('summary').click();
  await expect(chip.getByTestId('instructions-files')).toContainText('AGENTS.md');
  await expect(chip.getByTestId('instructions-files')).toContainText('src/AGENTS.md');
  await expect(chip.getByTestId('instructions-files')).toContainText('found while working');
  await keepScreenshot(page, testInfo, '1-header-instructions');
  await chip.locator('summary').click();

  // The summary takes a moment (here, until the test has looked): the header says a compaction is under way.
  let summarise!: () => void;
  const looked = new Promise<void>((resolve) => (summarise = resolve));
  app.model.push(async () => {
    await looked;
    return { text: 'SUMMARY: the plan was made and src/price.js was read.', usage: { inputTokens: 1_500, outputTokens: 100 } };
  });
  await header.getByTestId('compact-now').click();
  await expect(header.getByTestId('context-compacting')).toBeVisible();
  await expect(header.getByTestId('compact-now')).toBeDisabled();
  await keepScreenshot(page, testInfo, '2-compacting');
  summarise();

  const marker = page.getByTestId('compaction-marker');
  await expect(marker).toBeVisible({ timeout: 20_000 });
  await expect(header.getByTestId('context-compacting')).toHaveCount(0);
  await expect(marker).toContainText('Compacted here');
  await marker.locator('summary').click();
  await expect(page.getByTestId('compaction-summary')).toContainText('SUMMARY: the plan was made');
  // The conversation is still all there.
  await expect(page.getByTestId('message-assistant').last()).toContainText('subtracts a percentage discount');
  // The summary was paid for too: 1,500 × $2 + 100 × $8 per million more.
  await expect(header.getByTestId('session-cost')).toHaveText('$0.0212');
  // The project's sessions, summed, beside its name in the sidebar.
  await expect(page.getByTestId('project-cost').first()).toHaveText('$0.0212');
  // What the model gets now is smaller than what it got.
  const after = await header.getByTestId('context-meter').textContent();
  expect(Number(/([\d.]+)k \//.exec(after ?? '')?.[1])).toBeLessThan(5.2);
  await keepScreenshot(page, testInfo, '3-compacted');
});

test('a model with no known price shows its tokens and "cost unknown"', async ({ page }) => {
  app = await startServedApp({ turns: [{ text: 'Hello.', usage: { inputTokens: 1_200, outputTokens: 30 } }] });
  await page.goto(app.url);
  await startTask(page, 'Say hello');
  await sessionStatus(page, 'done');
  const header = page.getByTestId('session-header');
  await expect(header.getByTestId('session-tokens')).toContainText('1.2k in · 30 out');
  await expect(header.getByTestId('session-cost')).toHaveText('cost unknown');
  // The window is assumed for an unknown model, and says so in numbers.
  await expect(header.getByTestId('context-meter')).toContainText('/ 33k');
});
