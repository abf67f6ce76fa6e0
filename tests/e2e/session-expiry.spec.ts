// A session that ends while the studio is open: an edit made offline waits; the session is gone
// when the network comes back, so the sync gets a 401. The studio shows the login screen saying
// the session expired and the change is kept; after logging in again the change reaches the
// server without a reload.
import { expect, test } from '@playwright/test';
import { apiGet, DEMO, openFirstClip, logIn, syncStatus } from './support.ts';

test('an edit made before the session expired is kept through the login screen and reaches the server after logging in again', async ({ page, context }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 6);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });

  await context.setOffline(true);
  const title = page.getByLabel('Title', { exact: true });
  await title.fill('Edited before the session expired');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');

  // The session ends (its cookie is gone), then the network comes back.
  await context.clearCookies();
  await context.setOffline(false);

  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: 'session' })).toHaveText(
    'Your session has expired. 1 unsynced change is kept on this device and will be sent when you log in again.',
  );

  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Edited before the session expired');
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  await expect.poll(async () => (await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId)).Title).toBe('Edited before the session expired');
});
