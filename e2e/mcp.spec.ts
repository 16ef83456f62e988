import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// MCP servers as a person meets them through `tether serve`: a session that calls a server's tool
// (the server starts then, and the call asks first), and the settings screen that lists each
// server's state, tools and errors, with Restart.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const everything = {
  command: process.execPath,
  args: [path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('a session calls an MCP tool after asking, and settings list the servers, their tools and errors', async ({ page }, testInfo) => {
  // Two real server processes and a served app on a shared two-core machine: more than the default minute.
  test.setTimeout(120_000);
  app = await startServedApp({
    settings: { mcpServers: { everything, ghost: { command: 'no-such-mcp-server-xyz', args: ['--stdio'] } } },
    turns: [
      { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello from the model' } }] },
      { text: 'The server echoed it.' },
    ],
  });
  mkdirSync(path.join(app.workspace, '.tether'), { recursive: true });
  writeFileSync(path.join(app.workspace, '.tether', 'settings.json'), JSON.stringify({ mcpServers: { repoTools: everything } }));

  await page.goto(app.url);
  await startTask(page, 'Echo something through the MCP server');
  const dialog = await permissionDialog(page);
  await expect(dialog).toContainText('mcp__everything__echo');
  await expect(dialog).toContainText('everything › echo');
  await expect(dialog.getByTestId('permission-args')).toContainText('hello from the model');
  await keepScreenshot(page, testInfo, '1-mcp-permission');
  await dialog.getByTestId('permission-allow-once').click();
  await dialogGone(page);
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('message-assistant').last()).toContainText('The server echoed it.');

  await page.getByTestId('settings-button').click();
  const list = page.getByTestId('mcp-list');
  await list.scrollIntoViewIfNeeded();
  const ready = list.locator('[data-testid="mcp-server"][data-server="everything"]');
  await expect(ready).toHaveAttribute('data-state', 'ready');
  // A long tool list starts folded.
  await ready.locator('.mcp-tools summary').click();
  await expect(ready.getByTestId('mcp-tool').filter({ hasText: 'get-sum' })).toBeVisible();
  await expect(ready.getByTestId('mcp-tool').first()).toContainText('echo');

  // The session failed to start the ghost: its error names it and says what to fix.
  const ghost = list.locator('[data-testid="mcp-server"][data-server="ghost"]');
  await expect(ghost).toHaveAttribute('data-state', 'failed');
  await expect(ghost.getByTestId('mcp-error')).toContainText('The MCP server "ghost" could not start: the program was not found');
  await ghost.getByTestId('mcp-restart').click();
  await expect(ghost.getByTestId('mcp-error')).toContainText('Check its command (no-such-mcp-server-xyz --stdio)');

  // The project's server waits for the person to trust the folder.
  const project = list.locator('[data-testid="mcp-server"][data-server="repoTools"]');
  await expect(project).toHaveAttribute('data-state', 'untrusted');
  await expect(project.getByTestId('mcp-restart')).toHaveCount(0);

  await page.locator('#mcp-title').evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await keepScreenshot(page, testInfo, '2-mcp-settings');

  // Restart: the server goes and comes back with its tools.
  await ready.getByTestId('mcp-restart').click();
  // Its state reads ready before the restart as after it: wait for the restart's answer first.
  await expect(ready.getByTestId('mcp-restart')).toHaveText('Restart', { timeout: 45_000 });
  await expect(ready).toHaveAttribute('data-state', 'ready');
  await expect(ready.getByTestId('mcp-tool').filter({ hasText: 'get-sum' })).toBeVisible();
});
