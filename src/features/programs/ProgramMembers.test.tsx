// The Members section as a program's editor meets it, against the real server (createApp on
// PGlite, answering the component's fetches): offline it says members need a connection and asks
// the server nothing; a bad name and e-mail are refused at their fields before anything is sent; a
// member added appears in the list; copying a member's private feed URL, then resetting it after a
// confirmation that says the old URL stops working, gives a new URL while the old one answers 404;
// an address another member has is refused by the server and said at the e-mail field.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';
// The server runs in this Node process (in a DOM environment its modules' file URLs are not file
// URLs), so the page's DOM is a happy-dom window of its own, its parts put where React looks.
import { Window } from 'happy-dom';
const page = new Window({ url: 'http://localhost/' });
for (const key of ['window', 'document', 'navigator', 'localStorage', 'HTMLElement', 'HTMLInputElement', 'HTMLTextAreaElement', 'HTMLSelectElement', 'HTMLFormElement', 'Element', 'Node', 'Event', 'KeyboardEvent', 'MouseEvent', 'FocusEvent', 'InputEvent', 'MutationObserver', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame', 'DocumentFragment', 'ShadowRoot', 'CustomEvent', 'ResizeObserver', 'IntersectionObserver', 'DOMRect', 'matchMedia', 'CSS']) {
  const value = (page as unknown as Record<string, unknown>)[key];
  if (value !== undefined) Object.defineProperty(globalThis, key, { configurable: true, writable: true, value: typeof value === 'function' && /^[a-z]/.test(key) ? value.bind(page) : value });
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// React DOM decides at load what the page supports: loaded once the window is in place.
const { act } = await import('react');
const { createRoot } = await import('react-dom/client');
const { db } = await import('../../db/db.ts');
const { setApiOrganization, setXsrfToken } = await import('../../lib/api.ts');
const { ProgramMembers } = await import('./ProgramMembers.tsx');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { DEMO_PASSWORD, ORG_DEMO, seed, seedId } = await import('../../../sync-server/seed.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');

const PROGRAM = seedId('program:morning');
let test: TestStore;
let app: ReturnType<typeof createApp>;
let cookie = '';
let playlistId = '';
const sent: string[] = [];
const copied: string[] = [];

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  const login = await app.request('/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: 'demo@example.com', Password: DEMO_PASSWORD }) });
  cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))!.split(';')[0]!;
  setXsrfToken(((await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken);
  setApiOrganization(ORG_DEMO);
  // The page's fetches go to the app, as the browser's would go to the server (with its cookie).
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    sent.push(`${init?.method ?? 'GET'} ${url}`);
    const headers = new Headers(init?.headers);
    headers.set('cookie', cookie);
    return app.request(url, { ...init, headers });
  };
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void copied.push(text) } });
  const [playlist] = await test.store.query<{ id: string }>(`SELECT id FROM playlists WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [PROGRAM]);
  playlistId = playlist!.id;
  await db.playlists.put({ Id: playlistId, ProgramId: PROGRAM, OrganizationId: ORG_DEMO, Title: 'Main feed', Deleted: false } as never);
}, 120_000);
afterAll(async () => {
  await app?.downloads.flush();
  await test?.drop();
});
afterEach(() => {
  document.body.innerHTML = '';
});

async function settle(ms = 80): Promise<void> {
  await act(() => new Promise((r) => setTimeout(r, ms)));
}

async function render(): Promise<HTMLElement> {
  const el = document.createElement('div');
  document.body.append(el);
  await act(async () => createRoot(el).render(<ProgramMembers programId={PROGRAM} />));
  for (let i = 0; i < 20 && el.textContent?.includes('Loading members'); i++) await settle(100);
  return el;
}

function field(el: HTMLElement, label: string): { control: HTMLInputElement; error: string | null } {
  const labelEl = [...el.querySelectorAll('label')].find((l) => l.textContent === label);
  if (!labelEl) throw new Error(`no field labelled ${label}`);
  const control = el.ownerDocument.getElementById(labelEl.htmlFor) as HTMLInputElement;
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return { control, error: ids.length > 0 ? el.ownerDocument.getElementById(ids[0]!)!.textContent : null };
}

async function type(control: HTMLInputElement, value: string): Promise<void> {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(control, value);
    control.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function click(root: ParentNode, name: string): Promise<void> {
  const button = [...root.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!button) throw new Error(`no button ${name}`);
  await act(async () => button.click());
  await settle(150);
}

describe('the Members section', () => {
  it('offline, says members need a connection and asks the server nothing', async () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const before = sent.length;
      const el = await render();
      await settle(300);
      expect(el.querySelector('[role="status"]')!.textContent).toBe('Members are kept on the server: connect to the internet to see or change them.');
      expect(sent.length).toBe(before);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('refuses a bad member at its fields, adds a good one, and resets its private feed URL after saying the old one stops working', async () => {
    const el = await render();
    expect(el.textContent).toContain('No members yet.');
    const before = sent.length;
    await type(field(el, 'E-mail address').control, 'not an address');
    await click(el, 'Add member');
    expect(field(el, 'Name').error).toBe('You must enter a name');
    expect(field(el, 'E-mail address').error).toBe('"not an address" is not a valid email address');
    expect(field(el, 'Name').control.getAttribute('aria-invalid')).toBe('true');
    expect(sent.slice(before)).toEqual([]);

    await type(field(el, 'Name').control, 'Ada Listener');
    await type(field(el, 'E-mail address').control, 'ada@example.com');
    await click(el, 'Add member');
    await settle(400);
    const row = el.querySelector<HTMLElement>('li[aria-label="Ada Listener"]')!;
    expect(row.textContent).toContain('ada@example.com');

    await click(row, 'Copy private feed URL');
    const first = copied.at(-1)!;
    expect(first).toMatch(new RegExp(`/feeds/${playlistId}/members/[A-Za-z0-9_-]{32}\\.xml$`));
    expect((await app.request(first)).status).toBe(200);

    await click(row, 'Reset URL');
    const dialog = document.querySelector<HTMLElement>('[role="alertdialog"]')!;
    expect(dialog.textContent).toContain('The old URL stops working at once');
    await click(dialog, 'Reset URL');
    await settle(300);
    await click(el.querySelector<HTMLElement>('li[aria-label="Ada Listener"]')!, 'Copy private feed URL');
    const second = copied.at(-1)!;
    expect(second).not.toBe(first);
    expect((await app.request(first)).status).toBe(404);
    expect((await app.request(second)).status).toBe(200);
  });

  it('says at the e-mail field that another member has the address, when adding and when editing', async () => {
    const el = await render();
    const add = async (name: string, email: string) => {
      await type(field(el, 'Name').control, name);
      await type(field(el, 'E-mail address').control, email);
      await click(el, 'Add member');
      await settle(300);
    };
    await add('Bea Twin', 'bea@example.com');
    expect(el.querySelector('li[aria-label="Bea Twin"]')).not.toBeNull();
    await add('Bea Again', '  BEA@example.com ');
    const email = field(el, 'E-mail address');
    expect(email.error).toBe('Another member of this program already has this email address.');
    expect(email.control.getAttribute('aria-invalid')).toBe('true');
    expect(field(el, 'Name').error).toBeNull();
    expect(el.querySelector('li[aria-label="Bea Again"]')).toBeNull();

    await add('Cy Other', 'cy@example.com');
    const row = el.querySelector<HTMLElement>('li[aria-label="Cy Other"]')!;
    await click(row, 'Edit');
    const form = [...el.querySelectorAll<HTMLElement>('li')].find((li) => li.querySelector('form'))!;
    expect(form.querySelector('h3')!.textContent).toBe('Edit member');
    await type(field(form, 'E-mail address').control, 'Bea@Example.com');
    await click(form, 'Save');
    await settle(200);
    expect(field(form, 'E-mail address').error).toBe('Another member of this program already has this email address.');
  });
});
