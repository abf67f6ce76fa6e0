// Offline before the first sync: the device has no copy of the organization yet, so the studio
// says so ("Not yet available offline") instead of empty lists or a wrong 'not found' page, and
// fills in once the network is back.
import { expect, test } from '@playwright/test';
import { logIn } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test('an organization opened offline before its first download says it is not yet available offline', async ({ page, context }) => {
  await logIn(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const link = page.getByRole('link', { name: /Castaway Demo Radio/ });
  const href = (await link.getAttribute('href'))!;

  await context.setOffline(true);
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Not yet available offline' })).toBeVisible();
  await expect(page.getByText('Connect once to download your organization')).toBeVisible();
  await expect(page.getByText('Organization not found')).toHaveCount(0);
  await expect(page.getByText('No programs yet.')).toHaveCount(0);

  // A deep link to a program says the same, not 'Program not found'.
  await page.goto(`${href}/programs/00000000-0000-4000-8000-000000000001`);
  await expect(page.getByRole('heading', { level: 1, name: 'Not yet available offline' })).toBeVisible();
  await expect(page.getByText('Program not found')).toHaveCount(0);

  await context.setOffline(false);
  await page.goto(href);
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Programs' }).getByRole('link').first()).toBeVisible();

  // Downloaded once, it opens offline.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Programs' }).getByRole('link').first()).toBeVisible();
});
