// On a tablet (761–1000 px wide) the navigation bar wraps: the sync status takes a line of its own,
// and in German, or with counts beside it, more. The clip's status panel, which stays in view as
// the details scroll, must stop just under the bar however tall the bar is, not under a guess of it.
import { expect, test } from '@playwright/test';
import { logIn, openFirstClip } from './support.ts';

test.use({ viewport: { width: 800, height: 700 } });

test('the clip status panel sticks 1rem under the wrapped navigation bar, in English and German', async ({ page, context }) => {
  await logIn(page);
  const { organizationId, programId, clipId } = await openFirstClip(page, 7); // read only: shared with other specs
  for (const locale of ['en-US', 'de-DE']) {
    await context.addCookies([{ name: 'PARAGLIDE_LOCALE', value: locale, url: test.info().project.use.baseURL! }]);
    await page.goto(`/${organizationId}/programs/${programId}/clips/${clipId}`);
    const panel = page.locator('aside.status-panel');
    await expect(panel).toBeVisible();
    const bar = page.locator('header.navbar');
    const barBox = (await bar.boundingBox())!;
    // Taller than one line: the status wrapped onto its own.
    expect(barBox.height, `${locale}: bar height`).toBeGreaterThan(60);
    // Scrolled past the panel's place: it is held by its sticky top.
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    // Polled: the bar's height is measured once it has laid out (a ResizeObserver).
    const gap = () => page.evaluate(() => document.querySelector('aside.status-panel')!.getBoundingClientRect().top - document.querySelector('header.navbar')!.getBoundingClientRect().bottom);
    await expect.poll(async () => Math.abs((await gap()) - 16), { message: `${locale}: gap between the bar and the panel` }).toBeLessThan(1);
  }
});
