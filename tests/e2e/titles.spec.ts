// The app a person installs (issue 36): every route names its tab after the page, its own name
// first ("Morning Briefing · Programs · Castaway Studio"), so tabs, history and the window list
// tell the pages apart; '?' lists the keyboard shortcuts; keyboard hints show only where a
// keyboard is used. The routes are visited in one page by in-app navigation (as a click on a link
// does), which is where a title left over from the previous page would show.
import { expect, test, type Page } from '@playwright/test';
import { firstSyncDone } from './local-data.ts';
import { apiGet, logIn, openOrganizationHome } from './support.ts';

const PRODUCT = 'Castaway Studio';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A tab title that starts with the page's name and ends with the product's. */
const titleOf = (name: string) => new RegExp(`^${escape(name)} · (.+ · )?${escape(PRODUCT)}$`);

type Named = { Id: string; Name?: string; Title?: string | null };
type Listing = { Items: Named[] };

/** In-app navigation, as the router's links do it (no reload). */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => history.pushState(null, '', to), path);
}

/** Signs in, opens the first organization and waits for its first sync; returns the ids and names the routes need. */
async function studio(page: Page) {
  await logIn(page);
  const org = await openOrganizationHome(page);
  await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
  const programs = await apiGet<Listing>(page, '/v1/programs', org);
  const program = programs.Items[0]!;
  const clips = await apiGet<Listing>(page, `/v1/programs/${program.Id}/clips?pageSize=60`, org);
  // Far down the list: the specs that edit clips take the first few.
  const clip = clips.Items.filter((c) => c.Title).at(-1)!;
  const playlist = (await apiGet<Listing>(page, `/v1/programs/${program.Id}/playlists`, org)).Items[0]!;
  const recording = (await apiGet<Listing>(page, `/v1/programs/${program.Id}/recordings`, org)).Items.find((r) => r.Title)!;
  return { org, program, clip, playlist, recording };
}

test('every route of the studio names its tab after the page, and no two tabs read the same', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(`Log in · ${PRODUCT}`);

  const { org, program, clip, playlist, recording } = await studio(page);
  const p = `/${org}/programs/${program.Id}`;
  // [path, the page's name that leads the title] for every route of src/app/SignedIn.tsx.
  const routes: [string, string][] = [
    ['/', 'Organizations'],
    ['/account', 'Account settings'],
    ['/account/profile', 'Profile'],
    [`/${org}`, 'Manage audio'],
    [`/${org}/programs`, 'Programs'],
    [p, program.Name!],
    [`${p}/settings`, 'Program settings'],
    [`${p}/clips/${clip.Id}`, clip.Title!],
    [`${p}/clips/${clip.Id}/analytics`, clip.Title!],
    [`${p}/analytics`, program.Name!],
    [`${p}/playlists/new`, 'New playlist'],
    [`${p}/playlists/${playlist.Id}`, playlist.Title!],
    [`${p}/recordings/${recording.Id}`, recording.Title!],
    [`/${org}/networks`, 'Networks'],
    [`/${org}/imports`, 'Imports'],
    [`/${org}/search`, 'Search'],
    [`/${org}/reports`, 'Reports'],
    [`/${org}/users`, 'Users'],
    [`/${org}/sync`, 'Sync details'],
    [`/${org}/analytics`, 'Organization analytics'],
    ['/no-such-page/anywhere', 'Page not found'],
  ];
  const titles = new Map<string, string>();
  let previous = await page.title();
  for (const [path, name] of routes) {
    await go(page, path);
    // The router renders after the navigation: first the title must leave the previous page's
    // (a clip and its analytics share the clip's name), then name this one.
    await expect.poll(() => page.title(), { message: `the title of ${path} is not the previous page's`, timeout: 15_000 }).not.toBe(previous);
    await expect(page, `the title of ${path}`).toHaveTitle(titleOf(name), { timeout: 15_000 });
    previous = await page.title();
    titles.set(path, previous);
  }
  // Pages of the same name say where they are: the program, its settings and its analytics.
  expect(titles.get(p)).toBe(`${program.Name} · Programs · ${PRODUCT}`);
  expect(titles.get(`${p}/settings`)).toBe(`Program settings · ${program.Name} · ${PRODUCT}`);
  expect(new Set(titles.values()).size, [...titles.values()].join('\n')).toBe(routes.length);

  // The log-out route's dialog names the tab too; closing it goes back to the page before.
  await go(page, '/logout');
  await expect(page).toHaveTitle(`Log out · ${PRODUCT}`);
  await page.keyboard.press('Escape');
  await expect(page).toHaveTitle(titleOf('Page not found'));
});

test('"?" opens the list of keyboard shortcuts, Escape closes it, and in a text field "?" is a character', async ({ page }) => {
  await logIn(page);
  const org = await openOrganizationHome(page);
  await go(page, `/${org}/search`);
  const box = page.getByRole('searchbox', { name: 'Search the organization' });
  await expect(box).toBeVisible();
  // A desktop with a mouse: the keys to search are offered.
  await expect(page.getByText('Press / or Ctrl+K on any screen to search.')).toBeVisible();

  await box.press('?');
  await expect(box).toHaveValue('?');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await box.blur();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  for (const group of ['Anywhere', "Playlist (on a clip's handle)", 'Waveform (clip audio)', 'Cut editor']) {
    await expect(dialog.getByRole('heading', { name: group })).toBeVisible();
  }
  const anywhere = dialog.getByRole('region', { name: 'Anywhere' });
  await expect(anywhere.getByRole('term').filter({ hasText: 'F8' })).toBeVisible();
  await expect(anywhere.getByRole('definition').filter({ hasText: 'Go to the newest notification' })).toBeVisible();
  await expect(anywhere.getByRole('term').filter({ hasText: /Ctrl\s*\+\s*K/ })).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('keyboard hints are not shown until a real key is pressed', async ({ page }) => {
    await logIn(page);
    const org = await openOrganizationHome(page);
    await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);

    await go(page, `/${org}/search`);
    const hint = page.locator('#search-hint');
    await expect(hint).toHaveText('Words must all match; "a phrase" matches as written; -word leaves out; OR finds either.');
    await page.getByRole('searchbox', { name: 'Search the organization' }).tap();
    await expect(hint).not.toContainText('Ctrl+K');

    const programs = await apiGet<Listing>(page, '/v1/programs', org);
    const program = programs.Items[0]!;
    const playlist = (await apiGet<Listing>(page, `/v1/programs/${program.Id}/playlists`, org)).Items[0]!;
    await go(page, `/${org}/programs/${program.Id}/playlists/${playlist.Id}`);
    await expect(page.locator('#reorder-hint')).toHaveText('Drag a clip by its handle to change the order.');

    // A keyboard attached to the phone (a tablet's cover): its first key brings the hints back.
    await page.keyboard.press('Shift');
    await expect(page.locator('#reorder-hint')).toHaveText(/press the up and down arrow keys/);
  });
});
