// Coming back to a program's clip list finds the user's place (a phone, where the rows are
// tallest): the same tab, the same filter and the same rows in view, whether they come back with
// the browser's Back or with the clip screen's own Back link. Going to the program afresh starts
// at the top.
import { expect, test, type Page } from '@playwright/test';
import { firstSyncDone } from './local-data.ts';
import { logIn } from './support.ts';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** The filter: the first word of the program's name, which every titled clip of the program has in
 *  its title ('Morning Briefing: Review 12'), so the filtered list is long enough to scroll well down
 *  whatever the demo's size (with 600 clips a topic such as 'Review', one clip in ten, left a phone
 *  screen and a half). Untitled clips drop out. */
function filterFor(program: string): string {
  return program.split(' ')[0]!;
}

async function openDemoProgram(page: Page): Promise<void> {
  await page.getByRole('list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage audio' })).toBeVisible();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');
}

/** Where a row's top is in the window. */
function topInView(page: Page, href: string): Promise<number> {
  return page.getByTestId('clip-list').locator(`a[href="${href}"]`).evaluate((a) => a.getBoundingClientRect().top);
}

/** The links of the clip rows that are wholly in the window, top to bottom. */
function rowsInView(page: Page): Promise<string[]> {
  return page.getByTestId('clip-list').evaluate((list) =>
    [...list.querySelectorAll('a')]
      .filter((a) => {
        const r = a.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      })
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
      .map((a) => a.getAttribute('href') ?? ''),
  );
}

async function expectPlace(page: Page, place: { row: string; top: number; filter: string }): Promise<void> {
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Filter clips')).toHaveValue(place.filter);
  expect(new URL(page.url()).searchParams.get('q')).toBe(place.filter);
  await expect(page.getByTestId('clip-list').locator(`a[href="${place.row}"]`)).toBeInViewport({ ratio: 1 });
  // The row is where it was in the window, not only somewhere in it. (Not scrollY: rows above
  // have their estimated height until rendered, and other specs add clips to this program.)
  await expect.poll(async () => Math.abs((await topInView(page, place.row)) - place.top)).toBeLessThan(8);
}

test('Back, by the browser or by the clip screen, returns to the same filter and rows of the clip list', async ({ page }) => {
  await logIn(page);
  await openDemoProgram(page);
  await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);

  const program = (await page.getByRole('main').getByRole('heading', { level: 1 }).textContent()) ?? '';
  const filter = filterFor(program);
  await page.getByLabel('Filter clips').fill(filter);
  await expect(page.getByTestId('clip-list').getByRole('link').first()).toContainText(filter);
  // The filter outlives a look at another tab.
  await page.getByRole('tab', { name: 'Playlists' }).click();
  await expect(page.getByRole('tab', { name: 'Playlists' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Clips' }).click();
  await expect(page.getByLabel('Filter clips')).toHaveValue(filter);
  // Scroll by the wheel, as a person would, well down the filtered list.
  await page.getByTestId('clip-list').hover();
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 300);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1200);
  // The view holds still: the last wheel events have been handled and the rows rendered.
  let scrollY = -1;
  await expect.poll(async () => scrollY === (scrollY = await page.evaluate(() => window.scrollY))).toBe(true);
  const before = await rowsInView(page);
  expect(before.length).toBeGreaterThan(3);
  const row = before[Math.floor(before.length / 2)]!;
  const place = { row, top: await topInView(page, row), filter };

  // Browser Back.
  await page.getByTestId('clip-list').locator(`a[href="${row}"]`).click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await page.goBack();
  await expectPlace(page, place);

  // The clip screen's Back link: a new entry at the program's bare URL.
  await page.getByTestId('clip-list').locator(`a[href="${row}"]`).click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Back', exact: true }).click();
  await expectPlace(page, place);

  // And the browser's Back twice from there: the clip, then the list's first entry.
  await page.goBack();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await page.goBack();
  await expectPlace(page, place);

  // A reload keeps the entry's place.
  await page.reload();
  await expectPlace(page, place);

  // The clip screen reloaded (the app started afresh there), then its Back link: the place is
  // still found, though this start of the app never showed the list.
  await page.getByTestId('clip-list').locator(`a[href="${row}"]`).click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Back', exact: true }).click();
  await expectPlace(page, place);

  // The program from elsewhere (the list of programs) starts afresh at the top.
  await page.getByRole('main').getByRole('link', { name: 'Programs', exact: true }).click();
  await page.getByRole('main').getByRole('link', { name: program }).click();
  await expect(page.getByRole('heading', { level: 1, name: program })).toBeVisible();
  await expect(page.getByLabel('Filter clips')).toHaveValue('');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});
