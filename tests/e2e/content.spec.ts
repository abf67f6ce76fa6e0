// Playlist reordering (keyboard), recording edits with annotations, and a conflict made from a
// second browser context resolved on the conflict screen.
import { expect, test } from '@playwright/test';
import { allChangesSaved, apiGet, applyAndSync, clipField, DEMO, logIn, openFirstClip, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test('a playlist is reordered by keyboard and the order reaches the server', async ({ page }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await page.getByRole('tab', { name: 'Playlists' }).click();
  await page.getByRole('tabpanel').getByRole('link').filter({ hasNotText: 'New playlist' }).first().click();
  const handles = page.getByRole('button', { name: /^Move / });
  await expect(handles.nth(1)).toBeVisible();
  // Until the first sync has brought the playlist's clips, a handle is named by the clip id.
  await expect(handles.first()).not.toHaveAttribute('aria-label', /^Move [0-9a-f]{8}-/, { timeout: 30_000 });
  await expect(handles.nth(1)).not.toHaveAttribute('aria-label', /^Move [0-9a-f]{8}-/, { timeout: 30_000 });
  const first = (await handles.nth(0).getAttribute('aria-label'))!.replace('Move ', '');
  const second = (await handles.nth(1).getAttribute('aria-label'))!.replace('Move ', '');
  await handles.nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('status').filter({ hasText: `${first} moved to position 2` })).toBeAttached();
  await expect(handles.nth(0)).toHaveAttribute('aria-label', `Move ${second}`);
  await expect(handles.nth(1)).toBeFocused();
  await allChangesSaved(page);
  const [, org, , , , playlistId] = new URL(page.url()).pathname.split('/');
  const playlist = await apiGet<{ ClipIds: string[] }>(page, `/v1/playlists/${playlistId}`, org!);
  const firstId = (await page.locator('.reorder-title').nth(1).getAttribute('href'))!.split('/').pop();
  expect(playlist.ClipIds[1]).toBe(firstId);
});

test('a recording: edit the title and reviewed flag, add and delete an annotation', async ({ page }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await page.getByRole('tab', { name: 'Recordings' }).click();
  await page.getByRole('tabpanel').getByRole('link').first().click();
  const title = `Morning take ${Date.now()}`;
  const reviewed = page.getByLabel('Reviewed');
  const wasReviewed = await reviewed.isChecked();
  await page.getByLabel('Title', { exact: true }).fill(title);
  await reviewed.setChecked(!wasReviewed);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(reviewed).toBeChecked({ checked: !wasReviewed });

  // The time field takes HH:MM:SS within the recording (this one is a finalized 12-second demo).
  const annotations = page.getByRole('region', { name: 'Annotations' });
  await page.getByLabel('Time in the recording (HH:MM:SS)').fill('0:05');
  await page.getByRole('button', { name: 'Add annotation' }).click();
  await expect(annotations).toContainText('Enter a time as HH:MM:SS');
  await page.getByLabel('Time in the recording (HH:MM:SS)').fill('01:00:00');
  await page.getByLabel('Annotation', { exact: true }).fill('Sponsor read at the break');
  await page.getByRole('button', { name: 'Add annotation' }).click();
  await expect(annotations).toContainText(/The recording ends at 00:00:\d\d: enter a time up to then/);
  await page.getByLabel('Time in the recording (HH:MM:SS)').fill('00:00:05');
  await page.getByRole('button', { name: 'Add annotation' }).click();
  await expect(annotations).toContainText('Sponsor read at the break');
  // Listed in the same form the field takes.
  await expect(annotations.getByRole('listitem').filter({ hasText: 'Sponsor read at the break' })).toContainText('00:00:05');
  await page.getByRole('button', { name: 'Delete annotation at 00:00:05' }).first().click();
  await expect(page.getByRole('region', { name: 'Annotations' }).getByText('Sponsor read at the break')).toHaveCount(0);
  await allChangesSaved(page);
});

test('a conflict made from a second context is resolved on the conflict screen', async ({ page, browser, context }) => {
  await logIn(page);
  const { organizationId, clipId } = await openFirstClip(page, 3);
  const clipUrl = page.url();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  await context.setOffline(true);
  await clipField(page, 'Title').fill('Mine, written offline');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');

  const other = await browser.newContext();
  const theirs = await other.newPage();
  await logIn(theirs, DEMO.email, DEMO.password);
  await theirs.goto(clipUrl);
  await clipField(theirs, 'Title').fill('Theirs, written online');
  await applyAndSync(theirs);
  expect((await apiGet<{ Title: string }>(theirs, `/v1/clips/${clipId}`, organizationId)).Title).toBe('Theirs, written online');
  await other.close();

  await context.setOffline(false);
  // The clip itself says it is in conflict, and the badge no longer claims all is saved.
  // The second context is Dana too: her own edit on another device, worded so (issue 36).
  await expect(page.getByRole('alert').filter({ hasText: 'You changed this clip on another device while editing it here.' })).toBeVisible({ timeout: 20_000 });
  await expect(await syncStatus(page)).toHaveText('Needs your decision');
  await page.getByRole('link', { name: '1 conflict' }).click();
  await expect(page.getByText('Conflict 1 of 1')).toBeVisible();
  const row = page.getByRole('row', { name: /Title/ });
  await expect(row).toContainText('Mine, written offline');
  await expect(row).toContainText('Theirs, written online');
  await expect(page.getByText(/Changed by you on another device/)).toBeVisible();
  await page.getByRole('button', { name: 'Keep mine' }).click();
  await expect(page.getByText('There are no conflicts. All your edits are merged.')).toBeVisible();
  await expect(await syncStatus(page)).toHaveText('All changes saved');
  const clip = await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId);
  expect(clip.Title).toBe('Mine, written offline');
});
