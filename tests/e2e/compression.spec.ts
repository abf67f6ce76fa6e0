// What a phone downloads and uploads: the studio's files and its first sync come compressed
// (brotli), so an organization's rows arrive in a fraction of their bytes; edits made offline go up
// gzip-compressed; and the studio works the same.
import { expect, test, type Request, type Response } from '@playwright/test';
import { allChangesSaved, apiGet, logIn, openOrganizationHome, syncStatus } from './support.ts';
import { firstSyncDone } from './local-data.ts';

test('the studio and its first sync arrive as brotli, a fraction of their size, and the rows are all there', async ({ page }) => {
  const pulls: Response[] = [];
  const scripts: Response[] = [];
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/api/sync/pull') pulls.push(r);
    if (path.startsWith('/assets/') && path.endsWith('.js')) scripts.push(r);
  });
  await logIn(page);
  await openOrganizationHome(page);
  await expect(page.getByRole('region', { name: 'Programs' }).getByRole('link').first()).toBeVisible();
  await expect.poll(() => pulls.length).toBeGreaterThan(0);

  // The largest page: its rows as the sync worker read them (decoded) against the bytes that came.
  let largest = { sent: 0, rows: 0, bytes: 0 };
  for (const pull of pulls) {
    expect(pull.status()).toBe(200);
    const body = await pull.body();
    if (body.byteLength < 1024) continue;
    expect(pull.headers()['content-encoding']).toBe('br');
    const sent = (await pull.request().sizes()).responseBodySize;
    if (body.byteLength > largest.bytes) largest = { sent, rows: (JSON.parse(body.toString('utf8')) as { rows: unknown[] }).rows.length, bytes: body.byteLength };
  }
  expect(largest.rows).toBeGreaterThan(50);
  expect(largest.sent).toBeGreaterThan(0);
  expect(largest.sent).toBeLessThan(largest.bytes / 4);

  // The app's scripts as the server sent them (not the service worker's copies), the largest first.
  const fetched = scripts.filter((r) => r.status() === 200 && !r.fromServiceWorker());
  const sized = await Promise.all(fetched.map(async (r) => ({ r, bytes: (await r.body()).byteLength })));
  sized.sort((a, b) => b.bytes - a.bytes);
  expect(sized[0]?.bytes ?? 0, 'a script of the app fetched from the server').toBeGreaterThan(50_000);
  expect(sized[0]!.r.headers()['content-encoding']).toBe('br');
  expect((await sized[0]!.r.request().sizes()).responseBodySize).toBeLessThan(sized[0]!.bytes / 2);
});

test('an edit made offline goes up gzip-compressed when the connection is back, and arrives whole', async ({ page, context }) => {
  await logIn(page);
  await openOrganizationHome(page);
  // A Morning Briefing clip no other spec edits (conflict-names.spec.ts takes the 3rd and 4th).
  await page.getByRole('region', { name: 'Programs' }).getByRole('link', { name: 'Morning Briefing' }).click();
  await expect.poll(() => firstSyncDone(page), { timeout: 30_000 }).toBe(true);
  await page.getByTestId('clip-list').getByRole('link').nth(6).click();
  await expect(page.getByRole('form', { name: 'Details' })).toBeVisible();
  const [, organizationId, , , , clipId] = new URL(page.url()).pathname.split('/');
  const pushes: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/sync/push') pushes.push(r);
  });
  // Show notes long enough that the push is over 1 KB (smaller ones go as they are).
  const notes = Array.from({ length: 12 }, (_, i) => `Segment ${i + 1}: the guest on the new season, listener questions and the sponsor read.`).join('\n');
  await context.setOffline(true);
  await page.getByLabel('Description', { exact: true }).fill(notes);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(await syncStatus(page)).toContainText('1 change waiting to sync');

  await context.setOffline(false);
  await allChangesSaved(page);
  const sent = pushes.filter((r) => r.headers()['content-encoding'] === 'gzip');
  expect(sent.length, 'a gzip push').toBeGreaterThan(0);
  const push = sent[sent.length - 1]!;
  expect((await push.response())!.status()).toBe(200);
  const bytes = (await push.sizes()).requestBodySize;
  expect(bytes).toBeGreaterThan(0);
  expect(bytes).toBeLessThan(notes.length / 2);
  const clip = await apiGet<{ Description: string }>(page, `/v1/clips/${clipId!}`, organizationId!);
  expect(clip.Description).toBe(notes);
});
