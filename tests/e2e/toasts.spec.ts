// Toast timing of section 4 under Playwright's fake clock: 5000 ms by default, paused on hover
// and on focus, F8 focuses, Escape closes, a swipe of 50px or more dismisses, 'Close' closes.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { clipField, logIn, openFirstClip, sendRefusedEnquiry } from './support.ts';

let n = 0;
async function raiseToast(page: Page) {
  await clipField(page, 'Title').fill(`Toast trigger ${++n}`);
  await page.getByRole('button', { name: 'Apply' }).click();
  const toast = page.locator('.toast').filter({ hasText: 'Changes saved' });
  await expect(toast).toHaveCount(1);
  return toast;
}

// One signed-in page for the file, its tests in order: each test's own sign-in and first sync
// (about 10 s each on a loaded machine) cost more than the toasts they check. Every test but the
// last leaves no toast behind.
test.describe.configure({ mode: 'serial' });
let page: Page;
test.beforeAll(async ({ browser }: { browser: Browser }) => {
  page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL!, viewport: { width: 1280, height: 800 } })).newPage();
  await page.clock.install();
  await logIn(page);
  await openFirstClip(page, 2);
});
test.afterAll(async () => {
  await page.context().close();
});

/** Stops the page's clock just ahead of its time. On a loaded machine more than the lead can pass
 *  between reading the time and pausing ('Cannot fast-forward to the past'): read it again. */
async function pause(page: Page) {
  for (let attempt = 1; ; attempt++) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 250 * attempt);
      return;
    } catch (err) {
      if (attempt >= 5 || !String(err).includes('past')) throw err;
    }
  }
}

test('a toast closes after 5000 ms, not before', async () => {
  await pause(page);
  const toast = await raiseToast(page);
  await page.clock.runFor(4900);
  await expect(toast).toBeVisible();
  await page.clock.runFor(200);
  await expect(toast).toHaveCount(0);
});

test('hovering pauses the timer and leaving resumes it', async () => {
  await pause(page);
  const toast = await raiseToast(page);
  await page.clock.runFor(1000);
  await toast.hover();
  await page.clock.runFor(20_000);
  await expect(toast).toBeVisible();
  await page.mouse.move(5, 400);
  await page.clock.runFor(3900);
  await expect(toast).toBeVisible();
  await page.clock.runFor(200);
  await expect(toast).toHaveCount(0);
});

test('F8 focuses the toast (pausing it) and Escape closes it', async () => {
  await pause(page);
  const toast = await raiseToast(page);
  await page.keyboard.press('F8');
  await expect(toast).toBeFocused();
  await page.clock.runFor(20_000);
  await expect(toast).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(toast).toHaveCount(0);
});

test('a swipe of 50px dismisses, a shorter one does not; Close closes', async () => {
  await pause(page);
  const toast = await raiseToast(page);
  const box = (await toast.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 40, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 70, y, { steps: 4 });
  await page.mouse.up();
  await expect(toast).toBeVisible();
  await page.mouse.move(box.x + 40, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 95, y, { steps: 4 });
  await page.mouse.up();
  await expect(toast).toHaveCount(0);

  const again = await raiseToast(page);
  await again.getByRole('button', { name: 'Close' }).click();
  await expect(again).toHaveCount(0);
});

test('each toast type carries its own icon', async () => {
  // The tests before left the page's clock paused; this one runs on real time.
  await page.clock.resume();
  // Success: Apply on the clip.
  const success = await raiseToast(page);
  const successIcon = success.getByRole('img', { name: 'Success' });
  await expect(successIcon).toBeVisible();
  // Read while it shows: a toast lives 5 s, and the steps below can outlast it on a loaded machine.
  const successShape = await successIcon.locator('path').getAttribute('d');

  // Error: a contact enquiry the server refuses.
  await sendRefusedEnquiry(page);
  const danger = page.locator('.toast').filter({ hasText: 'Could not send your enquiry' });
  const dangerIcon = danger.getByRole('img', { name: 'Error' });
  await expect(dangerIcon).toBeVisible();
  await expect(danger.getByRole('img', { name: 'Success' })).toHaveCount(0);

  // Not the same drawing in another colour: a different shape.
  const dangerShape = await dangerIcon.locator('path').getAttribute('d');
  expect(successShape).toEqual(expect.any(String));
  expect(dangerShape).not.toBe(successShape);
  // Information and Warning have no action that raises them in these screens: Toaster.test.tsx
  // draws all four types.
});
