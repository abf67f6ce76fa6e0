// On a phone (390×844), what a UI review found covered or cut off: the 'Changes saved' toast over
// the clip's Apply button (and then, dropped from the top, over the navigation bar), and the header's sync status with a conflict and a refused change
// ('Needs your decis…', counts broken over two lines), and the offline status in French ('Hors
// ligne · 1 modification en attente de synch…'). Clip 4 of the first program is this spec's;
// the offline test's edit of clip 7 never leaves the device (audio-select uploads to that clip).
import { expect, test, type Page } from '@playwright/test';
import { firstSyncDone, writeStores } from './local-data.ts';
import { clipField, logIn, openFirstClip, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test.use({ viewport: { width: 390, height: 844 } });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('the "Changes saved" toast leaves the Apply button uncovered', async ({ page }) => {
  await logIn(page);
  await openFirstClip(page, 4);
  await clipField(page, 'Title').fill(`Saved on a phone ${Date.now()}`);
  const apply = page.getByRole('button', { name: 'Apply' });
  await apply.click();
  const toast = page.locator('.toast').filter({ hasText: 'Changes saved' });
  await expect(toast).toBeVisible();
  // A toast lives 5 s (section 4): each look is one round trip taken while it shows, so that a
  // loaded machine's slow steps do not outlast it.
  const look = await page.evaluate(() => {
    const rect = (el: Element | null) => { const r = el!.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    const toastEl = [...document.querySelectorAll('.toast')].find((t) => t.textContent?.includes('Changes saved')) ?? null;
    const applyEl = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Apply') ?? null;
    const apply = rect(applyEl);
    // What a finger on Apply's centre touches.
    const touched = document.elementFromPoint(apply.x + apply.width / 2, apply.y + apply.height / 2)?.closest('button')?.textContent ?? null;
    return { toast: rect(toastEl), apply, bar: rect(document.querySelector('header.navbar')), touched };
  });
  expect(overlaps(look.toast, look.apply)).toBe(false);
  // Nor the navigation bar: its sync status says what became of the change, its menus stay at hand.
  expect(overlaps(look.toast, look.bar)).toBe(false);
  expect(look.toast.y).toBeLessThan(look.bar.y + look.bar.height + 24);
  expect(look.touched).toBe('Apply');
  // A menu opened while a toast shows comes above it: where both are, a finger touches the menu.
  // A fresh toast for it, the menu opened at once.
  await clipField(page, 'Title').fill(`Saved on a phone again ${Date.now()}`);
  await apply.click();
  await expect(toast.last()).toBeVisible();
  await page.getByRole('button', { name: 'Organization' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem').first()).toBeVisible();
  const over = await page.evaluate(() => {
    const toastEl = [...document.querySelectorAll('.toast')].reverse().find((t) => t.textContent?.includes('Changes saved'));
    const menuEl = document.querySelector('[role="menu"]');
    if (!toastEl || !menuEl) return { toastShown: Boolean(toastEl), inMenuBox: false, menuOnTop: false };
    const t = toastEl.getBoundingClientRect();
    const m = menuEl.getBoundingClientRect();
    const x = t.x + t.width / 2;
    const y = t.y + t.height / 2;
    return { toastShown: true, inMenuBox: x > m.x && x < m.x + m.width && y > m.y && y < m.y + m.height, menuOnTop: document.elementFromPoint(x, y)?.closest('[role="menu"]') !== null };
  });
  expect(over.toastShown, 'the toast still shows when the menu has opened').toBe(true);
  expect(over.inMenuBox, 'the menu opens over the toast').toBe(true);
  expect(over.menuOnTop).toBe(true);
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
  await clipField(page, 'Title').fill(`Edited in a tunnel ${Date.now()}`);
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
    // The layout as it settles: right after a reload the bar may still be laying out the rest of
    // its items (the counts, the menu), so each measure is polled, not read once.
    // Every word shown: the status wraps under the bar's first line instead of ending in '…'.
    await expect.poll(() => text.evaluate((el) => el.scrollWidth <= el.clientWidth), { message: `${locale}: status cut off` }).toBe(true);
    await expect.poll(async () => { const box = (await text.boundingBox())!; return box.x + box.width; }, { message: `${locale}: status inside the screen` }).toBeLessThanOrEqual(390);
    // On two lines when one cannot hold it (French), else on one; and the bar's height that toasts
    // and panels go by (--navbar-height) is the bar's as it grew.
    await expect
      .poll(() => text.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))), { message: `${locale}: lines of the status` })
      .toBe(lines);
    const bar = page.locator('header.navbar');
    await expect
      .poll(() => bar.evaluate((el) => Math.abs(parseFloat(document.documentElement.style.getPropertyValue('--navbar-height')) - el.getBoundingClientRect().height)))
      .toBeLessThan(0.5);
  }
});
