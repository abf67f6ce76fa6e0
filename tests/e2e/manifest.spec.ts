// The web manifest that makes the studio installable on phones (issue 5, service worker): fetched
// the way a browser finds it, from the page's <link rel="manifest">, served by the real server.
import { expect, test } from '@playwright/test';

type Icon = { src: string; sizes: string; type?: string; purpose?: string };
type Manifest = { name: string; short_name?: string; start_url: string; display: string; scope?: string; icons: Icon[] };

/** Width × height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): string {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
}

test('the manifest names the studio, starts at /, runs standalone, and its icons (one maskable) are served', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const res = await page.request.get(new URL(href!, page.url()).href);
  expect(res.status()).toBe(200);
  const manifest = (await res.json()) as Manifest;
  expect(manifest.name).toBe('Castaway Studio');
  expect(manifest.start_url).toBe('/');
  expect(manifest.display).toBe('standalone');

  const maskable = manifest.icons.filter((i) => (i.purpose ?? 'any').split(/\s+/).includes('maskable'));
  expect(maskable.length).toBeGreaterThan(0);
  // Chromium's installability needs an icon of at least 192 px; 512 px for the splash screen.
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) {
    const file = await page.request.get(new URL(icon.src, res.url()).href);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toBe(icon.type ?? 'image/png');
    expect(pngSize(await file.body()), icon.src).toBe(icon.sizes);
  }
});
