import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { refusedPort, startListingServer, type ListingServer } from '../test/support/modelListingServer';
import { expectAccessible } from './support/accessibility';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, startTask } from './support/ui';

// First run and errors (issue 18, item 7), through `tether serve` in Chromium: the welcome offers the
// providers and finds a (fake) Ollama on this machine, Test connection lists the models and which can
// use tools, Settings warns before saving an address that does not answer, retries show their count
// and countdown, and a failing provider's notice says what failed, offers Retry and Open settings, and
// stays in the conversation.

let app: ServedApp | undefined;
const listings: ListingServer[] = [];
test.afterEach(async () => {
  await app?.close();
  app = undefined;
  await Promise.all(listings.splice(0).map((server) => server.close()));
});

/** No model and no key anywhere: what a person who just installed Tether has. */
const noKeys = { TETHER_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', TETHER_BASE_URL: '' };

async function fakeOllama(): Promise<ListingServer> {
  const server = await startListingServer({
    kind: 'ollama',
    models: [
      { id: 'qwen3:8b', capabilities: ['completion', 'tools'] },
      { id: 'gemma3:4b', capabilities: ['completion', 'vision'] },
    ],
  });
  listings.push(server);
  return server;
}

const screens = path.resolve('test-results/screens');

async function screen(page: Page, name: string, size: { width: number; height: number }, scheme: 'light' | 'dark'): Promise<void> {
  mkdirSync(screens, { recursive: true });
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: scheme });
  await page.screenshot({ path: path.join(screens, `${name}-${size.width}x${size.height}-${scheme}.png`) });
}

