import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startPageServer } from '../test/support/pageServer';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// The live network question as a person meets it through `tether serve`: a sandboxed command connects
// to a host the project's fence does not allow, the command waits, the request names the host and the
// port, and Allow always adds the host to the project's fence, where Settings → Sandbox shows it.

// Through the proxy the sandbox gives the command (its NO_PROXY lists 127.0.0.1, which inside the
// sandbox is the sandbox's own loopback: this page is on the host).
const FETCH_PY = `
import os, sys, urllib.request
proxy = os.environ.get('http_proxy') or os.environ.get('HTTP_PROXY')
for name in ('no_proxy', 'NO_PROXY'):
    os.environ.pop(name, None)
opener = urllib.request.build_opener(urllib.request.ProxyHandler({'http': proxy}))
print(opener.open(sys.argv[1], timeout=60).read().decode())
`;

let app: ServedApp | undefined;
let page: Awaited<ReturnType<typeof startPageServer>> | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
  await page?.close();
  page = undefined;
});

test('a command reaching a new host waits for the person; Allow always adds the host to Settings → Sandbox', async ({
  page: browser,
}, testInfo) => {
  page = await startPageServer('<p>notes from the host 5d1c</p>');
  const port = new URL(page.url).port;
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: `python3 fetch.py ${page.url}`, description: 'read the notes' } }] },
      { text: 'Read them.' },
    ],
  });
  writeFileSync(path.join(app.workspace, 'fetch.py'), FETCH_PY);
  await browser.goto(app.url);
  await startTask(browser, 'Read the notes on the local server');

  const command = await permissionDialog(browser);
  await expect(command.getByTestId('permission-sandbox')).toHaveCount(0);
  await command.getByTestId('permission-allow-once').click();

  const question = await permissionDialog(browser);
  const notice = question.getByTestId('permission-sandbox');
  await expect(notice).toHaveAttribute('data-kind', 'network');
  await expect(notice).toContainText('A command wants to reach the network');
  await expect(question.getByTestId('permission-sandbox-reason')).toContainText(
    `\`python3 fetch.py ${page.url}\` wants to reach 127.0.0.1:${port}`,
  );
  await expect(question.getByTestId('permission-network-host')).toHaveText('127.0.0.1');
  await expect(question.getByTestId('permission-network-port')).toHaveText(port);
  await expect(question.getByTestId('permission-network-always')).toContainText(`127.0.0.1:${port}`);
  await expect(question.getByTestId('permission-edit')).toHaveCount(0);
  await expect(question.getByTestId('permission-rule-input')).toHaveCount(0);
  // The command waits: nothing reached the page yet.
  expect(page.hits()).toBe(0);
  await keepScreenshot(browser, testInfo, '1-network-question');

  await question.getByTestId('permission-allow-always').click();
  await dialogGone(browser);
  await sessionStatus(browser, 'done');
  expect(page.hits()).toBe(1);

  await browser.getByTestId('settings-button').click();
  const section = browser.getByTestId('sandbox-settings');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByTestId('sandbox-allowedDomains')).toHaveValue(`127.0.0.1:${port}`);
  await keepScreenshot(browser, testInfo, '2-host-in-settings');
});
