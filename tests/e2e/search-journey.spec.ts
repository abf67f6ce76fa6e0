// Issue 32, as a person searching: the program's clip list finds a clip by a word of its
// description (not its title), instantly; Ctrl+K opens Organization search; a search answered by
// the server, then the same search with the network gone answered by this device, with the same
// first page, and each answer says where it came from.
import { expect, test } from '@playwright/test';
import { firstSyncDone } from './local-data.ts';
import { logIn, openOrganizationHome } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** In the demo seed's descriptions ("recorded in front of a studio audience"), never in a title. */
const WORD = 'audience';

test('find a clip by its description in the program list, then search online and offline with the same first page', async ({ page, context }) => {
  // About 25 s against a warm server; a fresh one on a loaded machine takes longer to log in and to
  // download the organization (which the offline half needs whole).
  test.setTimeout(120_000);
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await expect(page.getByRole('tab', { name: 'Clips' })).toHaveAttribute('aria-selected', 'true');

  // The list filter reads descriptions too: rows whose titles do not have the word (any row
  // pulled so far shows it; the download goes on meanwhile).
  const list = page.getByTestId('clip-list');
  await page.getByLabel('Filter clips').fill(WORD);
  await expect(list.getByRole('link').first()).toBeVisible();
  await expect(list.getByRole('link').first()).not.toContainText(WORD);
  expect(new URL(page.url()).searchParams.get('q')).toBe(WORD);

  // Ctrl+K from any screen (outside a field) opens search, its box ready to type.
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('Control+k');
  await expect(page).toHaveURL(new RegExp(`/${organizationId}/search$`));
  const box = page.getByRole('searchbox', { name: 'Search the organization' });
  await expect(box).toBeFocused();

  // Clips, newest first: an order the server and this device agree on.
  await page.getByRole('tab', { name: 'Clips' }).click();
  await page.getByLabel('Sort').selectOption({ label: 'Newest first' });
  await box.fill(`${WORD} interview`);
  const results = page.getByRole('list', { name: 'Clips' }).getByRole('link');
  const source = page.locator('[data-source]');
  await expect(source).toHaveText('Results from the server');
  await expect(results).toHaveCount(20);
  await expect(results.first().locator('mark').first()).toBeVisible();
  const online = await results.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(new URL(page.url()).searchParams.get('q')).toBe(`${WORD} interview`);

  // The network goes (once the service worker holds the app's chunks): the same search is
  // answered by this device, the same first page.
  // The device must hold every clip by then (its first download done) to find the same page.
  await expect.poll(() => firstSyncDone(page), { timeout: 60_000 }).toBe(true);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await context.setOffline(true);
  await expect(source).toHaveText('Results from this device: you are offline', { timeout: 20_000 });
  await expect(results).toHaveCount(20);
  expect(await results.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(online);

  // A result opens its clip, offline too.
  await results.first().click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  await context.setOffline(false);
});
