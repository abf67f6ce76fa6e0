// Networks and programs made in the studio (issue 29, "Structure in the studio"): a network, a
// program in it with its podcast settings (the rules refuse a bad e-mail at its field first), then
// the program renamed offline, which waits in the outbox and reaches the server once back online.
import { expect, test } from '@playwright/test';
import { allChangesSaved, apiGet, logIn, openOrganizationHome, syncStatus } from './support.ts';

test('creates a network and a program in it with podcast settings; an offline rename syncs when back online', async ({ page, context }) => {
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  const stamp = Date.now();
  const networkName = `Harbour Radio ${stamp}`;
  await page.goto(`/${organizationId}/networks`);
  await page.getByRole('button', { name: 'New network' }).click();
  const networkDialog = page.getByRole('dialog', { name: 'New network' });
  await networkDialog.getByRole('button', { name: 'Create' }).click();
  await expect(networkDialog.getByText('You must enter a name')).toBeVisible();
  await networkDialog.getByLabel('Name').fill(networkName);
  await networkDialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 2, name: networkName })).toBeVisible();

  await page.getByRole('main').getByRole('link', { name: 'Programs' }).click();
  await page.getByRole('button', { name: 'New program' }).click();
  const programDialog = page.getByRole('dialog', { name: 'New program' });
  await programDialog.getByLabel('Name').fill(`Tide Tables ${stamp}`);
  await expect(programDialog.getByLabel('Slug')).toHaveValue(`tide-tables-${stamp}`);
  await programDialog.getByLabel('Network').selectOption({ label: networkName });
  await programDialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Program settings' })).toBeVisible();
  const programId = new URL(page.url()).pathname.split('/').at(-2)!;

  await page.getByLabel('Author').fill('The harbour team');
  await page.getByLabel('Owner email').fill('not-an-address');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('"not-an-address" is not a valid email address')).toBeVisible();
  await page.getByLabel('Owner email').fill('tides@example.com');
  await page.getByLabel('Language').selectOption('de');
  await page.getByLabel('Category', { exact: true }).selectOption({ label: 'News' });
  await page.getByLabel('Subcategory').selectOption({ label: 'Daily News' });
  await page.getByLabel('Explicit content').check();
  await page.getByRole('button', { name: 'Add person' }).click();
  await page.locator('.person-row').getByLabel('Name').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await allChangesSaved(page);
  await expect
    .poll(async () => apiGet<Record<string, unknown>>(page, `/v1/programs/${programId}`, organizationId))
    .toMatchObject({ Author: 'The harbour team', OwnerEmail: 'tides@example.com', Language: 'de', Category: 'news', Subcategory: 'news.daily-news', Explicit: true, Persons: [{ Name: 'Ada Lovelace', Role: 'host', Href: null }] });

  // Offline (no reload here, so no wait for the service worker): the rename is saved on the device
  // at once and waits; back online it is sent.
  await context.setOffline(true);
  await page.getByLabel('Name', { exact: true }).first().fill(`Tide Tables Live ${stamp}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
  await expect(page.getByText(`Tide Tables Live ${stamp}`).first()).toBeVisible();
  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  expect(await apiGet<Record<string, unknown>>(page, `/v1/programs/${programId}`, organizationId)).toMatchObject({ Name: `Tide Tables Live ${stamp}`, Author: 'The harbour team' });
});
