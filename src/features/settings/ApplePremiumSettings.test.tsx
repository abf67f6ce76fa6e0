// A program's Apple Podcasts Subscriptions section as its producer meets it, against the real
// server (createApp on PGlite answering the page's fetches): offline it says the settings are on
// the server and asks nothing; an empty field shows what it inherits and whose it is; a bad ID and
// delivery switched on without the show's ID are refused at their fields; the show's page address
// is saved as its ID; a change made elsewhere meanwhile keeps what was typed, says so, and the next
// Apply replaces it.
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';

const { act } = await import('react');
const { ApplePremiumSettings } = await import('./ApplePremiumSettings.tsx');
const { loadSession } = await import('../../lib/session.ts');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, seed, seedId } = await import('../../../sync-server/seed.ts');
const { click, field, mount, offlineView, settle, signInPage, type } = await import('../../../tests/page-on-app.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');

const MORNING = seedId('program:morning');
const NEWS = seedId('network:news');
const URL_OF = `/api/v1/programs/${MORNING}/settings/apple-premium`;

let test: TestStore;
let app: ReturnType<typeof createApp>;
let cookie = '';
let sent: string[] = [];
let xsrf = '';

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 0 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  ({ cookie, sent } = await signInPage(app, ORG_DEMO));
  xsrf = ((await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken;
  await loadSession();
}, 120_000);
afterAll(async () => {
  await app?.downloads.flush();
  await test?.drop();
});
afterEach(() => {
  document.body.innerHTML = '';
});

/** A change made elsewhere (another device, the API), straight to the server. */
const elsewhere = (path: string, body: unknown) =>
  app.request(path, { method: 'PUT', headers: { cookie, 'content-type': 'application/json', 'x-organization-id': ORG_DEMO, 'x-xsrf-token': xsrf }, body: JSON.stringify(body) });

const render = () => mount(<ApplePremiumSettings level="Program" organizationId={ORG_DEMO} programId={MORNING} networkId={NEWS} />, 'Loading the Apple Podcasts settings');

async function choose(control: HTMLElement, value: string): Promise<void> {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(control, value);
    control.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const hint = (el: HTMLElement, label: string) => {
  const { control } = field(el, label);
  const id = (control.getAttribute('aria-describedby') ?? '').split(' ').find((i) => i.endsWith('-hint'));
  return id ? document.getElementById(id)!.textContent : null;
};

describe('a program’s Apple Podcasts Subscriptions section', () => {
  it('offline, says the settings are kept on the server and asks nothing', async () => {
    expect(await offlineView(render, sent)).toEqual({ status: 'The Apple Podcasts settings are kept on the server: connect to see and change them.', requests: 0 });
  });

  it('shows what an empty field inherits, refuses at the field, saves the show’s address as its ID', async () => {
    expect((await elsewhere('/api/v1/settings/apple-premium', { ProviderId: 'CastawayMedia', EarlyAccessHours: 12 })).status).toBe(200);
    const el = await render();
    expect(hint(el, 'Provider ID')).toBe("The provider ID of your Apple Podcasts Connect account. Empty: CastawayMedia (the organization's).");
    expect(hint(el, 'Early access (hours)')).toContain('Empty: 12 (the organization');

    await type(field(el, 'Subscription channel ID').control, '12ab');
    await choose(field(el, 'Delivery to Apple').control, 'on');
    await click(el, 'Apply', 250);
    expect(field(el, 'Subscription channel ID').error).toBe("Enter Apple's numeric ID (digits only, at most 19)");
    expect(field(el, 'Subscription channel ID').control.getAttribute('aria-invalid')).toBe('true');

    await type(field(el, 'Subscription channel ID').control, '6450011');
    await click(el, 'Apply', 250);
    expect(field(el, 'Apple show ID').error).toBe("Delivery to Apple needs the show's Apple ID");

    await type(field(el, 'Apple show ID').control, 'https://podcasts.apple.com/us/podcast/morning-briefing/id1234567890');
    await click(el, 'Apply', 300);
    expect(field(el, 'Apple show ID').error).toBeNull();
    const saved = (await (await app.request(URL_OF, { headers: { cookie, 'x-organization-id': ORG_DEMO } })).json()) as { ShowId: string; ChannelId: string; Enabled: boolean };
    expect(saved).toMatchObject({ ShowId: '1234567890', ChannelId: '6450011', Enabled: true });
    expect(field(el, 'Apple show ID').control.value).toBe('1234567890');
  });

  it('keeps what was typed when the settings changed elsewhere meanwhile, and Apply then replaces them', async () => {
    const el = await render();
    await type(field(el, 'Subscription channel ID').control, '6450099');
    expect((await elsewhere(URL_OF, { Enabled: false, ChannelId: '1111' })).status).toBe(200);
    await click(el, 'Apply', 300);
    expect(el.querySelector('[role="alert"]')?.textContent).toContain('changed elsewhere while you edited');
    expect(field(el, 'Subscription channel ID').control.value).toBe('6450099');
    await click(el, 'Apply', 300);
    expect(el.querySelector('[role="alert"]')).toBeNull();
    const saved = (await (await app.request(URL_OF, { headers: { cookie, 'x-organization-id': ORG_DEMO } })).json()) as { ChannelId: string };
    expect(saved.ChannelId).toBe('6450099');
    await settle();
  });
});
