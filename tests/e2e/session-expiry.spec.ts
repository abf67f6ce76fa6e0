// A session that ends while the studio is open: an edit made offline waits; the session is gone
// when the network comes back, so the sync gets a 401. The studio shows the login screen saying
// the session expired and the change is kept; after logging in again the change reaches the
// server without a reload.
import { expect, request, test, type BrowserContext, type Page } from '@playwright/test';
import { apiGet, clipField, DEMO, logIn, openFirstClip, syncStatus } from './support.ts';
import { indexedDbCounts } from './local-data.ts';

/** Dana (the demo user) edits a clip's Title offline; her session ends; the network comes back. */
async function editThenSessionEnds(page: Page, context: BrowserContext, clipIndex: number, newTitle: string) {
  await logIn(page);
  const ids = await openFirstClip(page, clipIndex);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  const before = await clipField(page, 'Title').inputValue();
  await context.setOffline(true);
  await clipField(page, 'Title').fill(newTitle);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
  // The session ends (its cookie is gone), then the network comes back.
  await context.clearCookies();
  await context.setOffline(false);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible({ timeout: 20_000 });
  return { ...ids, before };
}

async function logInOnScreen(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('an edit made before the session expired is kept through the login screen and reaches the server after logging in again', async ({ page, context }) => {
  const { organizationId, clipId } = await editThenSessionEnds(page, context, 6, 'Edited before the session expired');
  await expect(page.getByRole('status').filter({ hasText: 'session' })).toHaveText(
    'Your session has expired. 1 unsynced change is kept on this device and will be sent when you log in again.',
  );

  await logInOnScreen(page, DEMO.email);
  await expect(clipField(page, 'Title')).toHaveValue('Edited before the session expired');
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  await expect.poll(async () => (await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId)).Title).toBe('Edited before the session expired');
});

test('another user who logs in next is told of the first user’s unsynced change, which is not sent with their account, and can discard it', async ({ page, context, baseURL }) => {
  const { organizationId, clipId, before } = await editThenSessionEnds(page, context, 7, 'Dana’s unsent title');
  await logInOnScreen(page, 'producer@example.com');

  await expect(page.getByRole('heading', { name: 'Another user’s changes are on this device' })).toBeVisible();
  await expect(page.getByText('Dana Demo (demo@example.com) has 1 change on this device')).toHaveText(
    'Dana Demo (demo@example.com) has 1 change on this device that has not reached the server. It is not sent with your account, and their data is not shown to you.',
  );
  await expect(page.getByRole('button', { name: 'Log in as Dana Demo' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Details' })).toHaveCount(0);
  // The badge says what holds the sync now, not Dana's expired session or her waiting change.
  await expect(await syncStatus(page)).toHaveText('Paused: another user’s data is on this device');

  await page.getByRole('button', { name: 'Discard their change' }).click();
  await expect(page.getByRole('heading', { name: 'Another user’s changes are on this device' })).toHaveCount(0);
  await expect.poll(async () => (await indexedDbCounts(page, 'castaway'))['outbox']).toBe(0);

  // Dana's change never reached the server.
  const dana = await request.newContext({ baseURL: baseURL! });
  expect((await dana.post('/api/internal/session/login', { data: { Email: DEMO.email, Password: DEMO.password } })).status()).toBe(200);
  const clip = await dana.get(`/api/v1/clips/${clipId}`, { headers: { 'x-organization-id': organizationId } });
  // An untitled clip's Title is null on the server and an empty field on screen.
  expect(((await clip.json()) as { Title: string | null }).Title ?? '').toBe(before);
  await dana.dispose();
});
