import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { openDraft, permissionDialog, startTask } from './support/ui';

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
async function slowSends(page: Page, delayMs: number, name = 'session:send') {
  const reached: string[] = [];
  await page.routeWebSocket(/\/ws/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((frame) => {
      const request =
        typeof frame === 'string' ? (JSON.parse(frame) as { id: number; name: string; input?: { text?: string; task?: string } }) : null;
      if (request?.name !== name) return server.send(frame);
      setTimeout(() => {
        if (request.input?.text?.includes('refuse')) {
          socket.send(JSON.stringify({ id: request.id, ok: false, error: { code: 'conflict', message: 'The session refused it.' } }));
        } else {
          reached.push(request.input?.text ?? request.input?.task ?? '');
          server.send(frame);
        }
      }, delayMs);
    });
  });
  return reached;
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
  const reached = await slowSends(page, 700);
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
  // Sent while the refused one is still on its way: it must not overtake it.
  await box.pressSequentially('behind it');
  await page.keyboard.press('Enter');
  await box.pressSequentially('typed since');

  // Two arrive, in the order they were sent; the refused one and the one behind it are back in the
  // box, in the order they were typed, before what was typed since; the one behind it never went out.
  await expect(page.getByTestId('message-queued')).toHaveText([/first note/, /second note/]);
  await expect(box).toHaveValue('please refuse this\nbehind it\ntyped since');
  expect(reached).toEqual(['first note', 'second note']);
  await expect(page.getByTestId('toast').filter({ hasText: 'Could not send the message: The session refused it.' })).toBeVisible();
  release();
  await permissionDialog(page);
  await expect(box).toHaveValue('please refuse this\nbehind it\ntyped since');
});

test('a new task starts one session however often Enter is pressed while it starts, with more typed between', async ({ page }) => {
  app = await startServedApp({ turns: [{ text: 'Done.' }] });
  const reached = await slowSends(page, 700, 'session:start');
  await page.goto(app.url);
  await openDraft(page);
  const box = page.getByTestId('task-box');
  await box.click();
  await box.pressSequentially('Tidy the release');
  await page.keyboard.press('Enter');
  // More typed and Enter again while the session starts: still one session, started with the task.
  await box.pressSequentially(' and the notes');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('session-view')).toBeVisible();
  await expect(page.getByTestId('session-item')).toHaveCount(1);
  expect(reached).toEqual(['Tidy the release']);
});

test('what is typed in a session’s box waits there while another session shows, and a message refused meanwhile comes back to it', async ({
  page,
}) => {
  app = await startServedApp({ turns: [{ text: 'Noted.' }, { text: 'Noted too.' }] });
  await slowSends(page, 700);
  await page.goto(app.url);
  await startTask(page, 'First task');
  await startTask(page, 'Second task');
  const box = page.getByTestId('task-box');
  const open = async (title: string) => {
    await page.getByTestId('session-item').filter({ hasText: title }).locator('.session-select').click();
    await expect(page.getByTestId('session-view')).toContainText(title);
  };

  await open('First task');
  await box.pressSequentially('half a thought');
  await open('Second task');
  await expect(box).toHaveValue('');
  await open('First task');
  await expect(box).toHaveValue('half a thought');

  // Sent, then the person leaves at once; the core refuses it while the other session shows.
  await box.fill('please refuse this');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await open('Second task');
  await expect(page.getByTestId('toast').filter({ hasText: 'Could not send the message: The session refused it.' })).toBeVisible();
  await expect(box).toHaveValue('');
  await open('First task');
  await expect(box).toHaveValue('please refuse this');
});
