// The Members section as a program's editor meets it, against the real server (createApp on
// PGlite, answering the component's fetches): offline it says members need a connection and asks
// the server nothing; a bad name and e-mail are refused at their fields before anything is sent; a
// member added appears in the list; copying a member's private feed URL, then resetting it after a
// confirmation that says the old URL stops working, gives a new URL while the old one answers 404;
// an address another member has is refused by the server and said at the e-mail field.
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';

// Loaded after the window is in place: React DOM decides at load what the page supports.
const { db } = await import('../../db/db.ts');
const { ProgramMembers } = await import('./ProgramMembers.tsx');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, seed, seedId } = await import('../../../sync-server/seed.ts');
const { click, field, mount, offlineView, settle, signInPage, type } = await import('../../../tests/page-on-app.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');

const PROGRAM = seedId('program:morning');
let test: TestStore;
let app: ReturnType<typeof createApp>;
let playlistId = '';
let sent: string[] = [];
const copied: string[] = [];

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  ({ sent } = await signInPage(app, ORG_DEMO));
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

const render = () => mount(<ProgramMembers programId={PROGRAM} />, 'Loading members');

describe('the Members section', () => {
  it('offline, says members need a connection and asks the server nothing', async () => {
    expect(await offlineView(render, sent)).toEqual({ status: 'Members are kept on the server: connect to the internet to see or change them.', requests: 0 });
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
