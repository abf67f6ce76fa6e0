// A playlist's directories and premium feeds (issue 33), as its producer uses them: with the
// network gone, Spotify is marked submitted on Morning Briefing's full feed and the show's Spotify
// address pasted (another site's refused at the field first); back online the change is synced and
// the server has it. Then, in Premium feeds, the ad-free feed address of a member is copied and a
// plain fetch of it reads the member's feed (200, RSS). The demo owner acts (section 6: recording
// where a feed is listed needs manage-settings access, which the demo's producer account lacks).
// A server of its own: the spec changes a playlist and adds a member.
import { expect, test, type Page } from '@playwright/test';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { allChangesSaved, apiGet, logIn, studioApi } from './support.ts';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';

let server: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 10_000);
  server = await startOwnServer('castaway-directories-', { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

const MORNING = seedId('program:morning');
const FEED = seedId('playlist:morning:feed');
const SPOTIFY_SHOW = 'https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk';

const directory = (page: Page, name: string) => page.getByRole('region', { name: 'Directories', exact: true }).getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('a producer records a Spotify listing offline, and a member’s ad-free premium feed is copied and read', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server!.baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await logIn(page);
  await page.goto(`/${ORG_DEMO}/programs/${MORNING}/playlists/${FEED}`);
  const section = page.getByRole('region', { name: 'Directories', exact: true });
  await expect(section).toBeVisible({ timeout: 30_000 });
  // Online, the checklist of each directory is there.
  await expect(directory(page, 'Spotify').getByText('What Spotify needs')).toBeVisible({ timeout: 30_000 });
  await expect(section.getByRole('textbox', { name: 'Feed address to submit' })).toHaveValue(`${server!.baseURL}/feeds/${FEED}.xml`);

  await context.setOffline(true);
  await directory(page, 'Spotify').getByRole('button', { name: 'Mark submitted' }).click();
  await expect(directory(page, 'Spotify').getByText('Submitted', { exact: true })).toBeVisible();
  const address = directory(page, 'Spotify').getByRole('textbox', { name: 'Address at Spotify' });
  await address.fill('https://podcasts.apple.com/us/podcast/morning/id1');
  await directory(page, 'Spotify').getByRole('button', { name: 'Save address' }).click();
  await expect(directory(page, 'Spotify').getByText('Paste the show’s address at open.spotify.com, spotify.com.')).toBeVisible();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await address.fill(SPOTIFY_SHOW);
  await directory(page, 'Spotify').getByRole('button', { name: 'Save address' }).click();
  await expect(directory(page, 'Spotify').getByText('Listed', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Premium feeds' }).getByText('Premium feeds are kept on the server').first()).toBeVisible();

  await context.setOffline(false);
  await allChangesSaved(page, 30_000);
  const saved = await apiGet<{ Items: Array<{ Directory: string; State: string; ListingUrl: string | null }> }>(page, `/internal/playlists/${FEED}/directories`, ORG_DEMO);
  expect(saved.Items.find((i) => i.Directory === 'spotify')).toMatchObject({ State: 'Listed', ListingUrl: SPOTIFY_SHOW });

  // A member of the program, then their ad-free feed of this playlist copied from Premium feeds.
  await studioApi(page, ORG_DEMO, 'POST', `/v1/programs/${MORNING}/members`, { Name: 'Avery Listener', Email: 'avery.directories@example.com' });
  await page.reload();
  const premium = page.getByRole('region', { name: 'Premium feeds' });
  await expect(premium.getByRole('textbox', { name: 'Feed of Avery Listener' })).toBeVisible({ timeout: 30_000 });
  await premium.getByRole('checkbox', { name: 'Without ads' }).check();
  const field = premium.getByRole('textbox', { name: 'Feed of Avery Listener' });
  await expect(field).toHaveValue(/\?adFree=true$/);
  await field.locator('xpath=following-sibling::button').click();
  await expect(page.getByText('Address copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await field.inputValue());
  expect(copied).toMatch(new RegExp(`^${server!.baseURL}/feeds/${FEED}/members/[A-Za-z0-9_-]{32}\\.xml\\?adFree=true$`));

  const feed = await fetch(copied);
  expect(feed.status).toBe(200);
  expect(feed.headers.get('content-type')).toContain('application/rss+xml');
  expect(await feed.text()).toContain('<rss');
  await context.close();
});
