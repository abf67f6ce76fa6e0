// Billing & features against the real server (createApp on PGlite, answering the screen's fetches):
// offline it says billing is on the server and asks nothing; the admin sees the plan, the usage the
// server measured and the invoices; a cap the server refuses shows its reason at the field, and one
// it takes is saved and shown in the usage; a support user is told billing is for admins.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { createApp } from '../../../sync-server/app.ts';
import type { TestStore } from '../../../tests/server/test-store.ts';
import type { BillingUsage } from '../../protocol/api/billing.ts';

const { BillingScreen } = await import('./BillingScreen.tsx');
const { createApp: makeApp } = await import('../../../sync-server/app.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { ORG_DEMO, seed } = await import('../../../sync-server/seed.ts');
const { click, field, mount, offlineView, signInPage, type } = await import('../../../tests/page-on-app.ts');
const { openTestStore } = await import('../../../tests/server/test-store.ts');

let test: TestStore;
let app: ReturnType<typeof createApp>;
let cookie = '';
let sent: string[] = [];

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 6 });
  app = makeApp({ store: test.store, bus: createMemoryBus() });
  ({ cookie, sent } = await signInPage(app, ORG_DEMO, 'admin@example.com'));
}, 120_000);
afterAll(async () => {
  await test?.drop();
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = () => mount(<BillingScreen />, 'Loading billing…');
const usageOnServer = async () => (await (await app.request('/api/internal/billing/usage', { headers: { cookie, 'x-organization-id': ORG_DEMO } })).json()) as BillingUsage;
const rowCells = (el: HTMLElement, name: string) => [...([...el.querySelectorAll('tbody tr')].find((r) => r.querySelector('th')?.textContent === name)?.querySelectorAll('td') ?? [])].map((c) => c.textContent);

describe('Billing & features', () => {
  it('offline, says billing is kept on the server and asks it nothing', async () => {
    expect(await offlineView(render, sent)).toEqual({ status: 'Billing is kept on the server: connect to the network to see or change it.', requests: 0 });
  });

  it('shows the plan, the usage the server measured and this month’s invoice', async () => {
    const el = await render();
    // The demo organization's plan as the seed writes it (sync-server/billing/demo.ts).
    expect(el.querySelector<HTMLInputElement>('input[type="radio"][value="Broadcast"]')?.checked).toBe(true);
    const usage = await usageOnServer();
    const seats = usage.Measures.find((m) => m.Measure === 'Seats')!;
    // The demo's seats: its members holding permissions, not admin or support staff.
    const [members] = await test.store.query<{ n: string }>(
      `SELECT count(*) AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND NOT u.is_admin_or_support AND jsonb_array_length(m.permissions) > 0`,
      [ORG_DEMO],
    );
    expect(seats.Used).toBe(Number(members!.n));
    expect(rowCells(el, 'Seats')).toEqual([String(seats.Used), String(seats.Allowance), `${seats.Percent} %`]);
    expect(el.textContent).toContain(`Usage in ${usage.Period.Id}`);
    expect([...el.querySelectorAll('button')].some((b) => b.textContent === `Open invoice ${usage.Period.Id}`)).toBe(true);
  });

  it('a cap the server refuses shows its reason at the field; one it takes is saved and shown', async () => {
    const el = await render();
    const label = 'Transcription minutes: most units billed beyond the allowance';
    await type(field(el, label).control, '-5');
    await click(el.querySelector('form[data-add-on="TranscriptionMinutes"]')!, 'Save cap', 400);
    expect(field(el, label).error).toBe('Enter a whole number from 0 to 10000000');
    await type(field(el, label).control, '0');
    await click(el.querySelector('form[data-add-on="TranscriptionMinutes"]')!, 'Save cap', 400);
    expect(el.textContent).toContain('Cap saved.');
    const usage = await usageOnServer();
    expect(usage.Measures.find((m) => m.Measure === 'TranscriptionMinutes')).toMatchObject({ MaxOverage: 0 });
  });

  it('a support user is told billing is for admins', async () => {
    ({ sent } = await signInPage(app, ORG_DEMO, 'support@example.com'));
    const el = await render();
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('Only admins see billing.');
  });
});
