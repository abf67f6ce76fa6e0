// A component test's page talking to the real server (createApp in this process): the page signs
// in as a demo user and its fetches go to the app with the session's cookie, as a browser's would;
// and the few ways a person uses the page (a labelled field and its error, typing, clicking a
// button). The DOM (happy-dom) must be in place before this module's helpers run: React is loaded
// on first use.
import type { ReactNode } from 'react';
import type { createApp } from '../sync-server/app.ts';
import { DEMO_PASSWORD } from '../sync-server/seed.ts';

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

/** Lets timers and answers run, inside act. */
export async function settle(ms = 80): Promise<void> {
  const { act } = await import('react');
  await act(() => new Promise((r) => setTimeout(r, ms)));
}

/** A labelled control inside `root`, and the error it is described by. */
export function field(root: ParentNode, label: string): { control: HTMLInputElement; error: string | null } {
  const labelEl = [...root.querySelectorAll('label')].find((l) => l.textContent === label);
  if (!labelEl) throw new Error(`no field labelled ${label}`);
  const control = document.getElementById(labelEl.htmlFor) as HTMLInputElement;
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return { control, error: ids.length > 0 ? document.getElementById(ids[0]!)!.textContent : null };
}

/** Types into an input or a text area as a person would (React sees an input event). */
export async function type(control: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  const { act } = await import('react');
  await act(async () => {
    const proto = control instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(control, value);
    control.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Clicks the button named `name` inside `root`, and lets its answer arrive. */
export async function click(root: ParentNode, name: string, wait = 150): Promise<void> {
  const { act } = await import('react');
  const button = [...root.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!button) throw new Error(`no button ${name}`);
  await act(async () => button.click());
  await settle(wait);
}

/** Renders `node` in a new element of the page, and waits while it shows `loading`. */
export async function mount(node: ReactNode, loading: string): Promise<HTMLElement> {
  const { act } = await import('react');
  const { createRoot } = await import('react-dom/client');
  const el = document.createElement('div');
  document.body.append(el);
  await act(async () => createRoot(el).render(node));
  for (let i = 0; i < 20 && el.textContent?.includes(loading); i++) await settle(100);
  return el;
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
