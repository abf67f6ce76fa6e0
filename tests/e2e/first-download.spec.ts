// A new device's first download, as a new user sees it: a progress bar with counts while it runs
// (the demo's first organization has over 1,000 of its 2,000 clips, pulled in pages of 250, 1,000, …), no screen built on
// the part downloaded so far, no "All changes saved" before it ends, and once it ends every
// program's clip count equals the server's. On a server of its own with the demo `npm start` seeds
// (the run's shared server has a smaller one).
import { expect, test, type Page } from '@playwright/test';
import { OWN_SERVER_START_MS, startOwnServer, type OwnServer } from './own-server.ts';
import { allChangesSaved, logIn, openOrganizationHome } from './support.ts';

let server: OwnServer | null = null;
test.beforeAll(async () => {
  test.setTimeout(OWN_SERVER_START_MS + 30_000);
  server = await startOwnServer('castaway-first-download-', { CASTAWAY_DEMO_LISTENER_DAYS: '0' });
});
test.afterAll(() => server?.stop());

type Seen = { bar: boolean; value: number | null; max: number | null; text: string | null; badge: string | null };

/** Records every change of the progress bar and the sync badge from the first paint on. */
async function recordFirstSync(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: Seen[] = [];
    (window as unknown as { firstSyncSeen: Seen[] }).firstSyncSeen = seen;
    const record = () => {
      const bar = document.querySelector<HTMLProgressElement>('progress.first-sync-bar');
      const next: Seen = {
        bar: bar !== null,
        value: bar && bar.hasAttribute('value') ? bar.value : null,
        max: bar && bar.hasAttribute('max') ? bar.max : null,
        text: bar ? (document.querySelector('.first-sync-count')?.textContent ?? null) : null,
        badge: document.querySelector('nav[aria-label="Main"] [role="status"]')?.textContent ?? null,
      };
      const last = seen[seen.length - 1];
      if (!last || last.bar !== next.bar || last.value !== next.value || last.badge !== next.badge || last.text !== next.text) seen.push(next);
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

/** The program's live clips as the server counts them (its list API, page by page). */
async function serverClipCount(page: Page, programId: string): Promise<number> {
  let count = 0;
  for (let p = 1; p < 1000; p++) {
    const res = await page.request.get(`/api/v1/programs/${programId}/clips?page=${p}&pageSize=100`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { Items: unknown[]; HasNext: boolean };
    count += body.Items.length;
    if (!body.HasNext) return count;
  }
  throw new Error('too many pages');
}

test('a fresh device shows its first download as a progress bar with counts; once saved, every count is the server’s', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: server!.baseURL });
  const page = await context.newPage();
  await recordFirstSync(page);
  // Each page of the pull half a second late, as over a phone's link: on a loaded machine the
  // whole download could otherwise land between two renders, and the screen never showed a count
  // to check (seen in CI: only the bar waiting for its first page, then the organization).
  let delayed = 0;
  await page.route('**/api/sync/pull?**', async (route) => {
    delayed++;
    await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  });
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  await allChangesSaved(page, 30_000);
  expect(delayed, 'the sync worker\'s pulls went through the delay').toBeGreaterThan(1);

  const seen = await page.evaluate(() => (window as unknown as { firstSyncSeen: Seen[] }).firstSyncSeen);
  const bars = seen.filter((s) => s.bar);
  // The bar moved: waiting for the first page (no value yet), then counts that never go back, out
  // of one total the server announced.
  const values = [...new Set(bars.map((s) => s.value ?? -1))];
  expect(values.length, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  const totals = new Set(bars.filter((s) => s.value !== null).map((s) => s.max));
  expect(totals.size).toBe(1);
  const [total] = totals;
  expect(total).toBeGreaterThan(1_000);
  expect(bars.at(-1)!.value).toBeGreaterThan(0);
  expect(bars.at(-1)!.text).toMatch(/^[\d,]+ of [\d,]+ downloaded$/);
  // While it ran the badge said it was downloading, never that everything was saved.
  for (const s of bars) expect(s.badge ?? '', JSON.stringify(seen)).toMatch(/^Downloading/);
  expect(bars.at(-1)!.badge).toMatch(/^Downloading [\d,]+ of [\d,]+$/);
  // And it ended: the bar is gone, the organization's screen is there.
  await expect(page.locator('progress.first-sync-bar')).toHaveCount(0);

  // Every program's clip count on the device (the programs list) is the server's.
  await page.goto(`/${organizationId}/programs`);
  const cards = page.getByRole('main').getByRole('listitem');
  await expect(cards.first()).toContainText(/\d clips?$/);
  const n = await cards.count();
  expect(n).toBeGreaterThan(1);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const card = cards.nth(i);
    const programId = (await card.getByRole('link').first().getAttribute('href'))!.split('/').pop()!;
    const shown = Number((await card.getByText(/^[\d,]+ clips?$/).innerText()).replace(/[^\d]/g, ''));
    const server = await serverClipCount(page, programId);
    expect(shown, `program ${programId}`).toBe(server);
    sum += server;
  }
  // The clips are most of what the download announced (the rest: programs, playlists, recordings…).
  expect(sum).toBeGreaterThan(1_000);
  expect(sum).toBeLessThan(total!);
  await context.close();
});
