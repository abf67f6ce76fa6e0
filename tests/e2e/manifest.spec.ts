// The web manifest that makes the studio installable on phones (issue 5, service worker): fetched
// the way a browser finds it, from the page's <link rel="manifest">, served by the real server.
// Issue 36: Chromium's own parse of it (id, shortcuts, screenshots, per-locale copies), the /go/…
// routes its shortcuts open, and the studio's install offer.
import { expect, test, type Page } from '@playwright/test';
import { logIn, openOrganizationHome } from './support.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

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

/** What Chromium made of the page's manifest (DevTools protocol): its parse errors and the result. */
type ParsedManifest = {
  errors: { message: string; critical: number }[];
  manifest?: {
    id?: string;
    startUrl?: string;
    shortcuts?: { name: string; url: string }[];
    screenshots?: { image: { url: string; sizes?: string }; formFactor?: string; label?: string }[];
  };
};

async function chromiumManifest(page: Page): Promise<ParsedManifest> {
  const cdp = await page.context().newCDPSession(page);
  try {
    return (await cdp.send('Page.getAppManifest')) as unknown as ParsedManifest;
  } finally {
    await cdp.detach();
  }
}

test('Chromium parses the manifest without errors: an id, three shortcuts that open through /go/…, wide and narrow screenshots; each locale has its own', async ({ page }) => {
  await page.goto('/');
  const parsed = await chromiumManifest(page);
  expect(parsed.errors).toEqual([]);
  const origin = new URL(page.url()).origin;
  expect(parsed.manifest?.id).toBe(`${origin}/`);
  expect(parsed.manifest?.shortcuts?.map((s) => [s.name, s.url])).toEqual([
    ['New clip', `${origin}/go/new-clip`],
    ['Search', `${origin}/go/search`],
    ['Sync details', `${origin}/go/sync`],
  ]);
  const shots = parsed.manifest?.screenshots ?? [];
  expect(shots.map((s) => [s.formFactor, s.image.sizes])).toEqual([
    ['kWide', '1280x800'],
    ['kNarrow', '390x844'],
  ]);
  for (const shot of shots) {
    expect(shot.label).toBeTruthy();
    const file = await page.request.get(shot.image.url);
    expect(file.status(), shot.image.url).toBe(200);
    expect(pngSize(await file.body()), shot.image.url).toBe(shot.image.sizes);
  }

  // The German manifest, which the app links for a German user: parsed without errors too, in German.
  await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.setAttribute('href', '/manifest.de-DE.webmanifest'));
  await expect.poll(async () => (await chromiumManifest(page)).manifest?.shortcuts?.[0]?.name).toBe('Neuer Clip');
  const german = await chromiumManifest(page);
  expect(german.errors).toEqual([]);
  expect(german.manifest?.id).toBe(`${origin}/`);
  const raw = (await (await page.request.get('/manifest.de-DE.webmanifest')).json()) as { lang: string; dir: string };
  expect([raw.lang, raw.dir]).toEqual(['de-DE', 'ltr']);
});

test('a shortcut opens its screen in the organization the device keeps', async ({ page }) => {
  await logIn(page);
  const organizationId = await openOrganizationHome(page);
  await page.goto('/go/sync');
  await expect(page).toHaveURL(new RegExp(`/${organizationId}/sync$`));
  await page.goto('/go/search');
  await expect(page).toHaveURL(new RegExp(`/${organizationId}/search$`));
  await page.goto('/go/new-clip');
  await expect(page).toHaveURL(new RegExp(`/${organizationId}/programs$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Programs' })).toBeVisible();
});

/**
 * What Chromium does when the studio becomes installable, which headless Chromium never does: a
 * beforeinstallprompt event whose prompt() the test records. True when the page prevented the
 * browser's own mini-infobar.
 */
function offerInstall(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: () => {
        document.documentElement.dataset['installPrompted'] = 'yes';
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });
}

test('the install offer waits for the second visit, keeps the infobar away, installs, and a dismissal holds for 30 days', async ({ page, context }) => {
  await logIn(page);
  const offer = page.getByRole('region', { name: 'Install Castaway Studio' });
  // First visit: the event is kept (no infobar) but nothing is offered on the first screen.
  expect(await offerInstall(page)).toBe(true);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(offer).toHaveCount(0);

  // A second visit (a new tab is a new browser session of the studio): offered; Install prompts.
  const second = await context.newPage();
  await second.goto('/');
  await expect(second.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  expect(await offerInstall(second)).toBe(true);
  const offered = second.getByRole('region', { name: 'Install Castaway Studio' });
  await offered.getByRole('button', { name: 'Install' }).click();
  await expect(second.locator('html')).toHaveAttribute('data-install-prompted', 'yes');
  await expect(offered).toHaveCount(0);

  // Offered again later: Not now hides it, and it stays hidden on the next visits.
  await offerInstall(second);
  await offered.getByRole('button', { name: 'Not now' }).click();
  await expect(offered).toHaveCount(0);
  await second.reload();
  await expect(second.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await offerInstall(second);
  await expect(second.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(offered).toHaveCount(0);

  // 31 days after the dismissal it is offered again; once installed (appinstalled) it goes.
  await second.evaluate(() => localStorage.setItem('castaway.installDismissedAt', new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString()));
  await second.reload();
  await expect(second.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await offerInstall(second);
  await expect(offered).toBeVisible();
  await second.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
  await expect(offered).toHaveCount(0);
});
