// Issue #4 in Chromium against the real server: "two browser contexts; A edits a clip offline, B
// edits the same field online, A reconnects and holds a conflict; resolving it makes A and B
// converge. Two tabs of one context: only one pushes. An offline edit survives a reload and a
// browser restart." (The reload half is offline.spec.ts.) Clips 10, 11 and 12 of the first program
// are this file's: no other spec edits them, so parallel workers never meet on a row.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import { apiGet, clipField, DEMO, logIn, openFirstClip, requestText, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** Every /api/sync/… request a tab's sync worker sends (dedicated workers report to their page). */
function watchSync(page: Page): { pushes: Request[]; pulls: Request[]; pushedValues: () => string[] } {
  const pushes: Request[] = [];
  const pulls: Request[] = [];
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (path === '/api/sync/push') pushes.push(req);
    if (path === '/api/sync/pull') pulls.push(req);
  });
  return {
    pushes,
    pulls,
    // The whole batch as text (unzipped): enough to find the value a tab typed in what another tab sent.
    pushedValues: () => pushes.map(requestText),
  };
}

async function applyField(page: Page, label: string, value: string): Promise<void> {
  await clipField(page, label).fill(value);
  await page.getByRole('button', { name: 'Apply' }).click();
}

type ClipBody = { Title: string | null; Description: string | null; ShortSummary: string | null };

test('two tabs of one context: only the leader tab pushes, both see both edits, and the other tab takes over when it closes', async ({ context }) => {
  const first = await context.newPage();
  const firstSync = watchSync(first);
  await logIn(first);
  const { organizationId, clipId } = await openFirstClip(first, 10);
  const clipUrl = first.url();
  const second = await context.newPage();
  const secondSync = watchSync(second);
  await second.goto(clipUrl);
  await expect(second.getByRole('form', { name: 'Details' })).toBeVisible();
  await expect(await syncStatus(first)).toHaveText('All changes saved');
  await expect(await syncStatus(second)).toHaveText('All changes saved');
  // Each tab runs its own sync worker; the Web Lock decides which one talks to the server.
  for (const page of [first, second]) {
    await expect.poll(() => page.workers().some((w) => /\/sync\.worker[-.]/.test(w.url()))).toBe(true);
  }

  // Each tab edits a different field of the same clip while both are open.
  const stamp = Date.now();
  const titleFromFirst = `Title typed in the first tab ${stamp}`;
  const summaryFromSecond = `Summary typed in the second tab ${stamp}`;
  await applyField(first, 'Title', titleFromFirst);
  await applyField(second, 'Short summary', summaryFromSecond);

  // Both tabs show both edits (the other tab's through Dexie's cross-tab notifications)…
  for (const page of [first, second]) {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(titleFromFirst);
    await expect(clipField(page, 'Title')).toHaveValue(titleFromFirst);
    await expect(page.getByLabel('Short summary', { exact: true })).toHaveValue(summaryFromSecond);
    await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  }
  // …and the server has them.
  await expect
    .poll(async () => {
      const clip = await apiGet<ClipBody>(first, `/v1/clips/${clipId}`, organizationId);
      return [clip.Title, clip.ShortSummary];
    })
    .toEqual([titleFromFirst, summaryFromSecond]);

  // Exactly one tab's worker talked to /api/sync/push, and it carried both tabs' edits.
  const firstPushed = firstSync.pushes.length > 0;
  const secondPushed = secondSync.pushes.length > 0;
  expect([firstPushed, secondPushed], 'tabs that pushed [first, second]').toContainEqual(true);
  expect(firstPushed && secondPushed, `both tabs pushed: first ${firstSync.pushes.length}, second ${secondSync.pushes.length}`).toBe(false);
  const [leader, leaderSync, follower, followerSync] = firstPushed ? [first, firstSync, second, secondSync] : [second, secondSync, first, firstSync];
  expect(leaderSync.pushedValues().join('\n')).toContain(titleFromFirst);
  expect(leaderSync.pushedValues().join('\n')).toContain(summaryFromSecond);
  // The follower does not pull either: it reads what the leader wrote to IndexedDB.
  expect(followerSync.pulls, 'pull requests from the follower tab').toHaveLength(0);
  expect(leaderSync.pulls.length, 'pull requests from the leader tab').toBeGreaterThan(0);

  // The leader tab closes: the follower's worker gets the Web Lock and pushes its next edit itself.
  await leader.close();
  const takeover = `Title after the leader tab closed ${stamp}`;
  await applyField(follower, 'Title', takeover);
  await expect.poll(() => followerSync.pushedValues().some((body) => body.includes(takeover)), { timeout: 20_000 }).toBe(true);
  await expect(await syncStatus(follower)).toHaveText('All changes saved', { timeout: 20_000 });
  const clip = await apiGet<ClipBody>(follower, `/v1/clips/${clipId}`, organizationId);
  expect(clip.Title).toBe(takeover);
});

