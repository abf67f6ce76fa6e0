// A playlist reordered by dragging a row's handle: with a mouse on a desktop, and with a finger on a
// phone (390×844, touch events through Chromium's input pipeline, which the browser turns into
// pointer events of type 'touch'). The row follows the pointer while dragged; the new order is the
// one shown after a reload and the one the server's API returns.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { allChangesSaved, apiGet, logIn, organizationIdOf, syncStatus } from './support.ts';

async function openPlaylist(page: Page, program: string): Promise<{ organizationId: string; playlistId: string }> {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  const organizationId = organizationIdOf(page);
  await page.goto(`/${organizationId}/programs`);
  await page.getByRole('link', { name: new RegExp(program) }).click();
  await page.getByRole('tab', { name: 'Playlists' }).click();
  await page.getByRole('tabpanel').getByRole('link', { name: new RegExp(`${program} highlights`) }).click();
  await expect(page.getByRole('region', { name: 'Clips in this playlist' })).toBeVisible();
  // The rows come from the local store a moment after the region: read nothing before the first.
  await expect(page.locator('.reorder-title').first()).toBeVisible({ timeout: 30_000 });
  // Until the first sync has brought the playlist's clips, a handle is named by the clip id.
  await expect(page.getByRole('button', { name: /^Move [0-9a-f]{8}-/ })).toHaveCount(0, { timeout: 30_000 });
  const playlistId = new URL(page.url()).pathname.split('/')[5]!;
  return { organizationId, playlistId };
}

/** The clip ids in the order the screen shows them. */
async function shownOrder(page: Page): Promise<string[]> {
  const hrefs = await page.locator('.reorder-title').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((h) => h.split('/').pop()!);
}

function handle(page: Page, index: number): Locator {
  return page.getByRole('button', { name: /^Move / }).nth(index);
}

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function expectSaved(page: Page, ids: { organizationId: string; playlistId: string }, order: string[]) {
  // The status may still read 'All changes saved' from before the drop's write reached it: the
  // server's order is what tells that the move went out.
  await expect
    .poll(async () => (await apiGet<{ Items: Array<{ Id: string }> }>(page, `/v1/playlists/${ids.playlistId}/clips?pageSize=100`, ids.organizationId)).Items.map((c) => c.Id), { timeout: 15_000 })
    .toEqual(order);
  await expect(await syncStatus(page)).toHaveText('All changes saved');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Clips in this playlist' })).toBeVisible();
  await expect.poll(() => shownOrder(page)).toEqual(order);
}

test('desktop: dragging the first clip by its handle with the mouse drops it third', async ({ page }) => {
  const ids = await openPlaylist(page, 'Soundcheck');
  const before = await shownOrder(page);
  expect(before.length).toBeGreaterThanOrEqual(3);
  const title = (await page.locator('.reorder-title').first().textContent())!;
  const start = await centre(handle(page, 0));
  const target = await centre(page.locator('.reorder-item').nth(2));
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x, target.y + 5, { steps: 8 });
  // The row is under the pointer while it is dragged.
  const dragged = page.locator('.reorder-item.dragging');
  await expect(dragged).toHaveCount(1);
  expect(Math.abs((await centre(dragged)).y - (target.y + 5))).toBeLessThan(4);
  await page.mouse.up();

  const expected = [before[1]!, before[2]!, before[0]!, ...before.slice(3)];
  await expect.poll(() => shownOrder(page)).toEqual(expected);
  await expect(page.getByRole('status').filter({ hasText: `${title} moved to position 3 of ${before.length}` })).toBeAttached();
  await expectSaved(page, ids, expected);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a finger drags the third clip by its handle to the top', async ({ page }) => {
    const ids = await openPlaylist(page, 'Screen Time');
    const before = await shownOrder(page);
    expect(before.length).toBeGreaterThanOrEqual(3);
    // The first three rows in the middle of the screen, clear of the sticky header: where the list
    // starts on the page depends on the texts above it (the touch hint is shorter than the keys').
    await page.locator('.reorder-item').nth(1).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const start = await centre(handle(page, 2));
    const target = await centre(page.locator('.reorder-item').nth(0));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: start.x, y: start.y }] });
    const steps = 10;
    const endY = target.y - 10;
    for (let i = 1; i <= steps; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: start.x, y: start.y + ((endY - start.y) * i) / steps }] });
    }
    // The finger moved the row, not the page.
    const dragged = page.locator('.reorder-item.dragging');
    await expect(dragged).toHaveCount(1);
    // It follows the finger on the next frame (a loaded machine may paint it later): waited for, not read at once.
    await expect.poll(async () => Math.abs((await centre(dragged)).y - endY), { timeout: 5_000 }).toBeLessThan(4);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });

    const expected = [before[2]!, before[0]!, before[1]!, ...before.slice(3)];
    await expect.poll(() => shownOrder(page)).toEqual(expected);
    await expectSaved(page, ids, expected);
  });
});

test('a clip deleted after it was added leaves the playlist, and the rest still reorder (the order sent names live clips only)', async ({ page }) => {
  const ids = await openPlaylist(page, 'Business Hour');
  const before = await shownOrder(page);
  expect(before.length).toBeGreaterThanOrEqual(3);
  const playlistUrl = page.url();
  await page.locator('.reorder-title').nth(1).click();
  await page.getByRole('button', { name: 'Delete clip' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete this clip?' });
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await allChangesSaved(page);

  // The program's playlist card counts the clips left.
  await page.goto(`${playlistUrl.replace(/\/playlists\/[^/]+$/, '')}?tab=playlists`);
  await expect(page.getByRole('tabpanel').getByRole('link', { name: /Business Hour highlights/ })).toContainText(`${before.length - 1} clips`);

  await page.goto(playlistUrl);
  const left = [before[0]!, ...before.slice(2)];
  await expect.poll(() => shownOrder(page)).toEqual(left);
  await expect(page.getByRole('button', { name: /^Move [0-9a-f]{8}-/ })).toHaveCount(0);

  await handle(page, 0).focus();
  await page.keyboard.press('ArrowDown');
  const expected = [left[1]!, left[0]!, ...left.slice(2)];
  await expect.poll(() => shownOrder(page)).toEqual(expected);
  await expectSaved(page, ids, expected);
});
