// The conflict screen names who changed the row and when (issue #5: "names who changed it and
// when"), for another user too, and still does offline (the names are kept on the device).
import { expect, test } from '@playwright/test';
import { DEMO, logIn, syncStatus } from './support.ts';

test('a conflict with another user names them and when, online and offline', async ({ page, browser, context }) => {
  await logIn(page);
  await page.getByRole('link', { name: /Castaway Demo Radio/ }).click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link', { name: 'Morning Briefing' }).click();
  await page.getByTestId('clip-list').getByRole('link').nth(2).click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  const clipUrl = page.url();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  await context.setOffline(true);
  await page.getByLabel('Title', { exact: true }).fill('Dana, offline on the train');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');

  // Pat Producer (content access on Morning Briefing) changes the same Title meanwhile.
  const other = await browser.newContext();
  const theirs = await other.newPage();
  await logIn(theirs, 'producer@example.com', DEMO.password);
  await theirs.goto(clipUrl);
  await theirs.getByLabel('Title', { exact: true }).fill('Pat, from the studio');
  await theirs.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(theirs)).toHaveText('All changes saved');
  await other.close();

  await context.setOffline(false);
  await page.getByRole('link', { name: '1 conflict' }).click();
  await expect(page.getByText('Conflict 1 of 1')).toBeVisible();
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
