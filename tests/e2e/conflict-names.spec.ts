// The conflict screen names who changed the row and when (issue #5: "names who changed it and
// when"), for another user too, and still does offline (the names are kept on the device). Each
// conflicting field names the author of the change it conflicts with, not the row's last writer.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { apiGet, applyAndSync, clipField, DEMO, logIn, syncStatus } from './support.ts';
import { firstSyncDone } from './local-data.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** Dana opens the nth clip of Morning Briefing (each test its own clip); returns its address. */
async function openMorningBriefingClip(page: Page, index: number): Promise<string> {
  await logIn(page);
  await page.getByRole('link', { name: /Castaway Demo Radio/ }).click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link', { name: 'Morning Briefing' }).click();
  // The nth clip is the same one only once the whole list has been pulled.
  await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
  await page.getByTestId('clip-list').getByRole('link').nth(index).click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  return page.url();
}

/** Dana, offline, edits the open clip's fields (by label) in one Apply: one change waits. */
async function danaEditsOffline(page: Page, context: BrowserContext, fields: Record<string, string>): Promise<void> {
  await context.setOffline(true);
  for (const [label, value] of Object.entries(fields)) await clipField(page, label).fill(value);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');
}

/** Back online, Dana opens the one conflict her change met. */
async function danaOpensTheConflict(page: Page, context: BrowserContext): Promise<void> {
  await context.setOffline(false);
  await page.getByRole('link', { name: '1 conflict' }).click();
  await expect(page.getByText('Conflict 1 of 1')).toBeVisible();
}

/** Pat Producer (content access on Morning Briefing) changes the clip's Title, online. */
async function patChangesTitle(browser: Browser, clipUrl: string, title: string): Promise<void> {
  const other = await browser.newContext();
  const theirs = await other.newPage();
  await logIn(theirs, 'producer@example.com', DEMO.password);
  await theirs.goto(clipUrl);
  await clipField(theirs, 'Title').fill(title);
  await applyAndSync(theirs);
  await other.close();
}

test('a conflict with another user names them and when, online and offline', async ({ page, browser, context }) => {
  const clipUrl = await openMorningBriefingClip(page, 2);

  await danaEditsOffline(page, context, { Title: 'Dana, offline on the train' });
  await patChangesTitle(browser, clipUrl, 'Pat, from the studio');
  await danaOpensTheConflict(page, context);
  const changedBy = page.getByText(/^Changed by /);
  await expect(changedBy).toContainText('Changed by Pat Producer');
  // When: relative ("now", "1 minute ago") and the exact time beside it.
  await expect(changedBy).toContainText(/Changed by Pat Producer (now|\d+ seconds? ago|1 minute ago)/);
  await expect(changedBy.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  // Offline and reloaded, the name comes from this device.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Conflict 1 of 1')).toBeVisible();
  await expect(page.getByText(/^Changed by /)).toContainText('Changed by Pat Producer');
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Keep mine' }).click();
  await expect(page.getByText('There are no conflicts. All your edits are merged.')).toBeVisible();
  await expect(await syncStatus(page)).toHaveText('All changes saved');
});

test('when my other fields merge, the conflicting field still names the other user', async ({ page, browser, context }) => {
  const clipUrl = await openMorningBriefingClip(page, 3);

  await danaEditsOffline(page, context, { Title: 'Dana’s title, from the train', Description: 'Dana’s description', 'Short summary': 'Dana’s summary' });
  await patChangesTitle(browser, clipUrl, 'Pat’s title, from the studio');
  // Description and Short summary merge and are written by Dana's edit (she is now the row's
  // last writer); only the Title conflicts, with Pat's change.
  await danaOpensTheConflict(page, context);
  await expect(page.getByRole('rowheader')).toHaveText(['Title']);
  const changedBy = page.getByText(/^Changed by /);
  await expect(changedBy).toContainText(/Changed by Pat Producer (now|\d+ seconds? ago|1 minute ago)/);
  await expect(changedBy).not.toContainText('Dana');

  await page.getByRole('button', { name: 'Keep theirs' }).click();
  await expect(page.getByText('There are no conflicts. All your edits are merged.')).toBeVisible();
  await page.goto(clipUrl);
  await expect(clipField(page, 'Title')).toHaveValue('Pat’s title, from the studio');
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Dana’s description');
  await expect(page.getByLabel('Short summary', { exact: true })).toHaveValue('Dana’s summary');
});

/** Words of the conflict table's header and field-name cells split over two lines (a word whose
 * text makes more than one box), as "cell: word". */
async function brokenWords(page: Page): Promise<string[]> {
  return page.locator('.conflict-table').evaluate((table) => {
    const broken: string[] = [];
    for (const cell of table.querySelectorAll('th')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(`${cell.textContent}: ${match[0]}`);
        }
      }
    }
    return broken;
  });
}

test('a conflict with my own edit on another device says so, not "someone else", and the table never breaks a word in German', async ({ page, browser, context }) => {
  const clipUrl = await openMorningBriefingClip(page, 4);
  const { organizationId, clipId } = { organizationId: new URL(clipUrl).pathname.split('/')[1]!, clipId: new URL(clipUrl).pathname.split('/').at(-1)! };
  const stamp = Date.now();
  await danaEditsOffline(page, context, { Title: `Phone title ${stamp}`, 'Short summary': `Phone summary ${stamp}` });

  // Dana herself, on a second device (another browser context), changes the same fields.
  const laptop = await browser.newContext();
  const other = await laptop.newPage();
  await logIn(other, DEMO.email, DEMO.password);
  await other.goto(clipUrl);
  await clipField(other, 'Title').fill(`Laptop title ${stamp}`);
  await other.getByLabel('Short summary', { exact: true }).fill(`Laptop summary ${stamp}`);
  await applyAndSync(other);
  await laptop.close();

  await context.setOffline(false);
  const banner = page.getByRole('alert').filter({ hasText: 'on another device' });
  await expect(banner).toHaveText(/^You changed this clip on another device while editing it here\./, { timeout: 20_000 });
  await expect(page.getByText('Someone else changed this clip')).toHaveCount(0);
  await page.getByRole('link', { name: '1 conflict' }).click();
  await expect(page.getByText('Conflict 1 of 1')).toBeVisible();
  const changedBy = page.getByText(/^Changed by /);
  await expect(changedBy).toHaveCount(2);
  for (const line of await changedBy.all()) await expect(line).toContainText(/^Changed by you on another device (now|\d+ seconds? ago|1 minute ago)/);
  await expect(page.getByText(/Changed by Dana/)).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Your other device' })).toBeVisible();

  // Desktop widths, German labels (the longest): header and field-name cells wrap between words.
  await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'de-DE', url: test.info().project.use.baseURL! }]);
  await page.reload();
  await expect(page.getByText(/^Von Ihnen auf einem anderen Gerät geändert/).first()).toBeVisible();
  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator('.conflict-table th[scope="row"]')).toHaveCount(2);
    expect(await brokenWords(page), `words broken at ${width} px`).toEqual([]);
  }
  await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: 'en-US', url: test.info().project.use.baseURL! }]);
  await page.reload();

  await page.getByRole('button', { name: 'Keep mine' }).click();
  await expect(page.getByText('There are no conflicts. All your edits are merged.')).toBeVisible();
  await expect(await syncStatus(page)).toHaveText('All changes saved');
  await expect.poll(async () => (await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId)).Title).toBe(`Phone title ${stamp}`);
});
