// A component test's page talking to the real server (createApp in this process): the page signs
// in as a demo user and its fetches go to the app with the session's cookie, as a browser's would;
// and the few ways a person uses the page (tests/dom-actions.ts: a labelled field and its error,
// typing, clicking a button). The DOM (happy-dom) must be in place before this module's helpers
// run: React is loaded on first use.
import type { createApp } from '../sync-server/app.ts';
import { DEMO_PASSWORD } from '../sync-server/seed.ts';
import { settle } from './dom-actions.ts';

export { choose, click, clickOn, field, mount, settle, type } from './dom-actions.ts';

/** Signs the page in and sends its fetches to the app; `sent` lists them ("GET /api/…"). */
export async function signInPage(app: ReturnType<typeof createApp>, organizationId: string, email = 'demo@example.com'): Promise<{ cookie: string; sent: string[] }> {
  const { setApiOrganization, setXsrfToken } = await import('../src/lib/api.ts');
  const login = await app.request('/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: email, Password: DEMO_PASSWORD }) });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))!.split(';')[0]!;
  setXsrfToken(((await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken);
  setApiOrganization(organizationId);
  const sent: string[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    sent.push(`${init?.method ?? 'GET'} ${url}`);
    const headers = new Headers(init?.headers);
    headers.set('cookie', cookie);
    return app.request(url, { ...init, headers });
  };
  return { cookie, sent };
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
