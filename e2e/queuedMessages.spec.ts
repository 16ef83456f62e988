import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { permissionDialog, startTask } from './support/ui';

// A message is the person's from the first key to the agent's next turn. The box empties as Enter is
// pressed, not when the core answers: on a slow link, what is typed meanwhile is the next message,
// and an Enter then sends it (a CI run once found the sent text still in the box, with the next one
// glued to it). A message the core refuses comes back, ahead of anything typed since.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Holds every `session:send` on its way to the server for `delayMs`; refuses, as the core would, one whose text has `refuse`. */
async function slowSends(page: Page, delayMs: number) {
  await page.routeWebSocket(/\/ws/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((frame) => {
      const request = typeof frame === 'string' ? (JSON.parse(frame) as { id: number; name: string; input?: { text?: string } }) : null;
      if (request?.name !== 'session:send') return server.send(frame);
      setTimeout(() => {
        if (request.input?.text?.includes('refuse')) {
          socket.send(JSON.stringify({ id: request.id, ok: false, error: { code: 'conflict', message: 'The session refused it.' } }));
        } else server.send(frame);
      }, delayMs);
    });
  });
}

test('messages sent faster than the core answers leave the box at once, arrive in order, and a refused one comes back', async ({
  page,
}) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  app = await startServedApp({
    turns: [
      async () => {
        await gate;
        return { toolCalls: [{ name: 'run_command', arguments: { command: 'touch LATER' } }] };
      },
    ],
  });
  await slowSends(page, 700);
  await page.goto(app.url);
  await startTask(page, 'Tidy the release');
  const box = page.getByTestId('task-box');
  await box.click();

  // Three messages, each Enter well before the core has answered the one before.
  await box.pressSequentially('first note');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await box.pressSequentially('second note');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await box.pressSequentially('please refuse this');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await box.pressSequentially('typed since');

  // Two arrive, in the order they were sent; the refused one is back in the box, before what was typed since.
  await expect(page.getByTestId('message-queued')).toHaveText([/first note/, /second note/]);
  await expect(box).toHaveValue('please refuse this\ntyped since');
  await expect(page.getByTestId('toast').filter({ hasText: 'Could not send the message: The session refused it.' })).toBeVisible();
  release();
  await permissionDialog(page);
  await expect(box).toHaveValue('please refuse this\ntyped since');
});
