// The enterprise screens against the real server (createApp on PGlite, answering the page's
// fetches), signed in as the demo reseller: the list shows its own enterprise only; an enterprise
// shows its organizations, users and sales codes; an unknown enterprise, and an organization the
// enterprise does not hold, are their not-found pages; an enterprise organization's notes are
// refused at the field when too long, saved, and a change made meanwhile by someone else is shown,
// not overwritten; offline the list says it needs the connection and asks nothing.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';

const { EnterprisesScreen } = await import('./EnterprisesScreen.tsx');
const { EnterpriseScreen } = await import('./EnterpriseScreen.tsx');
const { EnterpriseOrganizationScreen } = await import('./EnterpriseOrganizationScreen.tsx');
const { Route, Router } = await import('../../lib/router.ts');
const { ENTERPRISE_NOTES_MAX_LENGTH } = await import('../../domain/enterprises.ts');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, ORG_PODCASTS, seed } = await import('../../../sync-server/seed.ts');
const { DEMO_ENTERPRISE, OTHER_ENTERPRISE } = await import('../../../sync-server/enterprises/demo.ts');
const { click, field, mount, offlineView, settle, signInPage, type } = await import('../../../tests/page-on-app.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');

let test: TestStore;
let app: ReturnType<typeof createApp>;
let sent: string[] = [];

beforeAll(async () => {
  // The not-found pages link home from the page's own address.
  Object.defineProperty(globalThis, 'location', { configurable: true, value: window.location });
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 4 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  ({ sent } = await signInPage(app, ORG_PODCASTS, 'reseller@example.com'));
}, 120_000);
afterAll(async () => {
  await test?.drop();
});
afterEach(() => {
  document.body.innerHTML = '';
});

/** The screen at `path`, as SignedIn.tsx routes it. */
const at = (path: string) => {
  const { hook } = memoryLocation({ path });
  return mount(
    <Router hook={hook}>
      <Route path="/enterprises">
        <EnterprisesScreen />
      </Route>
      <Route path="/enterprises/:enterpriseId">
        <EnterpriseScreen />
      </Route>
      <Route path="/enterprises/:enterpriseId/organizations/:organizationId">
        <EnterpriseOrganizationScreen />
      </Route>
    </Router>,
    'Loading…',
  );
};
const texts = (root: ParentNode, selector: string) => [...root.querySelectorAll(selector)].map((e) => e.textContent);

describe('the enterprise screens', () => {
  it('list only the reseller’s own enterprise, with its counts', async () => {
    const el = await at('/enterprises');
    expect(texts(el, '.enterprise-card-title')).toEqual(['Castaway Demo Group']);
    expect(el.querySelector('.enterprise-card a')?.getAttribute('href')).toBe(`/enterprises/${DEMO_ENTERPRISE}`);
    expect(el.querySelector('.enterprise-counts')?.textContent).toBe('Organizations: 1Users: 1');
  });

  it('offline, the list says it needs the connection and asks nothing', async () => {
    expect(await offlineView(() => at('/enterprises'), sent)).toEqual({ status: 'Enterprises are kept on the server: connect to the internet to see and change them.', requests: 0 });
  });

  it('an enterprise shows its organizations with Open and Details, its users and its sales codes', async () => {
    const el = await at(`/enterprises/${DEMO_ENTERPRISE}`);
    await settle(300);
    expect(el.querySelector('h1')?.textContent).toBe('Castaway Demo Group');
    const card = el.querySelector('.enterprise-card')!;
    expect(card.querySelector('h3')?.textContent).toBe('Castaway Demo Radio');
    expect(texts(card, '.pill')).toEqual(['Group Standard']);
    expect(texts(card, 'button, a.button')).toEqual(['Open', 'Details']);
    expect(texts(el, '[aria-label="Users"] li')).toEqual(['Robin Reseller reseller@example.com']);
    expect(texts(el, '[aria-label="Sales codes"] li')).toEqual(['CASTAWAY-DEMO Owned by Robin Reseller', 'RETIRED-2024 No one owns it']);
  });

  it('an enterprise that is not the reseller’s, or none, is "Enterprise not found"; an organization it does not hold "Enterprise organization not found"', async () => {
    for (const path of [`/enterprises/${OTHER_ENTERPRISE}`, `/enterprises/${crypto.randomUUID()}`, `/enterprises/${OTHER_ENTERPRISE}/organizations/${ORG_PODCASTS}`]) {
      const el = await at(path);
      await settle(200);
      expect(el.querySelector('h1')?.textContent, path).toBe('Enterprise not found');
      document.body.innerHTML = '';
    }
    for (const path of [`/enterprises/${DEMO_ENTERPRISE}/organizations/${ORG_PODCASTS}`, `/enterprises/${DEMO_ENTERPRISE}/organizations/not-an-id`]) {
      const el = await at(path);
      await settle(200);
      expect(el.querySelector('h1')?.textContent, path).toBe('Enterprise organization not found');
      document.body.innerHTML = '';
    }
  });

  it('an enterprise organization’s notes: too long is refused at the field, saved, and a change made meanwhile is shown, not overwritten', async () => {
    const path = `/enterprises/${DEMO_ENTERPRISE}/organizations/${ORG_DEMO}`;
    const el = await at(path);
    await settle(200);
    expect(el.querySelector('h1')?.textContent).toBe('Castaway Demo Radio');
    const before = sent.length;
    await type(field(el, 'Notes').control, 'x'.repeat(ENTERPRISE_NOTES_MAX_LENGTH + 1));
    await click(el, 'Save');
    expect(field(el, 'Notes').error).toBe(`Must be ${ENTERPRISE_NOTES_MAX_LENGTH} characters or shorter`);
    expect(sent.slice(before).filter((s) => s.startsWith('PATCH'))).toEqual([]);

    await type(field(el, 'Notes').control, 'Renews in March.');
    await type(field(el, 'Name in the enterprise').control, 'Demo Radio North');
    await click(el, 'Save', 300);
    expect(el.querySelector('[role="status"].alert')?.textContent).toBe('Saved.');
    expect(el.querySelector('h1')?.textContent).toBe('Demo Radio North');
    const [row] = await test.store.query<{ notes: string; display_name: string }>(`SELECT notes, display_name FROM enterprise_organizations WHERE organization_id = $1`, [ORG_DEMO]);
    expect(row).toEqual({ notes: 'Renews in March.', display_name: 'Demo Radio North' });

    // Someone else changes the plan meanwhile: this form's next save is refused and shows theirs.
    await new Promise((r) => setTimeout(r, 5));
    await test.store.query(`UPDATE enterprise_organizations SET plan_label = 'Enterprise', modified_at_utc = now() WHERE organization_id = $1`, [ORG_DEMO]);
    await type(field(el, 'Notes').control, 'Mine, on the old version');
    await click(el, 'Save', 300);
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('Someone changed this organization while you were editing: what is saved now is shown. Make your change again.');
    expect(field(el, 'Plan').control.value).toBe('Enterprise');
    expect(field(el, 'Notes').control.value).toBe('Renews in March.');
    const [after] = await test.store.query<{ notes: string }>(`SELECT notes FROM enterprise_organizations WHERE organization_id = $1`, [ORG_DEMO]);
    expect(after!.notes).toBe('Renews in March.');
  });
});
