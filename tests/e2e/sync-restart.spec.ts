// Issue 36, "sync wherever the app is open": a member of two organizations edits offline, closes
// the browser, opens it again online with the same profile and opens only `/` (the manifest's
// start URL, the organization list). The queued edit must go out from there, within 5 s, and the
// badge must not read "Offline" from the status stored before the browser closed. The last clip
// of the last program of Castaway Podcasts is this file's: no other spec edits it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type BrowserContext } from '@playwright/test';
import { firstSyncDone } from './local-data.ts';
import { apiGet, clipField, logIn, organizationIdOf, requestText, syncStatus } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test('after a browser restart, opening only / sends the offline edit within 5 s and the badge is not stale', async ({ baseURL, launchOptions }) => {
  expect(baseURL, 'baseURL from playwright.config.ts').toBeTruthy();
  const profile = mkdtempSync(join(tmpdir(), 'castaway-restart-'));
  const launch = (): Promise<BrowserContext> =>
    chromium.launchPersistentContext(profile, { ...launchOptions, executablePath: '/usr/bin/chromium', baseURL: baseURL!, viewport: { width: 1280, height: 800 } });
  let browser: BrowserContext | null = null;
  try {
    browser = await launch();
    let page = browser.pages()[0] ?? (await browser.newPage());
    await logIn(page);
    // demo@example.com is a member of both demo organizations: `/` is the organization list.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('list').getByRole('link')).toHaveCount(2);
    await page.getByRole('list').getByRole('link', { name: /Castaway Podcasts/ }).click();
    const organizationId = organizationIdOf(page);
    await page.getByRole('region', { name: 'Programs' }).getByRole('link').last().click();
    await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
    await page.getByTestId('clip-list').getByRole('link').last().click();
    await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
    const clipId = new URL(page.url()).pathname.split('/')[5]!;
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect(await syncStatus(page)).toHaveText('All changes saved', { timeout: 20_000 });

    await browser.setOffline(true);
    const title = `Edited offline, sent from the start page ${Date.now()}`;
    await clipField(page, 'Title').fill(title);
    await page.getByRole('button', { name: 'Apply' }).click();
    // The worker's own word on the network is stored too (a failed push): the status a restarted
    // browser finds is an offline one.
    await expect(await syncStatus(page)).toHaveText('Offline · 1 change waiting to sync');
    await browser.close();
    browser = null;

    // The same profile, online, and only the start URL.
    browser = await launch();
    // Listened to on the context from the moment it starts, and read as the server reads it: a push
    // of 1 KB or more goes gzip-compressed once an answer has said the server takes that (in CI a
    // push, most likely a compressed one, was read as raw bytes and the title not found in it).
    const pushes: string[] = [];
    browser.on('request', (req) => {
      if (new URL(req.url()).pathname !== '/api/sync/push') return;
      pushes.push(requestText(req));
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    const openedAt = Date.now();
    await page.goto('/');
    await expect(page.getByRole('list').getByRole('link')).toHaveCount(2);
    expect(new URL(page.url()).pathname).toBe('/');
    // The server has the edit within 5 s of opening `/` (polled through the page's own session).
    await expect
      .poll(async () => (await apiGet<{ Title: string }>(page, `/v1/clips/${clipId}`, organizationId)).Title, { timeout: Math.max(0, 5_000 - (Date.now() - openedAt)), intervals: [200] })
      .toBe(title);
    expect(pushes.some((body) => body.includes(title))).toBe(true);
    // Still on `/`, and the badge tells the truth: online, nothing waiting.
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(await syncStatus(page)).toHaveText('All changes saved');
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
