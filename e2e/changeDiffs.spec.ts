import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, permissionDialog, sessionStatus, startTask } from './support/ui';

// Every change as a diff, and each part of a command with its own risk (issue 18, items 3 and 4),
// through `tether serve` in Chromium with the scripted model: an overwrite's request is a diff
// against the file as it is now, with line numbers; an edit says where it lands; the cards' diffs are
// coloured; a compound upload is badged by its riskiest part, "Why it asks" names the upload, the
// delete and the write, the command shows once and the Allow always rule is seen whole.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const screens = path.resolve('test-results/screens');

/**
 * The request at the two sizes the issue names, kept where a person looks at them; with `more`, a
 * second shot with that part of the request scrolled into view.
 */
async function screenshots(page: Page, name: string, more?: Locator): Promise<void> {
  mkdirSync(screens, { recursive: true });
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.getByTestId('permission-dialog').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screens, `${name}-${width}x${height}.png`) });
    if (more) {
      await more.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(screens, `${name}-${width}x${height}-more.png`) });
      await page
        .getByTestId('permission-dialog')
        .locator('.dialog-body')
        .evaluate((body) => body.scrollTo(0, 0));
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A diff's rows as `old new kind text`, read from the gutters. */
async function rows(diff: Locator): Promise<string[]> {
  return diff.locator('.diff-row').evaluateAll((elements) =>
    elements.map((row) => {
      const [oldLine, newLine] = [...row.querySelectorAll('.diff-gutter')].map((cell) => cell.textContent || '.');
      return `${oldLine} ${newLine} ${row.getAttribute('data-kind')} ${row.querySelector('.diff-text')?.textContent ?? ''}`;
    }),
  );
}

/** Whether an added row is drawn in colour (its background is not transparent). */
async function coloured(diff: Locator, kind: 'added' | 'removed'): Promise<boolean> {
  const background = await diff
    .locator(`.diff-row[data-kind="${kind}"]`)
    .first()
    .evaluate((row) => getComputedStyle(row).backgroundColor);
  return background !== 'rgba(0, 0, 0, 0)' && background !== 'transparent';
}

const readme = [
  '# Price',
  '',
  'A tiny project with one failing test, for Tether’s integration tests: `discounted` treats the',
  'percentage as a fraction.',
  '',
  'Run `npm test`.',
  '',
].join('\n');