test('first run: the welcome offers the providers, finds Ollama, tests it and sets it up', async ({ page }, testInfo) => {
  const ollama = await fakeOllama();
  app = await startServedApp({
    noModel: true,
    env: {
      ...noKeys,
      GLOO_API_KEY: 'gloo-e2e-secret',
      TETHER_TEST_LOCAL_MODEL_PORTS: `ollama=${ollama.port},lmstudio=${await refusedPort()}`,
    },
  });
  await page.goto(app.url);

  const setup = page.getByTestId('model-setup');
  await expect(setup).toBeVisible();
  await expect(setup.locator('.provider-name')).toHaveText([
    /^Gloo AI(?! \()/,
    /^Gloo AI \(Anthropic Messages\)/,
    /^OpenAI/,
    /^Anthropic/,
    /^Ollama/,
    /^LM Studio/,
    /^Another OpenAI-compatible server/,
  ]);
  await expect(setup.getByRole('radio')).toHaveCount(7);
  await expect(page.getByTestId('local-search')).toHaveText('Found on this machine: Ollama (2 models).');
  await expect(page.getByTestId('provider-ollama')).toContainText('running here');
  await expect(page.getByTestId('provider-lmstudio')).toContainText('not found');
  // Gloo's key is in the environment: said by name, never by value.
  await expect(page.getByTestId('provider-gloo')).toContainText('GLOO_API_KEY set');
  await expect(page.locator('body')).not.toContainText('gloo-e2e-secret');
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    for (const scheme of ['light', 'dark'] as const) await screen(page, 'welcome', size, scheme);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Gloo: its address filled in, the key left to GLOO_API_KEY.
  await page.getByTestId('provider-gloo').click();
  await expect(page.getByTestId('setup-base-url')).toHaveValue('https://platform.ai.gloo.com/ai/v2/direct');
  await expect(page.getByTestId('setup-api-key')).toHaveAttribute('placeholder', 'leave empty to use GLOO_API_KEY');

  // Ollama: chosen, tested at once, its models listed with what /api/show says about tools.
  await page.getByTestId('provider-ollama').click();
  await expect(page.getByTestId('setup-base-url')).toHaveValue(ollama.baseUrl);
  const models = page.getByTestId('connection-model');
  await expect(models).toHaveCount(2);
  await expect(page.locator('[data-model="qwen3:8b"]')).toHaveAttribute('data-tools', 'yes');
  await expect(page.locator('[data-model="gemma3:4b"]')).toHaveAttribute('data-tools', 'no');
  await expect(page.getByTestId('connection-ok')).toContainText('Connected: 2 models, 1 cannot use tools');
  await expect(page.getByTestId('setup-model')).toHaveValue('qwen3:8b');
  for (const scheme of ['light', 'dark'] as const) await screen(page, 'welcome-ollama', { width: 1440, height: 900 }, scheme);
  await page.emulateMedia({ colorScheme: 'light' });
  await keepScreenshot(page, testInfo, 'welcome-ollama');

  // Any other address: one that refuses is said to, and is used only on purpose.
  await page.getByTestId('provider-custom').click();
  const dead = `http://127.0.0.1:${await refusedPort()}/v1`;
  await page.getByTestId('setup-base-url').fill(dead);
  await page.getByTestId('setup-test').click();
  await expect(page.getByTestId('connection-failed')).toHaveAttribute('data-failure', 'refused');
  await expect(page.getByTestId('connection-failed')).toContainText('Connection refused');
  await page.getByTestId('setup-base-url').fill('file:///etc/passwd');
  await page.getByTestId('setup-test').click();
  await expect(page.getByText('Type a full http:// or https:// address.')).toBeVisible();

  // Back to Ollama, and use it: the welcome steps aside for the project that is open.
  await page.getByTestId('provider-ollama').click();
  await expect(page.getByTestId('connection-ok')).toBeVisible();
  await page.getByTestId('setup-save').click();
  await expect(page.getByTestId('model-setup')).toHaveCount(0);
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-base-url')).toHaveValue(ollama.baseUrl);
  await expect(page.getByTestId('settings-model')).toHaveValue('qwen3:8b');
  // The probe and the test only ever asked the fake Ollama for its listing and its models' details.
  expect(new Set(ollama.seen.map((request) => `${request.method} ${request.url}`))).toEqual(new Set(['GET /v1/models', 'POST /api/show']));
});

test('at 1024×700 the welcome brings the warning for an address that does not answer, and its "Use it anyway", into view', async ({
  page,
}) => {
  // Issue 29 (low): the button was below the fold, out of sight of the person who had just pressed Use.
  app = await startServedApp({
    noModel: true,
    env: { ...noKeys, TETHER_TEST_LOCAL_MODEL_PORTS: `ollama=${await refusedPort()},lmstudio=${await refusedPort()}` },
  });
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(app.url);
  await page.getByTestId('provider-custom').click();
  const dead = `http://127.0.0.1:${await refusedPort()}/v1`;
  await page.getByTestId('setup-base-url').fill(dead);
  await page.getByTestId('setup-model').fill('my-model');
  await page.getByTestId('setup-save').click();
  const warning = page.getByTestId('setup-dead-url');
  await expect(warning).toContainText(`${dead} does not answer as a model server`);
  await expect(page.getByTestId('setup-save-anyway')).toBeInViewport({ ratio: 1 });
  await expect(warning).toBeInViewport({ ratio: 1 });
  await expectAccessible(page, 'the welcome, warning of an address that does not answer');
  for (const size of [
    { width: 1024, height: 700 },
    { width: 1440, height: 900 },
  ]) {
    for (const scheme of ['light', 'dark'] as const) await screen(page, 'welcome-dead-address', size, scheme);
  }
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByTestId('setup-save-anyway').click();
  await expect(page.getByTestId('model-setup')).toHaveCount(0);
});

test('Settings tests the connection, and warns before saving an address that does not answer', async ({ page }) => {
  app = await startServedApp();
  const wrongPath = await startListingServer({ kind: 'openai', models: [{ id: 'm1', supported_parameters: ['tools'] }] });
  const page404 = await startListingServer({ kind: 'html' });
  listings.push(wrongPath, page404);
  await page.goto(app.url);
  await page.getByTestId('settings-button').click();
  const baseUrl = page.getByTestId('settings-base-url');

  // A server that answers: its models, and which can use tools.
  await baseUrl.fill(wrongPath.baseUrl);
  await page.getByTestId('settings-test-connection').click();
  await expect(page.locator('[data-model="m1"]')).toHaveAttribute('data-tools', 'yes');

  // Each kind of dead address says what failed, and Save waits for "Save anyway".
  const cases: [string, string, RegExp][] = [
    [`http://127.0.0.1:${await refusedPort()}/v1`, 'refused', /Connection refused/],
    [wrongPath.origin, 'not_found', /Wrong path \(404\)/],
    [page404.baseUrl, 'not_json', /not JSON/],
    ['http://no-such-model-host.invalid/v1', 'dns', /does not resolve/],
  ];
  for (const [address, failure, said] of cases) {
    await baseUrl.fill(address);
    await page.getByTestId('settings-save').click();
    const warning = page.getByTestId('settings-dead-url');
    await expect(warning).toBeVisible();
    await expect(warning.getByTestId('connection-failed')).toHaveAttribute('data-failure', failure);
    await expect(warning).toContainText(said);
    await page.getByTestId('settings-keep-editing').click();
    await expect(warning).toHaveCount(0);
  }
  // Nothing was saved meanwhile.
  await page.getByTestId('settings-close').click();
  await page.getByTestId('settings-button').click();
  await expect(baseUrl).toHaveValue(app.model.baseUrl);

  // Saved anyway, on purpose. A click the moment it appears where Save was (the second half of a
  // double-click on Save) does not count: it must have been seen first.
  const dead = `http://127.0.0.1:${await refusedPort()}/v1`;
  await baseUrl.fill(dead);
  const strayClick = page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => {
          const button = document.querySelector<HTMLButtonElement>('[data-testid="settings-save-anyway"]');
          if (!button) return;
          observer.disconnect();
          button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
          button.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
          resolve();
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
  );
  await page.getByTestId('settings-save').click();
  await strayClick;
  await page.waitForTimeout(600);
  await expect(page.getByTestId('settings-dead-url')).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved.' })).toHaveCount(0);
  await page.getByTestId('settings-save-anyway').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.getByTestId('settings-close').click();
  await page.getByTestId('settings-button').click();
  await expect(baseUrl).toHaveValue(dead);
});

test('a server that is down shows its retries, then what failed with Retry and Open settings; Retry works once it is fixed', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const dead = `http://127.0.0.1:${await refusedPort()}/v1`;
  app = await startServedApp({
    turns: [{ text: 'Back on line.' }],
    settings: { model: { baseUrl: dead, api: 'chat', model: 'scripted-model' } },
  });
  await page.goto(app.url);
  await startTask(page, 'Say hello');

  // The first retry shows for half a second to a second: a loaded machine may first see a later
  // one. What must hold is that the notice counts its tries, says why, and moves on.
  const retry = page.getByTestId('retry-notice');
  await expect(retry).toContainText(/Retrying \([2-5]\/5\) (in \d s|now…)/);
  await expect(retry).toContainText('connection refused');
  const seenTry = Number(/\((\d)\/5\)/.exec((await retry.textContent()) ?? '')?.[1]);
  expect(seenTry).toBeGreaterThanOrEqual(2);
  if (seenTry < 5) {
    await expect(retry).toContainText(new RegExp(`Retrying \\([${seenTry + 1}-5]\\/5\\)`), { timeout: 20_000 });
  }
  await keepScreenshot(page, testInfo, 'retrying');

  const notice = page.getByTestId('ending-notice');
  await expect(notice).toHaveAttribute('data-failure', 'connection', { timeout: 30_000 });
  await expect(retry).toHaveCount(0);
  await expect(notice).toContainText('Could not reach the model server');
  await expect(notice).toContainText(`Could not reach ${dead}`);
  await expect(notice).toContainText('Gave up after 5 attempts');
  await keepScreenshot(page, testInfo, 'failed');

  // Open settings, point it at the server that works, and Retry.
  await notice.getByTestId('ending-open-settings').click();
  await page.getByTestId('settings-base-url').fill(app.model.baseUrl);
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.getByTestId('settings-close').click();
  await page.getByTestId('ending-retry').click();
  await expect(page.getByTestId('conversation')).toContainText('Back on line.');
  // The failure stays where it happened, with no buttons now.
  await expect(notice).toHaveCount(1);
  await expect(notice.getByTestId('ending-retry')).toHaveCount(0);
  expect(app.model.requests).toHaveLength(1);
});

