// A playlist made in the studio, as a producer would: created on the program's Playlists tab, two
// clips added from the program with the picker, one removed again; then, offline, the playlist's
// feed address is shown and copied (it is derived from the playlist's Id) and the playlist is
// renamed; back online the rename and the membership are on the server.
import { expect, test } from '@playwright/test';
import { firstSyncDone } from './local-data.ts';
import { allChangesSaved, apiGet, logIn, openOrganizationHome, syncStatus } from './support.ts';

test('create a playlist, add two clips and remove one, then copy its feed address and rename it offline', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  await page.goto(`/${organizationId}/programs`);
  await page.getByRole('link', { name: /Community Notices/ }).click();
  await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
  await page.getByRole('tab', { name: 'Playlists' }).click();
  await page.getByRole('link', { name: 'New playlist' }).click();

  const title = `Commuter picks ${Date.now().toString(36)}`;
  await page.getByLabel('Title').fill(title);
  // The slug follows the title until it is edited.
  await expect(page.getByLabel('Slug')).toHaveValue(/^commuter-picks-[a-z0-9]+$/);
  await page.getByRole('radio', { name: /Public/ }).check();
  await page.getByRole('button', { name: 'Create playlist' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const playlistId = new URL(page.url()).pathname.split('/')[5]!;

  await page.getByRole('button', { name: 'Add clips' }).click();
  const picker = page.getByRole('dialog', { name: `Add clips to “${title}”` });
  const boxes = picker.getByRole('checkbox');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await expect(picker).toContainText('Selected: 2');
  await picker.getByRole('button', { name: 'Add selected' }).click();
  const rows = page.locator('.reorder-item');
  await expect(rows).toHaveCount(2);
  const kept = (await rows.nth(1).locator('.reorder-title').textContent())!;
  await rows.nth(0).getByRole('button', { name: /^Remove / }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(kept);
  await allChangesSaved(page);

  await context.setOffline(true);
  // The Feed card's own address and button (the Directories section has its own, 'Feed address to submit').
  const feedCard = page.getByRole('region', { name: 'Feed', exact: true });
  const feed = feedCard.getByRole('textbox', { name: 'Feed address', exact: true });
  await expect(feed).toHaveValue(`${new URL(baseURL!).origin}/feeds/${playlistId}.xml`);
  await feedCard.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByText('Feed address copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(baseURL!).origin}/feeds/${playlistId}.xml`);

  const details = page.getByRole('form', { name: 'Details' });
  await details.getByLabel('Title').fill(`${title} (renamed)`);
  await details.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${title} (renamed)` })).toBeVisible();
  await expect(await syncStatus(page)).toContainText('waiting to sync');

  await context.setOffline(false);
  await allChangesSaved(page);
  const saved = await apiGet<{ Title: string; Visibility: string; ClipIds: string[] }>(page, `/v1/playlists/${playlistId}`, organizationId);
  expect(saved.Title).toBe(`${title} (renamed)`);
  expect(saved.Visibility).toBe('Public');
  expect(saved.ClipIds).toHaveLength(1);
});
