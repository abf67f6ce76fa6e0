// `npm run bench:app`: what a podcaster feels on a phone-class machine.
//   1. gzip size of the JS the first screen needs (login for a new visitor; the organization home
//      for a returning, signed-in one), measured from the responses Chromium actually loads.
//   2. warm offline start to interactive: the studio was opened before, the network is gone, the
//      page reloads from the service worker until 'Manage audio', a program and the sync status
//      saying Offline are on screen (timed in the page: MARK_INTERACTIVE).
//   3. the clip list at 10,000 clips: frame times while scrolling the page through the virtualised list.
// Prints `bench: <metric> = <number> <unit>` lines with the ratio to their target; never pass/fail.
// Needs dist/ (npm run build). Starts the real server on a temp data folder unless BENCH_BASE_URL is set.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../tests/e2e/own-server.ts';
import { sized, TINY } from './tiny.ts';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const TARGET_JS_KB = 180;
const TARGET_OFFLINE_START_MS = 1000;
const TARGET_FRAME_MS = 16.7;

function line(metric: string, value: number, unit: string, target?: number) {
  const ratio = target ? `  (${(value / target).toFixed(2)}× target ${target} ${unit})` : '';
  console.log(`bench: ${metric} = ${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}${ratio}`);
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  if (process.env.BENCH_BASE_URL) return { url: process.env.BENCH_BASE_URL, stop: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'castaway-bench-'));
  const port = await freePort();
  // A tiny run seeds a small demo (bench/tiny.ts); a full one the demo as `npm start` seeds it.
  const demo = TINY ? { CASTAWAY_DEMO_CLIPS: '40', CASTAWAY_DEMO_LISTENER_DAYS: '0' } : {};
  const child: ChildProcess = spawn('node', ['--import', 'tsx', 'sync-server/main.ts'], { env: { ...process.env, ...demo, PORT: String(port), CASTAWAY_DATA_DIR: dir }, stdio: 'ignore' });
  const url = `http://localhost:${port}`;
  let up = false;
  for (let i = 0; i < 240 && !up; i++) {
    up = (await fetch(`${url}/api/internal/session`).catch(() => null))?.ok === true;
    if (!up) await new Promise((r) => setTimeout(r, 500));
  }
  if (!up) {
    child.kill('SIGTERM');
    throw new Error(`the server did not answer at ${url} within 2 minutes`);
  }
  return {
    url,
    stop: () => {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** gzip bytes of every JS response the page loads while `action` runs. */
async function jsGzipBytes(page: Page, action: () => Promise<void>): Promise<{ bytes: number; files: number }> {
  const bodies: Promise<Buffer | null>[] = [];
  const onResponse = (res: import('playwright-core').Response) => {
    if (res.url().endsWith('.js') && !res.url().includes('sync.worker')) bodies.push(res.body().catch(() => null));
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const all = (await Promise.all(bodies)).filter((b): b is Buffer => b !== null);
  return { bytes: all.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0), files: all.length };
}

async function logIn(page: Page, url: string) {
  await page.goto(url);
  await page.getByLabel('Email').fill('demo@example.com');
  await page.getByLabel('Password').fill('castaway-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

async function firstScreenJs(browser: Browser, url: string) {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const login = await jsGzipBytes(page, async () => {
    await page.goto(url);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
  });
  line('first_screen_js_gzip_login', Math.round(login.bytes / 102.4) / 10, 'KB', TARGET_JS_KB);
  await logIn(page, url);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('heading', { name: 'Manage audio' }).waitFor();
  const home = page.url();
  const signedIn = await jsGzipBytes(page, async () => {
    await page.goto(home);
    await page.getByRole('heading', { name: 'Manage audio' }).waitFor();
  });
  line('first_screen_js_gzip_signed_in_home', Math.round(signedIn.bytes / 102.4) / 10, 'KB', TARGET_JS_KB);
  await ctx.close();
  return home;
}

/**
 * In the page, from its first script: the moment (performance.now(), from navigation start) of
 * the first frame after the DOM holds the organization home's heading, a program link and the
 * sync status saying Offline. Timed by the page itself: Playwright's waiting, which polls from
 * outside, added about 450 ms on this machine (the frame came 1-14 ms after the commit; Playwright
 * saw it 400-500 ms later). A string, not a function: tsx wraps a function's inner functions in a
 * helper the page does not have.
 */
const MARK_INTERACTIVE = `(() => {
  const observer = new MutationObserver(() => {
    if (window.__committedAt !== undefined) return;
    const heading = [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Manage audio');
    const program = document.querySelector('section[aria-labelledby="home-programs"] a') !== null;
    const offline = [...document.querySelectorAll('nav [role="status"]')].some((s) => (s.textContent || '').includes('Offline'));
    if (heading && program && offline) {
      observer.disconnect();
      window.__committedAt = performance.now();
      // On screen: the frame after the commit.
      requestAnimationFrame(() => { window.__interactiveAt = performance.now(); });
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

async function warmOfflineStart(browser: Browser, url: string) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await ctx.addInitScript(MARK_INTERACTIVE);
  const page = await ctx.newPage();
  await logIn(page, url);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('heading', { name: 'Manage audio' }).waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload(); // warm: controlled by the service worker, caches filled
  await page.getByRole('heading', { name: 'Manage audio' }).waitFor();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(3000); // let the first pull finish writing
  await ctx.setOffline(true);
  const times: number[] = [];
  for (let i = 0; i < sized(7, 1); i++) {
    await page.reload();
    await page.getByRole('heading', { name: 'Manage audio' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('status').filter({ hasText: 'Offline' }).waitFor();
    await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().waitFor({ timeout: 10_000 }).catch(async (e: unknown) => {
      await page.screenshot({ path: '/tmp/bench-fail.png' });
      throw e;
    });
    await page.waitForFunction(() => (window as unknown as { __interactiveAt?: number }).__interactiveAt !== undefined, undefined, { timeout: 10_000 });
    times.push(await page.evaluate(() => (window as unknown as { __interactiveAt: number }).__interactiveAt));
  }
  times.sort((a, b) => a - b);
  line('warm_offline_start_to_interactive_median', times[Math.floor(times.length / 2)]!, 'ms', TARGET_OFFLINE_START_MS);
  line('warm_offline_start_to_interactive_worst', times[times.length - 1]!, 'ms', TARGET_OFFLINE_START_MS);
  await ctx.close();
}

/** Adds clips to the local store of one program until it holds 10,000 (a tiny run: 300), then scrolls the list. */
const LIST_CLIPS = sized(10_000, 300);
async function clipListAt10k(browser: Browser, url: string) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await logIn(page, url);
  await page.getByRole('list').getByRole('link').first().click();
  await page.getByRole('region', { name: 'Programs' }).getByRole('link').first().click();
  await page.getByTestId('clip-list').getByRole('link').first().waitFor();
  const [, organizationId, , programId] = new URL(page.url()).pathname.split('/');
  await page.waitForTimeout(3000); // let the first pull finish
  const total = await page.evaluate(
    async ({ organizationId, programId, listClips }) => {
      const open = indexedDB.open('castaway');
      const idb: IDBDatabase = await new Promise((ok, fail) => {
        open.onsuccess = () => ok(open.result);
        open.onerror = () => fail(open.error);
      });
      const count: number = await new Promise((ok) => {
        const r = idb.transaction('clips').objectStore('clips').index('ProgramId').count(programId);
        r.onsuccess = () => ok(r.result);
      });
      const tx = idb.transaction('clips', 'readwrite');
      const store = tx.objectStore('clips');
      const now = Date.now();
      for (let i = count; i < listClips; i++) {
        const at = new Date(now - i * 60_000).toISOString();
        store.put({
          Id: crypto.randomUUID(), OrganizationId: organizationId, ProgramId: programId, Title: `Bench clip ${i}`, Season: 1 + (i % 9), Episode: i,
          State: 'Draft', PublishState: 'Unpublished', Visibility: 'Private', CreatedAtUtc: at, ModifiedAtUtc: at, Deleted: false, Version: 0, Tags: [], Urls: {},
        });
      }
      await new Promise((ok) => (tx.oncomplete = ok));
      return Math.max(count, listClips);
    },
    { organizationId: organizationId!, programId: programId!, listClips: LIST_CLIPS },
  );
  await page.reload(); // Dexie's live queries do not see raw IndexedDB writes
  await page.getByText(`${total.toLocaleString('en-US')} clips`).waitFor({ timeout: 30_000 });
  // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
  const result = (await page.evaluate(`(async () => {
    const list = document.querySelector('[data-testid="clip-list"]');
    const frames = [];
    let last = performance.now();
    const end = last + ${sized(3000, 300)};
    await new Promise((done) => {
      function step(t) {
        frames.push(t - last);
        last = t;
        window.scrollBy(0, 100);
        if (t < end) requestAnimationFrame(step);
        else done();
      }
      requestAnimationFrame(step);
    });
    frames.sort((a, b) => a - b);
    return { p95: frames[Math.floor(frames.length * 0.95)], median: frames[Math.floor(frames.length / 2)], rows: list.querySelectorAll('li').length };
  })()`)) as { p95: number; median: number; rows: number };
  line('clip_list_10k_scroll_100px_per_frame_p95', result.p95, 'ms', TARGET_FRAME_MS);
  line('clip_list_10k_scroll_100px_per_frame_median', result.median, 'ms', TARGET_FRAME_MS);
  line('clip_list_10k_rows_in_dom', result.rows, 'rows');
  await ctx.close();
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  await firstScreenJs(browser, server.url);
  await warmOfflineStart(browser, server.url);
  await clipListAt10k(browser, server.url);
} finally {
  await browser.close();
  server.stop();
}