test('a provider error says what failed; Retry runs it again; earlier failures stay after sending again', async ({ page }) => {
  app = await startServedApp({
    turns: [
      {
        error: {
          status: 401,
          body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } },
        },
      },
      { text: 'Retried fine.' },
      { error: { status: 404, body: { error: { message: 'The model `scripted-model` does not exist', code: 'model_not_found' } } } },
      { text: 'Third time lucky.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Say hello');

  const notices = page.getByTestId('ending-notice');
  await expect(notices).toHaveCount(1);
  await expect(notices.first()).toHaveAttribute('data-failure', 'auth');
  await expect(notices.first()).toContainText('The model server refused the API key (401)');
  await expect(notices.first()).toContainText('Incorrect API key provided');
  await expect(notices.first().getByTestId('ending-open-settings')).toBeVisible();
  await notices.first().getByTestId('ending-retry').click();
  await expect(page.getByTestId('conversation')).toContainText('Retried fine.');

  const box = page.getByTestId('task-box');
  await box.fill('Once more');
  await box.press('Enter');
  await expect(notices).toHaveCount(2);
  await expect(notices.nth(1)).toHaveAttribute('data-failure', 'not_found');
  await expect(notices.nth(1)).toContainText('(404)');
  await box.fill('And again');
  await box.press('Enter');
  await expect(page.getByTestId('conversation')).toContainText('Third time lucky.');
  // Both failures are still in the conversation, each where it happened, and neither offers Retry now.
  await expect(notices).toHaveCount(2);
  await expect(page.getByTestId('ending-retry')).toHaveCount(0);
  const order = await page
    .getByTestId('conversation')
    .locator('[data-testid="ending-notice"], [data-testid="message-user"]')
    .evaluateAll((nodes) =>
      nodes.map((node) => (node.getAttribute('data-testid') === 'ending-notice' ? `failed:${node.getAttribute('data-failure')}` : 'user')),
    );
  expect(order).toEqual(['user', 'failed:auth', 'user', 'failed:not_found', 'user']);
});
