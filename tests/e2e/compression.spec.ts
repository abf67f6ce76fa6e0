// What a phone downloads: the studio's files and its first sync come compressed (brotli), so an
// organization's rows arrive in a fraction of their bytes, and the studio works the same.
import { expect, test, type Response } from '@playwright/test';
import { logIn, openOrganizationHome } from './support.ts';

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
