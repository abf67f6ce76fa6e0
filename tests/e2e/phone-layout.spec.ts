// On a phone (390×844), what a UI review found covered or cut off: the 'Changes saved' toast over
// the clip's Apply button (and then, dropped from the top, over the navigation bar), and the header's sync status with a conflict and a refused change
// ('Needs your decis…', counts broken over two lines), and the offline status in French ('Hors
// ligne · 1 modification en attente de synch…'). Clip 4 of the first program is this spec's;
// the offline test's edit of clip 7 never leaves the device (audio-select uploads to that clip).
import { expect, test, type Page } from '@playwright/test';
import { firstSyncDone, writeStores } from './local-data.ts';
import { logIn, openFirstClip, syncStatus } from './support.ts';

test.use({ viewport: { width: 390, height: 844 } });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('the "Changes saved" toast leaves the Apply button uncovered', async ({ page }) => {
  await logIn(page);
  await openFirstClip(page, 4);
  await page.getByLabel('Title', { exact: true }).fill(`Saved on a phone ${Date.now()}`);
  const apply = page.getByRole('button', { name: 'Apply' });
  await apply.click();
  const toast = page.locator('.toast').filter({ hasText: 'Changes saved' });
  await expect(toast).toBeVisible();
  const applyBox = (await apply.boundingBox())!;
  const toastBox = (await toast.boundingBox())!;
  expect(overlaps(toastBox, applyBox)).toBe(false);
  // Nor the navigation bar: its sync status says what became of the change, its menus stay at hand.
  const barBox = (await page.locator('header.navbar').boundingBox())!;
  expect(overlaps(toastBox, barBox)).toBe(false);
  expect(toastBox.y).toBeLessThan(barBox.y + barBox.height + 24);
  // What a finger on Apply's centre touches is Apply, not the toast.
  const touched = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? null,
    [applyBox.x + applyBox.width / 2, applyBox.y + applyBox.height / 2],
  );
  expect(touched).toBe('Apply');
  // A menu opened while the toast shows comes above it: where both are, a finger touches the menu.
  await page.getByRole('button', { name: 'Organization' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem').first()).toBeVisible();
  await expect(toast).toBeVisible();
  const shown = (await toast.boundingBox())!;
  const menuBox = (await menu.boundingBox())!;
  const point = { x: shown.x + shown.width / 2, y: shown.y + shown.height / 2 };
  expect(point.x > menuBox.x && point.x < menuBox.x + menuBox.width && point.y > menuBox.y && point.y < menuBox.y + menuBox.height, 'the menu opens over the toast').toBe(true);
  expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[role="menu"]') !== null, point)).toBe(true);
});

/** One conflict and one refused change in the device's store, as the sync worker records them. */
function addConflictAndAttention(page: Page) {
  const mutation = { id: 'phone-layout-m1', entity: 'clips', entityId: 'phone-layout-clip', method: 'PATCH', path: '/v1/clips/phone-layout-clip', body: { Title: 'x' } };
  return writeStores(page, 'castaway', {
    conflicts: { put: [{ id: 'phone-layout-c1', entity: 'clips', entityId: 'phone-layout-clip', mutation, fields: [], serverRow: {}, createdAt: Date.now() }] },
    needsAttention: { put: [{ id: 'phone-layout-a1', entity: 'clips', entityId: 'phone-layout-clip', mutation, httpStatus: 400, errors: [], createdAt: Date.now() }] },
  });
}

test('with a conflict and a refused change the phone header shows the whole status and each count on one line, in English and German', async ({ page, context }) => {
  await logIn(page);
  await page.getByRole('list').getByRole('link').first().click();
  await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
  await addConflictAndAttention(page);
  const cases = [
    { locale: 'en-US', status: 'Needs your decision', counts: ['1 conflict', '1 needs attention'] },
    { locale: 'de-DE', status: 'Ihre Entscheidung ist nötig', counts: ['1 Konflikt', '1 erfordert Aufmerksamkeit'] },
  ];
  for (const { locale, status, counts } of cases) {
    await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: locale, url: test.info().project.use.baseURL! }]);
    await page.reload();
    // The navigation's name is in the page's language: the badge is found by its class.
    const badge = page.locator('.sync-badge');
    const text = badge.getByRole('status');
    await expect(text).toHaveText(status);
    // Not cut off with an ellipsis: the status has the width its words need.
    expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth), `${locale}: status cut off`).toBe(true);
    for (const count of counts) {
      const link = badge.getByRole('link', { name: count });
      await expect(link).toBeVisible();
      const box = (await link.boundingBox())!;
      const fontSize = await link.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(box.height, `${locale}: '${count}' on one line`).toBeLessThan(2 * fontSize);
      expect(box.x + box.width, `${locale}: '${count}' inside the screen`).toBeLessThanOrEqual(390);
    }
  }
});

test('offline with an edit waiting, the phone header shows the whole status, in French and German', async ({ page, context }) => {
  await logIn(page);
  const { organizationId, programId, clipId } = await openFirstClip(page, 7);
  // The offline reloads below start from the service worker's cache.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await context.setOffline(true);
  await page.getByLabel('Title', { exact: true }).fill(`Edited in a tunnel ${Date.now()}`);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
  const cases = [
    { locale: 'fr-FR', status: 'Hors ligne · 1 modification en attente de synchronisation', lines: 2 },
    { locale: 'de-DE', status: 'Offline · 1 Änderung wartet auf Synchronisierung', lines: 1 },
  ];
  for (const { locale, status, lines } of cases) {
    await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: locale, url: test.info().project.use.baseURL! }]);
    await page.goto(`/${organizationId}/programs/${programId}/clips/${clipId}`);
    const text = page.locator('.sync-badge').getByRole('status');
    await expect(text).toHaveText(status);
    // Every word shown: the status wraps under the bar's first line instead of ending in '…'.
    expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth), `${locale}: status cut off`).toBe(true);
    const box = (await text.boundingBox())!;
    expect(box.x + box.width, `${locale}: status inside the screen`).toBeLessThanOrEqual(390);
    // On two lines when one cannot hold it (French), else on one; and the bar's height that toasts
    // and panels go by (--navbar-height) is the bar's as it grew.
    const lineHeight = await text.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(Math.round(box.height / lineHeight), `${locale}: lines of the status`).toBe(lines);
    const bar = page.locator('header.navbar');
    await expect
      .poll(() => bar.evaluate((el) => Math.abs(parseFloat(document.documentElement.style.getPropertyValue('--navbar-height')) - el.getBoundingClientRect().height)))
      .toBeLessThan(0.5);
  }
});