// The device keeps one organization at a time (workers/sync/sync.worker.ts): a second tab on the
// other organization waits for the first tab's sync, says so, and can take the device over.
test('a tab on another organization says which one the device keeps and keeps its own when asked; when it closes the first tab gets its organization back', async ({ context }) => {
  const first = await context.newPage();
  await logIn(first);
  const orgOf = async (name: RegExp) => new URL((await first.getByRole('link', { name }).getAttribute('href'))!, 'http://x').pathname.split('/')[1]!;
  const radio = await orgOf(/Castaway Demo Radio/);
  await first.getByRole('link', { name: /Castaway Podcasts/ }).click();
  const programs = (page: Page) => page.getByRole('region', { name: 'Programs' }).getByRole('link');
  await expect(programs(first).filter({ hasText: 'Deep Dive' })).toBeVisible();

  const second = await context.newPage();
  await second.goto(`/${radio}`);
  await expect(second.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('This device is keeping Castaway Podcasts in another tab');
  // Waiting changes nothing: the first tab's sync goes on with its organization.
  await expect(programs(first).filter({ hasText: 'Deep Dive' })).toBeVisible();
  await second.getByRole('button', { name: 'Keep Castaway Demo Radio here instead' }).click();
  await expect(programs(second).filter({ hasText: 'Morning Briefing' })).toBeVisible({ timeout: 20_000 });
  await expect(first.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('This device is keeping Castaway Demo Radio in another tab');
  await expect(first.getByRole('button', { name: 'Keep Castaway Podcasts here instead' })).toBeVisible();

  // The tab that took it closes: the first tab's worker syncs again, for its own organization.
  await second.close();
  await expect(programs(first).filter({ hasText: 'Deep Dive' })).toBeVisible({ timeout: 20_000 });
  await expect(await syncStatus(first)).toHaveText('All changes saved', { timeout: 20_000 });
});

test('an offline edit survives closing the whole browser and reaches the server after it is opened again', async ({ baseURL, launchOptions }) => {
  expect(baseURL, 'baseURL from playwright.config.ts').toBeTruthy();
  const profile = mkdtempSync(join(tmpdir(), 'castaway-profile-'));
  const launch = (offline: boolean): Promise<BrowserContext> =>
    chromium.launchPersistentContext(profile, { ...launchOptions, executablePath: '/usr/bin/chromium', baseURL: baseURL!, offline, viewport: { width: 1280, height: 800 } });
  let browser: BrowserContext | null = null;
  try {
    browser = await launch(false);
    let page = browser.pages()[0] ?? (await browser.newPage());
    await logIn(page);
    const { organizationId, clipId } = await openFirstClip(page, 11);
    const clipUrl = page.url();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect(await syncStatus(page)).toHaveText('All changes saved');

    await browser.setOffline(true);
    const title = `Edited before the browser closed ${Date.now()}`;
    await applyField(page, 'Title', title);
    await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
    await browser.close();

    // The same profile, the network still down: the service worker serves the studio, IndexedDB the edit.
    browser = await launch(true);
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(clipUrl);
    await expect(clipField(page, 'Title')).toHaveValue(title);
    await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');

    await browser.setOffline(false);
    await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 30_000 });
    const clip = await apiGet<ClipBody>(page, `/v1/clips/${clipId}`, organizationId);
    expect(clip.Title).toBe(title);
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

/**
 * Two devices (browser contexts) on clip `index` of the first program: A has it open, ready to go
 * offline (its service worker ready, so the app still loads), and B has the same clip open.
 */
async function twoDevicesOnClip(browser: Browser, index: number) {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const a = await contextA.newPage();
  const b = await contextB.newPage();
  await logIn(a);
  const { organizationId, clipId } = await openFirstClip(a, index);
  const clipUrl = a.url();
  await a.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await logIn(b, DEMO.email, DEMO.password);
  await b.goto(clipUrl);
  await expect(b.getByRole('form', { name: 'Details' })).toBeVisible();
  return { contextA, contextB, a, b, organizationId, clipId, clipUrl };
}

test('A edits offline, B edits the same field online, A reconnects and holds a conflict; resolving it makes A and B converge', async ({ browser }) => {
  const { contextA, contextB, a, b, organizationId, clipId, clipUrl } = await twoDevicesOnClip(browser, 12);

  const stamp = Date.now();
  const mine = `A wrote this offline ${stamp}`;
  const theirs = `B wrote this online ${stamp}`;
  await contextA.setOffline(true);
  await applyField(a, 'Title', mine);
  await expect(await syncStatus(a)).toHaveText('Offline · 1 change waiting to sync');

  await applyField(b, 'Title', theirs);
  await expect(await syncStatus(b)).toHaveText('All changes saved');
  await expect.poll(async () => (await apiGet<ClipBody>(b, `/v1/clips/${clipId}`, organizationId)).Title).toBe(theirs);

  // A reconnects: its edit comes back as a conflict, held rather than written over B's.
  await contextA.setOffline(false);
  await expect(a.getByRole('link', { name: '1 conflict' })).toBeVisible({ timeout: 30_000 });
  expect((await apiGet<ClipBody>(b, `/v1/clips/${clipId}`, organizationId)).Title).toBe(theirs);
  await a.getByRole('link', { name: '1 conflict' }).click();
  await expect(a.getByText('Conflict 1 of 1')).toBeVisible();
  // The held edit is on this device only: the storage panel does not say there is nothing to lose.
  const storage = a.getByRole('region', { name: 'Storage on this device' });
  await expect(storage).toContainText('Oldest unsynced edit:');
  const row = a.getByRole('row', { name: /Title/ });
  await expect(row).toContainText(mine);
  await expect(row).toContainText(theirs);
  await a.getByRole('button', { name: 'Keep mine' }).click();
  await expect(a.getByText('There are no conflicts. All your edits are merged.')).toBeVisible();
  await expect(await syncStatus(a)).toHaveText('All changes saved');
  await expect(storage).toContainText('No unsynced edits');

  // Converged: the server, A and B (which was told by a poke) all show A's Title.
  await expect.poll(async () => (await apiGet<ClipBody>(a, `/v1/clips/${clipId}`, organizationId)).Title).toBe(mine);
  await expect(b.getByRole('heading', { level: 1 })).toHaveText(mine, { timeout: 20_000 });
  await expect(clipField(b, 'Title')).toHaveValue(mine);
  await expect(await syncStatus(b)).toHaveText('All changes saved');
  await a.goto(clipUrl);
  await expect(clipField(a, 'Title')).toHaveValue(mine);
  for (const page of [a, b]) await expect(page.getByRole('link', { name: /conflicts/ })).toHaveCount(0);
  await contextA.close();
  await contextB.close();
});

test('a delete made offline over an edit from another device is held as a conflict and resolved field by field: kept, their title undone; both devices converge', async ({ browser }) => {
  const { contextA, contextB, a, b, organizationId, clipId, clipUrl } = await twoDevicesOnClip(browser, 12);
  const before = await clipField(a, 'Title').inputValue();

  await contextA.setOffline(true);
  await a.getByRole('button', { name: 'Delete clip' }).click();
  await a.getByLabel('Type DELETE to confirm').fill('DELETE');
  await a.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(await syncStatus(a)).toHaveText('Offline · 1 change waiting to sync');
  const theirs = `B still wants this clip ${Date.now()}`;
  await applyField(b, 'Title', theirs);
  // On the server before A reconnects (B's status reads 'All changes saved' before its write too).
  await expect.poll(async () => (await apiGet<ClipBody>(b, `/v1/clips/${clipId}`, organizationId)).Title).toBe(theirs);

  await contextA.setOffline(false);
  await expect(a.getByRole('link', { name: '1 conflict' })).toBeVisible({ timeout: 30_000 });
  expect((await apiGet<ClipBody>(b, `/v1/clips/${clipId}`, organizationId)).Title).toBe(theirs);
  await a.getByRole('link', { name: '1 conflict' }).click();
  // Delete it, or keep it with, per field, their change or the value it had when A deleted it.
  const titleRow = a.getByRole('row', { name: /^Title/ });
  await expect(titleRow.getByRole('radio', { name: before })).toBeDisabled();
  await a.getByRole('radio', { name: 'Keep it, with the values chosen below' }).check();
  await expect(titleRow.getByRole('radio', { name: theirs })).toBeChecked();
  await titleRow.getByRole('radio', { name: before }).check();
  await a.getByRole('button', { name: 'Apply choices' }).click();
  await expect(a.getByText('There are no conflicts. All your edits are merged.')).toBeVisible();
  await expect(await syncStatus(a)).toHaveText('All changes saved', { timeout: 20_000 });
  await expect.poll(async () => (await apiGet<ClipBody>(b, `/v1/clips/${clipId}`, organizationId)).Title).toBe(before);
  await a.goto(clipUrl);
  await expect(clipField(a, 'Title')).toHaveValue(before);
  await expect(clipField(b, 'Title')).toHaveValue(before, { timeout: 20_000 });
  await contextA.close();
  await contextB.close();
});

// "flushes on start, online, visibilitychange and every poke": a device whose pokes do not arrive
// (a proxy that drops server-sent events, a stream the phone cut while the app was in the
// background) catches up when the user comes back to the tab, not only at the next edit.
test('a tab that misses pokes pulls when it becomes visible again', async ({ browser }) => {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  // A's sync worker never gets its event stream: the only poke-free way to learn of B's edit is a
  // flush, which nothing but the return to the tab starts here.
  await contextA.route('**/api/sync/events', (route) => route.abort());
  const a = await contextA.newPage();
  const b = await contextB.newPage();
  const aSync = watchSync(a);
  await logIn(a);
  await openFirstClip(a, 10);
  const clipUrl = a.url();
  await expect(await syncStatus(a)).toHaveText('All changes saved');
  await logIn(b);
  await b.goto(clipUrl);
  await expect(b.getByRole('form', { name: 'Details' })).toBeVisible();

  const theirs = `B wrote this while A was away ${Date.now()}`;
  const pullsBefore = aSync.pulls.length;
  await applyField(b, 'Title', theirs);
  await expect(await syncStatus(b)).toHaveText('All changes saved', { timeout: 20_000 });
  // Without a poke, A neither pulls nor shows B's title (two seconds: pokes arrive in tens of ms).
  await a.waitForTimeout(2_000);
  expect(aSync.pulls.length, 'pulls of A before it becomes visible').toBe(pullsBefore);
  await expect(clipField(a, 'Title')).not.toHaveValue(theirs);

  // The user comes back to the tab (the browser fires visibilitychange with the page visible).
  await a.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(clipField(a, 'Title')).toHaveValue(theirs, { timeout: 10_000 });
  await expect(a.getByRole('heading', { level: 1 })).toHaveText(theirs);
  expect(aSync.pulls.length).toBeGreaterThan(pullsBefore);
  await contextA.close();
  await contextB.close();
});

// "Ask for persistent storage (navigator.storage.persist()) at the first local edit": not when the
// app opens (a prompt-like request out of the blue), and once, not at every edit.
test('the first local edit asks the browser to keep the data, once', async ({ browser }) => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    const w = window as unknown as { persistCalls: number };
    w.persistCalls = 0;
    const persist = StorageManager.prototype.persist;
    StorageManager.prototype.persist = function (this: StorageManager) {
      w.persistCalls++;
      return persist.call(this);
    };
  });
  const page = await context.newPage();
  const persistCalls = () => page.evaluate(() => (window as unknown as { persistCalls: number }).persistCalls);
  await logIn(page);
  await openFirstClip(page, 11);
  await expect(await syncStatus(page)).toHaveText('All changes saved');
  expect(await persistCalls(), 'persist() calls before any edit').toBe(0);
  const stamp = Date.now();
  await applyField(page, 'Title', `First edit ${stamp}`);
  await expect.poll(persistCalls).toBe(1);
  await applyField(page, 'Title', `Second edit ${stamp}`);
  await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });
  expect(await persistCalls(), 'persist() calls after a second edit').toBe(1);
  await context.close();
});
