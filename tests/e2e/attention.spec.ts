// A change the server refuses (issue 4's "needs attention", issue 5's list). A slug another clip
// of the program already uses is caught on the device when that clip is synced there; one taken on
// another device while this one was offline is refused by the server: the clip screen says so
// where the change was made, with the reason at the field and a way to correct it; the badge and
// the sync details say so too, and Discard puts the server's value back. Works in the demo
// organization's third program (the first program's clips are shared by position with other specs).
import { expect, test, type Page } from '@playwright/test';
import { apiGet, applyAndSync, clipField, logIn, organizationIdOf, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const SLUG_IN_USE = 'This slug is already in use in this program';

/** The third program's list: its URL and the paths of its first three clips (by path, not by
 * position: an edit can move a clip in the list). */
async function openThirdProgram(page: Page): Promise<{ programUrl: string; clips: string[] }> {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').nth(2).click();
  const links = page.getByTestId('clip-list').getByRole('link');
  await expect(links.nth(2)).toBeVisible();
  const clips = await Promise.all([0, 1, 2].map(async (i) => (await links.nth(i).getAttribute('href'))!));
  return { programUrl: page.url(), clips };
}

/** Gives the clip at `path` the slug through the API, as another device would. */
async function slugElsewhere(page: Page, path: string, slug: string): Promise<void> {
  const xsrf = (await (await page.request.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string };
  const res = await page.request.patch(`/api/v1/clips/${path.split('/').at(-1)!}`, {
    headers: { 'x-organization-id': organizationIdOf(page), 'x-xsrf-token': xsrf.XsrfToken },
    data: { Slug: slug },
  });
  expect(res.status()).toBe(200);
}

test('a slug another clip of the program uses on this device is refused at the Slug field, before anything is queued', async ({ page }) => {
  const { clips } = await openThirdProgram(page);
  const slug = `local-slug-${Date.now()}`;
  await page.goto(clips[0]!);
  await page.getByLabel('Slug').fill(slug);
  await applyAndSync(page);

  await page.goto(clips[1]!);
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(SLUG_IN_USE)).toBeVisible();
  await expect(page.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Slug')).toHaveValue(slug); // the user's value stays to be corrected
  await expect(await syncStatus(page)).toHaveText('All changes saved'); // nothing queued
});

test('a slug taken on another device while offline is refused by the server: the clip screen says why, and Edit again restores the values with the reason at the field', async ({ page, context }) => {
  const { clips } = await openThirdProgram(page);
  const organizationId = organizationIdOf(page);
  const slug = `taken-slug-${Date.now()}`;
  const title = `Title sent with a taken slug ${Date.now()}`;

  await page.goto(clips[1]!);
  const clipId = new URL(page.url()).pathname.split('/').at(-1)!;
  const saved = await apiGet<{ Slug: string | null; Title: string | null }>(page, `/v1/clips/${clipId}`, organizationId);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await context.setOffline(true);
  await clipField(page, 'Title').fill(title);
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');
  // Meanwhile another device gives the program's first clip that slug (the API request does not
  // go through the offline page).
  await slugElsewhere(page, clips[0]!, slug);

  await context.setOffline(false);
  await expect(await syncStatus(page)).toHaveText('Needs your decision', { timeout: 20_000 });
  const alert = page.getByRole('alert').filter({ hasText: 'Your last change to this clip was not saved on the server.' });
  await expect(alert).toContainText('The server did not accept these values:');
  await expect(alert).toContainText(`Slug: ${SLUG_IN_USE}`);
  // The refused change is undone on the device: the form shows the server's values again, and
  // the Slug field itself says why, with the slug that was tried.
  await expect(page.getByLabel('Slug')).toHaveValue(saved.Slug ?? '');
  await expect(page.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(`Not saved: you entered “${slug}”`)).toBeVisible();

  await alert.getByRole('button', { name: 'Edit again' }).click();
  await expect(clipField(page, 'Title')).toHaveValue(title);
  await expect(page.getByLabel('Slug')).toHaveValue(slug);
  await expect(page.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(SLUG_IN_USE)).toBeVisible();
  await expect(alert).toHaveCount(0);
  await expect(await syncStatus(page)).toHaveText('All changes saved');

  // Corrected here, the title goes through with a free slug.
  await page.getByLabel('Slug').fill(`${slug}-2`);
  await applyAndSync(page);
  await expect.poll(async () => (await apiGet<{ Title: string | null; Slug: string | null }>(page, `/v1/clips/${clipId}`, organizationId)).Slug, { timeout: 20_000 }).toBe(`${slug}-2`);
  expect((await apiGet<{ Title: string | null }>(page, `/v1/clips/${clipId}`, organizationId)).Title).toBe(title);
});

test('a refused change is named in the sync details with the API’s reason, and Discard there restores the saved slug', async ({ page, context }) => {
  const { programUrl, clips } = await openThirdProgram(page);
  const organizationId = organizationIdOf(page);
  const slug = `discarded-slug-${Date.now()}`;

  await page.goto(clips[2]!);
  const clipId = new URL(page.url()).pathname.split('/').at(-1)!;
  await expect(page.getByLabel('Slug')).toBeVisible();
  const title = (await page.getByRole('heading', { level: 1 }).textContent())!;
  const saved = await apiGet<{ Slug: string | null }>(page, `/v1/clips/${clipId}`, organizationId);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await context.setOffline(true);
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Apply' }).click();
  await slugElsewhere(page, clips[0]!, slug);
  await context.setOffline(false);

  await expect(await syncStatus(page)).toHaveText('Needs your decision', { timeout: 20_000 });
  await page.getByRole('link', { name: '1 needs attention' }).click();
  const item = page.getByRole('listitem').filter({ hasText: `Changes to clip “${title}”` });
  await expect(item).toContainText('The server did not accept these values:');
  await expect(item).toContainText(`Slug: ${SLUG_IN_USE}`);
  await item.getByRole('button', { name: 'Discard this change' }).click();
  await expect(page.getByText('Nothing needs attention.')).toBeVisible();
  await expect(await syncStatus(page)).toHaveText('All changes saved');

  await page.goto(`${programUrl}/clips/${clipId}`);
  await expect(page.getByLabel('Slug')).toHaveValue(saved.Slug ?? '');
});
