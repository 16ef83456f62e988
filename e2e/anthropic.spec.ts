import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, sessionStatus, startTask } from './support/ui';

// Anthropic Messages chosen in the settings screen of `tether serve`, then a session that talks to
// the scripted model over /v1/messages: thinking shown, a tool call, the answer.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('choosing Anthropic Messages in settings, then a session over it', async ({ page }, testInfo) => {
  app = await startServedApp({
    turns: [
      {
        reasoning: 'The person wants the price code explained; read it first.',
        text: 'Reading the code.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'src/price.js' } }],
      },
      { text: 'It takes a **percentage** off a price in cents.' },
    ],
  });
  await page.goto(app.url);
  await page.getByTestId('settings-button').click();
  const api = page.getByTestId('settings-api');
  const baseUrl = page.getByTestId('settings-base-url');
  await expect(api).toHaveValue('chat');

  // On OpenAI's own server, switching to Anthropic offers Anthropic's; any other server is kept.
  await baseUrl.fill('https://api.openai.com/v1');
  await api.selectOption({ label: 'Anthropic Messages' });
  await expect(baseUrl).toHaveValue('https://api.anthropic.com');
  await expect(page.getByTestId('settings-api-hint')).toContainText('ANTHROPIC_API_KEY');
  await baseUrl.fill(app.model.baseUrl);
  await api.selectOption('chat');
  await api.selectOption('anthropic');
  await expect(baseUrl).toHaveValue(app.model.baseUrl);
  await keepScreenshot(page, testInfo, '1-settings-anthropic');
  await page.getByTestId('settings-save').click();
  // Saved, not only on its way: the address is checked first, and Save is disabled meanwhile too.
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(page.getByTestId('settings-save')).toBeDisabled();
  await page.getByTestId('settings-close').click();

  await startTask(page, 'Explain the price code');
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('message-assistant').last()).toContainText('percentage');
  await expect(page.getByTestId('reasoning').first()).toContainText('read it first');
  await keepScreenshot(page, testInfo, '2-session-over-anthropic');

  const posts = app.model.received.filter((request) => request.method === 'POST').map((request) => request.path);
  expect(posts).toEqual(['/v1/messages', '/v1/messages']);
  const thinking = (app.model.requests[1]!.messages![1]!.content as Array<{ type: string; signature?: string }>)[0];
  expect(thinking?.type).toBe('thinking');
  expect(thinking?.signature).toMatch(/^EoQD/);

  // The choice was kept.
  await page.reload();
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-api')).toHaveValue('anthropic');
});