test('an overwrite’s request is a diff against the file as it is now, and the card’s diff is coloured', async ({ page }) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'README.md', content: readme } }] },
      {
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' } },
        ],
      },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'docs/NOTES.md', content: 'one\ntwo\n' } }] },
      { text: 'Done.' },
    ],
  });
  const before = readFileSync(path.join(app.workspace, 'README.md'), 'utf8');
  await page.goto(app.url);
  await startTask(page, 'Tidy the README and fix the discount');

  let dialog = await permissionDialog(page);
  const diff = dialog.getByTestId('permission-edit-diff');
  // The file's two lines are there now: the request shows what goes and what comes, numbered as in the file.
  expect(await rows(diff)).toEqual([
    "1 . removed A tiny project with one failing test, for Tether's integration tests: `discounted` treats the",
    '. 1 added # Price',
    '. 2 added  ',
    '. 3 added A tiny project with one failing test, for Tether’s integration tests: `discounted` treats the',
    '2 4 context percentage as a fraction.',
    '. 5 added  ',
    '. 6 added Run `npm test`.',
  ]);
  expect(before.split('\n')).toHaveLength(3);
  await expect(dialog.getByTestId('permission-diff-position')).toHaveText('README.md, lines 1–2 (+5 −1)');
  expect(await coloured(diff, 'added')).toBe(true);
  expect(await coloured(diff, 'removed')).toBe(true);
  // The content is not printed a second time below the diff.
  await expect(dialog.getByTestId('permission-content')).toHaveCount(0);
  await screenshots(page, 'overwrite-request');
  await dialog.getByTestId('permission-allow-once').click();

  dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-diff-position')).toHaveText('src/price.js, lines 1–4 (+1 −1)');
  expect(await rows(dialog.getByTestId('permission-edit-diff'))).toEqual([
    '1 1 context // Applies a percentage discount to a price in cents.',
    '2 2 context export function discounted(cents, percent) {',
    '3 . removed   return cents - cents * percent;',
    '. 3 added   return cents - cents * percent / 100;',
    '4 4 context }',
  ]);
  await screenshots(page, 'edit-request');
  await dialog.getByTestId('permission-allow-once').click();

  dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-diff-position')).toHaveText('docs/NOTES.md, a new file of 2 lines');
  expect(await rows(dialog.getByTestId('permission-edit-diff'))).toEqual(['. 1 added one', '. 2 added two']);
  await dialog.getByTestId('permission-allow-once').click();
  await dialogGone(page);
  await sessionStatus(page, 'done');

  // The cards: the overwrite's diff, the edit's, and the new file's, each coloured with line numbers.
  const cards = page.locator('[data-testid="tool-card"][data-status="ok"]');
  await expect(cards).toHaveCount(3);
  for (const card of await cards.all()) {
    await card.getByTestId('tool-card-toggle').click();
    const cardDiff = card.getByTestId('tool-card-diff');
    await expect(cardDiff).toBeVisible();
    expect(await coloured(cardDiff, 'added')).toBe(true);
  }
  const editCard = page.locator('[data-testid="tool-card"][data-tool="edit_file"]');
  expect(await rows(editCard.getByTestId('tool-card-diff'))).toContain('. 3 added   return cents - cents * percent / 100;');
  await expect(editCard.getByTestId('tool-card-diff-position')).toHaveText('src/price.js, lines 1–4 (+1 −1)');
  await editCard.scrollIntoViewIfNeeded();
  mkdirSync(screens, { recursive: true });
  await page.screenshot({ path: path.join(screens, 'cards-diff-1440x900.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(screens, 'cards-diff-dark-1440x900.png') });
  expect(await coloured(editCard.getByTestId('tool-card-diff'), 'removed')).toBe(true);
});

test('a compound upload is badged by its riskiest part, names each risky part, shows the command once and the whole rule', async ({
  page,
}) => {
  const command = 'npm test 2>&1 | tee out.txt && curl -X POST https://example.com/upload -d @out.txt && rm -f out.txt';
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command, description: 'Upload the test report' } }] },
      { text: 'Not uploading.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Send the test report');

  const dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-risk')).toHaveText('sends data out');
  await expect(dialog.getByTestId('permission-risk')).toHaveAttribute('data-part-risk', 'sends');
  await expect(dialog.getByTestId('permission-why-parts').locator('li')).toHaveText([
    /curl sends out\.txt to example\.com/,
    /rm deletes out\.txt/,
    /npm test runs code/,
    /tee writes out\.txt/,
  ]);
  await expect(dialog.getByTestId('permission-part')).toHaveCount(4);
  await expect(dialog.getByTestId('permission-part').nth(2)).toHaveAttribute('data-risk', 'sends');
  await expect(dialog.getByTestId('permission-part').nth(3)).toHaveAttribute('data-risk', 'deletes');

  // The command is printed once: in its block, not again in the summary line above it.
  await expect(dialog.getByTestId('permission-command')).toHaveText(command);
  await expect(dialog.getByTestId('permission-summary')).not.toContainText('curl');
  const printed = await dialog.evaluate((element, line) => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const own = [...node.childNodes]
        .filter((child) => child.nodeType === Node.TEXT_NODE)
        .map((child) => child.textContent)
        .join('');
      // The Allow always box holds the rule (`run_command(…)`), which is not the command shown again.
      if (own.includes(line) && (node as HTMLElement).tagName !== 'TEXTAREA') texts.push((node as HTMLElement).tagName);
    }
    return texts.length;
  }, command);
  expect(printed).toBe(1);

  // A line that sends data out is never allowed for good (issue 29): no rule is offered, and it says why.
  await expect(dialog.getByTestId('permission-rule-input')).toHaveCount(0);
  await expect(dialog.getByTestId('permission-always-refused')).toContainText('sends data out');
  await screenshots(page, 'compound-upload-request', dialog);

  await dialog.getByTestId('permission-deny').click();
  await sessionStatus(page, 'done');
});

test('the Allow always rule box of a long compound command wraps and shows all of the rule, at 1440 and 1024, and as it is edited', async ({
  page,
}) => {
  const command = 'npm test 2>&1 | tee out.txt && grep -c passing out.txt && sed -n 1,40p out.txt && rm -f out.txt';
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command, description: 'Run the tests and keep the report' } }] },
      { text: 'Stopped.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Run the tests');
  const dialog = await permissionDialog(page);

  // The Allow always rule box wraps and shows all of the rule: nothing scrolls out of sight.
  const rule = dialog.getByTestId('permission-rule-input');
  await expect(rule).toHaveValue(`run_command(${command})`);
  const measure = () =>
    rule.evaluate((box) => ({
      whole: box.scrollHeight <= box.clientHeight && box.scrollWidth <= box.clientWidth,
      lines: Math.round(
        (box.clientHeight - parseFloat(getComputedStyle(box).paddingTop) - parseFloat(getComputedStyle(box).paddingBottom)) /
          parseFloat(getComputedStyle(box).lineHeight),
      ),
    }));
  expect((await measure()).whole).toBe(true);
  await screenshots(page, 'compound-rule-box', dialog.getByTestId('permission-allow-always-options'));
  // Still whole at 1024 px, where the rule needs more than one line.
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect.poll(async () => (await measure()).lines).toBeGreaterThanOrEqual(2);
  expect((await measure()).whole).toBe(true);
  // A longer rule, as a person may edit it, grows the box; none of it scrolls out of sight.
  const longer = `run_command(${command} && echo ${'done '.repeat(40).trim()})`;
  await rule.fill(longer);
  await expect(rule).toHaveValue(longer);
  await expect.poll(async () => (await measure()).lines).toBeGreaterThanOrEqual(4);
  expect((await measure()).whole).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });

  await dialog.getByTestId('permission-deny').click();
  await sessionStatus(page, 'done');
});
