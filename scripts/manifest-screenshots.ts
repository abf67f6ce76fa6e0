// Remakes the web manifest's screenshots (public/screenshots, named in vite.config.ts): the demo
// organization's first program on a desktop (1280×800, form_factor wide) and one of its clips on a
// phone (390×844, narrow), in the light theme, signed in as the demo user.
//
//   npm start                                   (another terminal: the server with the demo)
//   node --import tsx scripts/manifest-screenshots.ts [http://localhost:8787]
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { DEMO, openFirstClip } from '../tests/e2e/support.ts';

const BASE = process.argv[2] ?? 'http://localhost:8787';

async function signedIn(browser: Browser, viewport: { width: number; height: number }, isMobile: boolean): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, viewport, isMobile, hasTouch: isMobile, deviceScaleFactor: 1, colorScheme: 'light', locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor({ timeout: 60_000 });
  return page;
}

/** Waits for the sync badge's 'All changes saved', then for the page to stop moving. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByText('All changes saved').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(500);
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const wide = await signedIn(browser, { width: 1280, height: 800 }, false);
  const { organizationId, programId } = await openFirstClip(wide, 2);
  await wide.goto(`/${organizationId}/programs/${programId}`);
  await wide.getByTestId('clip-list').waitFor();
  await settled(wide);
  await wide.screenshot({ path: 'public/screenshots/wide.png' });

  const narrow = await signedIn(browser, { width: 390, height: 844 }, true);
  await openFirstClip(narrow, 2);
  await settled(narrow);
  await narrow.screenshot({ path: 'public/screenshots/narrow.png' });
  console.log('public/screenshots/wide.png and narrow.png written');
} finally {
  await browser.close();
}
