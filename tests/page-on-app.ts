// A component test's page talking to the real server (createApp in this process): the page signs
// in as a demo user and its fetches go to the app with the session's cookie, as a browser's would;
// and the few ways a person uses the page (tests/dom-actions.ts: a labelled field and its error,
// typing, clicking a button). The DOM (happy-dom) must be in place before this module's helpers
// run: React is loaded on first use.
import { afterAll, beforeAll } from 'vitest';
import type { createApp } from '../sync-server/app.ts';
import { DEMO_PASSWORD, ORG_DEMO, seed } from '../sync-server/seed.ts';
import { settle } from './dom-actions.ts';
import type { TestStore } from './server/test-store.ts';

export { choose, chooseFile, click, clickOn, field, mount, mountAt, settle, settleUntil, type } from './dom-actions.ts';

/** Signs the page in and sends its fetches to the app; `sent` lists them ("GET /api/…"). */
export async function signInPage(app: ReturnType<typeof createApp>, organizationId: string, email = 'demo@example.com'): Promise<{ cookie: string; xsrf: string; sent: string[] }> {
  const { setApiOrganization, setXsrfToken } = await import('../src/lib/api.ts');
  const login = await app.request('/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: email, Password: DEMO_PASSWORD }) });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))!.split(';')[0]!;
  const xsrf = ((await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken;
  setXsrfToken(xsrf);
  setApiOrganization(organizationId);
  const sent: string[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    sent.push(`${init?.method ?? 'GET'} ${url}`);
    const headers = new Headers(init?.headers);
    headers.set('cookie', cookie);
    return app.request(url, { ...init, headers });
  };
  return { cookie, xsrf, sent };
}

export type PageOnApp = {
  test: TestStore;
  app: ReturnType<typeof createApp>;
  cookie: string;
  xsrf: string;
  /** The page's fetches, as signInPage lists them. */
  sent: string[];
  /** A request to the app as the signed-in user in the demo organization (JSON unless the headers
   * say otherwise): what the test itself asks or sets up beside the page. */
  api: (path: string, init?: RequestInit) => Promise<Response>;
  /** After the suite: the app's downloads finished and the store dropped. */
  close: () => Promise<void>;
};

/**
 * The usual start of a section's suite: a PGlite store with the demo seeded at `clips`, the app on
 * it (a memory bus) and the page signed in to it as `email` in the demo organization.
 */
export async function openPageOnApp(options: { clips: number; email?: string }): Promise<PageOnApp> {
  const { createApp: makeApp } = await import('../sync-server/app.ts');
  const { createMemoryBus } = await import('../sync-server/bus.ts');
  const { openTestStore } = await import('./server/test-store.ts');
  const test = await openTestStore('pglite');
  await seed(test.store, { clips: options.clips });
  const app = makeApp({ store: test.store, bus: createMemoryBus() });
  const { cookie, xsrf, sent } = await signInPage(app, ORG_DEMO, options.email);
  const api = async (path: string, init: RequestInit = {}) =>
    app.request(path, { ...init, headers: { cookie, 'x-organization-id': ORG_DEMO, 'x-xsrf-token': xsrf, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  const close = async () => {
    await app.downloads.flush();
    await test.drop();
  };
  return { test, app, cookie, xsrf, sent, api, close };
}

/** What a section rendered with the browser offline says (its status), and how many requests it made meanwhile. */
export async function offlineView(render: () => Promise<HTMLElement>, sent: readonly string[]): Promise<{ status: string | null; requests: number }> {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  try {
    const before = sent.length;
    const el = await render();
    await settle(300);
    return { status: el.querySelector('[role="status"]')?.textContent ?? null, requests: sent.length - before };
  } finally {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  }
}

/**
 * openPageOnApp for the whole suite: opened before its first test (up to 120 s: a loaded machine
 * seeds slowly) and closed after its last; the returned function gives the page once open.
 * `before` runs before the page opens (what the app must find: an environment variable), `ready`
 * once it is open (the suite's rows, a proxy in front of the page's fetches), `after` once it is
 * closed.
 */
export function pageOnAppForSuite(options: {
  clips: number;
  email?: string;
  before?: () => Promise<void> | void;
  ready?: (page: PageOnApp) => Promise<void> | void;
  after?: () => Promise<void> | void;
}): () => PageOnApp {
  let page: PageOnApp | undefined;
  beforeAll(async () => {
    await options.before?.();
    page = await openPageOnApp(options);
    await options.ready?.(page);
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await options.after?.();
  });
  return () => {
    if (!page) throw new Error('the suite’s page is not open yet (pageOnAppForSuite opens it before the first test)');
    return page;
  };
}
