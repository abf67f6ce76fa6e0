// Billing & features, the subscription and the staff config (issue 33), on both stores, with a real
// SMTP server on 127.0.0.1. A station of its own is planted with rows of known sizes (clips and a
// recording of known durations, counted downloads in two months, members, transcriptions finished in
// two months), so every measured number below is the seeded rows' and every amount is the plan's
// price plus what the rows cost beyond it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allPermissions } from '../../src/domain/permissions.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { sendDueNotices } from '../../sync-server/billing/notices.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import type { Billing, BillingUsage, Invoice, AddOnUsage, Subscription, NotificationSettings } from '../../src/protocol/api/billing.ts';
import type { ConfigSection, OrganizationConfig } from '../../src/protocol/api/config.ts';
import { AppClient, fields } from './app-client.ts';
import { openMailApp, type MailApp } from './mail-app.ts';
import { storeKinds } from './test-store.ts';
import type { Queryable } from '../../sync-server/store/store.ts';

const ORG = '6a1b0000-0000-4000-8000-00000000b111';
const PROGRAM = '6a1b0000-0000-4000-8000-00000000b112';
const CREATED = new Date('2025-04-10T08:00:00.000Z');
const JUNE = (day: number) => new Date(Date.UTC(2025, 5, day, 10));
const MAY = (day: number) => new Date(Date.UTC(2025, 4, day, 10));

const id = (n: number) => `6a1b0000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function plantStation(q: Queryable): Promise<void> {
  const row = `created_at_utc, modified_at_utc, version`;
  await q.query(`INSERT INTO organizations (id, organization_id, name, provider, ${row}) VALUES ($1, $1, 'Billing Test Station', 'Podcaster', $2, $2, next_row_version())`, [ORG, CREATED]);
  await q.query(`INSERT INTO programs (id, organization_id, name, slug, ${row}) VALUES ($1, $2, 'Ledger Hour', 'ledger-hour', $3, $3, next_row_version())`, [PROGRAM, ORG, CREATED]);
  // Stored audio: 1800 s + 5400 s of clips and a 3600 s recording = 3 hours; a deleted clip's hour
  // and a clip without audio do not count. Files: 10 MB + 30 MB.
  const clips: Array<[number, Record<string, unknown>, boolean]> = [
    [1, { DurationSeconds: 1800, PublishedAudioSizeInBytes: 10_000_000 }, false],
    [2, { DurationSeconds: 5400, PublishedAudioSizeInBytes: 30_000_000 }, false],
    [3, { DurationSeconds: 3600, PublishedAudioSizeInBytes: 20_000_000 }, true],
    [4, { DurationSeconds: null }, false],
  ];
  for (const [n, data, deleted] of clips) {
    await q.query(
      `INSERT INTO clips (id, organization_id, program_id, title, state, publish_state, visibility, data, deleted, ${row}) VALUES ($1, $2, $3, $4, 'Ready', 'Unpublished', 'Public', $5::jsonb, $6, $7, $7, next_row_version())`,
      [id(n), ORG, PROGRAM, `Clip ${n}`, JSON.stringify(data), deleted, CREATED],
    );
  }
  await q.query(`INSERT INTO recordings (id, organization_id, program_id, title, state, data, ${row}) VALUES ($1, $2, $3, 'Take one', 'Finalized', $4::jsonb, $5, $5, next_row_version())`, [
    id(10),
    ORG,
    PROGRAM,
    JSON.stringify({ DurationSeconds: 3600 }),
    CREATED,
  ]);
  // Downloads: 7 counted in June, 2 in May.
  for (const [n, at] of [...Array.from({ length: 7 }, (_, i) => [i, JUNE(1 + i)] as const), [7, MAY(3)] as const, [8, MAY(30)] as const]) {
    await q.query(`INSERT INTO counted_downloads (organization_id, program_id, clip_id, counted_at_utc, listener_hash, media_type, app, device, os, country, source) VALUES ($1, $2, $3, $4, $5, 'Audio', 'Unknown', 'Unknown', 'Unknown', 'ZZ', 'feed')`, [
      ORG,
      PROGRAM,
      id(1),
      at,
      `listener-${n}`,
    ]);
  }
  // Seats: demo@ and analyst@ (members here), and three people of its own; not admin@ or support@
  // (staff), not a member without permissions, not a deleted account.
  const members = await q.query<{ id: string; email: string }>(`SELECT id, email FROM users WHERE email IN ('demo@example.com', 'analyst@example.com', 'admin@example.com', 'support@example.com')`);
  const flags = (email: string) =>
    email === 'analyst@example.com' ? { HasAnalyticsAccess: true } : email === 'support@example.com' ? { HasContentAccess: true, HasAuditAccess: true } : allPermissions();
  const people = [
    ...members.map((m) => ({ id: m.id, permissions: [{ ObjectType: 'Organization', ObjectId: ORG, Permissions: flags(m.email) }] })),
    ...[20, 21, 22].map((n) => ({ id: id(n), permissions: [{ ObjectType: 'Program', ObjectId: PROGRAM, Permissions: { HasContentAccess: true } }], make: true })),
    { id: id(23), permissions: [], make: true },
    { id: id(24), permissions: [{ ObjectType: 'Program', ObjectId: PROGRAM, Permissions: { HasContentAccess: true } }], make: true, deleted: true },
  ];
  for (const p of people) {
    if ('make' in p) {
      await q.query(`INSERT INTO users (id, email, name, password_hash, deleted, ${row}) VALUES ($1, $2, $3, 'x', $4, $5, $5, next_row_version())`, [p.id, `seat-${p.id.slice(-2)}@station.example`, `Seat ${p.id.slice(-2)}`, 'deleted' in p, CREATED]);
    }
    await q.query(`INSERT INTO memberships (organization_id, user_id, permissions, ${row}) VALUES ($1, $2, $3::jsonb, $4, $4, next_row_version())`, [ORG, p.id, JSON.stringify(p.permissions), CREATED]);
  }
  // Transcriptions: 4500 s (75 minutes) finished in June, 600 s in May, a failed one in June.
  const transcription = `INSERT INTO transcriptions (clip_id, recording_id, organization_id, language, engine, status, audio_seconds, requested_at_utc, finished_at_utc) VALUES ($1, $2, $3, 'en', 'pocketsphinx', $4, $5, $6, $6)`;
  await q.query(transcription, [id(1), null, ORG, 'Completed', 4500, JUNE(2)]);
  await q.query(transcription, [id(2), null, ORG, 'Completed', 600, MAY(20)]);
  await q.query(transcription, [null, id(10), ORG, 'Failed', 3600, JUNE(3)]);
}

const measured = (usage: BillingUsage) => Object.fromEntries(usage.Measures.map((m) => [m.Measure, m.Used]));

describe.each(storeKinds)('billing & features on %s', (kind) => {
  let opened: MailApp;
  const clients = new Map<string, AppClient>();
  beforeAll(async () => {
    opened = await openMailApp(kind, { clips: 12 });
    await opened.t.store.tx(plantStation);
    for (const email of ['admin@example.com', 'support@example.com', 'demo@example.com', 'analyst@example.com', 'producer@example.com']) {
      const client = new AppClient(opened.app);
      await client.login(email);
      client.organizationId = email === 'producer@example.com' ? ORG_DEMO : ORG;
      clients.set(email, client);
    }
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });
  const as = (email: string) => clients.get(email)!;
  const admin = () => as('admin@example.com');

  it('measures the month’s usage from the station’s rows', async () => {
    const reply = await admin().get('/api/internal/billing/usage');
    expect(reply.status, reply.text).toBe(200);
    const usage = reply.body as BillingUsage;
    expect(usage.Period).toEqual({ Id: '2025-06', StartUtc: '2025-06-01T00:00:00.000Z', EndUtc: '2025-07-01T00:00:00.000Z' });
    expect(measured(usage)).toEqual({ StoredAudioHours: 3, Downloads: 7, Seats: 5, TranscriptionMinutes: 75 });
    expect(usage.StoredAudioBytes).toBe(40_000_000);
    // The default plan, Starter: 60 transcription minutes included.
    expect(usage.Measures.find((m) => m.Measure === 'TranscriptionMinutes')).toMatchObject({ Allowance: 60, Percent: 125, AddOnType: 'TranscriptionMinutes', MaxOverage: null, CapReached: false });
  });

  it('answers an add-on’s usage in the month holding dateUtc, which is required', async () => {
    const may = await admin().get('/api/internal/billing/add-on/TranscriptionMinutes/usage?dateUtc=2025-05-15');
    expect(may.status, may.text).toBe(200);
    expect((may.body as AddOnUsage).Usage).toMatchObject({ Measure: 'TranscriptionMinutes', Used: 10, Allowance: 60 });
    expect((may.body as AddOnUsage).Period.Id).toBe('2025-05');
    const june = await admin().get('/api/internal/billing/add-on/ExtraStorage/usage?dateUtc=2025-06-30T23:59:59Z');
    expect((june.body as AddOnUsage).Usage).toMatchObject({ Measure: 'StoredAudioHours', Used: 3, Allowance: 50 });
    for (const [query, code] of [
      ['', 'required'],
      ['?dateUtc=', 'required'],
      ['?dateUtc=yesterday', 'dateInvalid'],
      ['?dateUtc=2025-02-30', 'dateInvalid'],
    ] as const) {
      const reply = await admin().get(`/api/internal/billing/add-on/TranscriptionMinutes/usage${query}`);
      expect(reply.status, query).toBe(400);
      expect(fields(reply), query).toEqual([['dateUtc', code]]);
    }
    // A feature add-on has no usage, and an unknown type is no add-on at all.
    for (const type of ['AdvancedAnalytics', 'Gold']) expect((await admin().get(`/api/internal/billing/add-on/${type}/usage?dateUtc=2025-06-01`)).status).toBe(404);
  });

  it('computes invoices from the plan and the measured usage, and renders each as a document', async () => {
    const reply = await admin().get('/api/internal/billing/invoices');
    expect(reply.status, reply.text).toBe(200);
    const items = (reply.body as { Items: Invoice[] }).Items;
    expect(items.map((i) => [i.Id, i.Status])).toEqual([
      ['2025-06', 'Open'],
      ['2025-05', 'Closed'],
      ['2025-04', 'Closed'],
    ]);
    // June: Starter's $29.00, 2 seats beyond the 3 included at $15.00, and 15 transcription minutes
    // beyond the 60 included at 5¢.
    expect(items[0]!.Lines.map((l) => [l.Kind, l.Measure, l.AmountCents])).toEqual([
      ['plan', null, 2900],
      ['overage', 'Seats', 3000],
      ['overage', 'TranscriptionMinutes', 75],
    ]);
    expect(items[0]!.Lines[2]).toMatchObject({ Used: 75, Allowance: 60, BilledUnits: 15, UnitCents: 5 });
    expect(items[0]!.TotalCents).toBe(5975);
    // May: 10 minutes, within the allowance; the same seats.
    expect(items[1]!.TotalCents).toBe(5900);

    const doc = await admin().get(items[0]!.DocumentPath);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toContain('text/html');
    expect(doc.text).toContain('Invoice 2025-06');
    expect(doc.text).toContain('Billing Test Station');
    expect(doc.text).toContain('$59.75');
    expect(doc.text).toContain('Transcription minutes: 75 used of 60 included, 15 billed beyond');
    for (const month of ['2025-03', '2025-07', '2025-13', 'june']) {
      const missing = await admin().get(`/api/internal/billing/invoices/${month}`);
      expect(missing.status, month).toBe(404);
      expect(missing.text).toBe('');
    }
  });

  it('tells the chosen people once when a percentage of an allowance is reached', async () => {
    expect((await admin().patch('/api/internal/billing', { BillingContactName: 'Bea Books', BillingContactEmail: 'billing@station.example' })).status).toBe(204);
    const put = await as('demo@example.com').send('PUT', '/api/internal/subscription/add-on/TranscriptionMinutes/notification-settings', {
      json: { Thresholds: [150, 50, 100], Recipients: ['ops@station.example'], NotifyBillingContact: true },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ AddOnType: 'TranscriptionMinutes', Thresholds: [50, 100, 150], Recipients: ['ops@station.example'], NotifyBillingContact: true });
    await opened.app.jobs.drain();
    // The check's mails are delivered by jobs of their own, queued by it.
    await opened.app.jobs.drain();
    const subject = 'Billing Test Station: 125% of the Transcription minutes allowance used';
    // The SMTP server parses what it took after answering: wait for both.
    await vi.waitFor(() => expect(opened.smtp.received.filter((m) => m.subject === subject)).toHaveLength(2));
    const told = opened.smtp.received.filter((m) => m.subject === subject);
    expect(told.map((m) => JSON.stringify(m.to)).sort()).toEqual([expect.stringContaining('billing@station.example'), expect.stringContaining('ops@station.example')]);
    expect(told[0]!.text).toContain('has used 75 of the 60 Transcription minutes included in 2025-06');
    const rows = await opened.t.store.query<{ threshold: number }>(`SELECT threshold FROM billing_notices WHERE organization_id = $1 AND add_on_type = 'TranscriptionMinutes' ORDER BY threshold`, [ORG]);
    expect(rows.map((r) => Number(r.threshold))).toEqual([50, 100]);
    // Seats (5 of Starter's 3) went past the default 80 and 100 percent: the billing contact is told.
    await vi.waitFor(() => expect(opened.smtp.received.filter((m) => m.subject === 'Billing Test Station: 166% of the Seats allowance used')).toHaveLength(1));

    // Asked again, nothing is told twice.
    const deps = { store: opened.t.store, bus: createMemoryBus(), clock: () => opened.clock.now };
    expect(await sendDueNotices(deps, ORG)).toBe(0);
    // Another 20 minutes: 95 of 60 is 158%: 150 is told.
    await opened.t.store.query(`INSERT INTO transcriptions (clip_id, organization_id, language, engine, status, audio_seconds, requested_at_utc, finished_at_utc) VALUES ($1, $2, 'en', 'pocketsphinx', 'Completed', 1200, $3, $3)`, [id(4), ORG, JUNE(1)]);
    await opened.app.jobs.drain();
    expect(await sendDueNotices(deps, ORG)).toBe(1);
    await opened.app.jobs.drain();
    await opened.app.jobs.drain();
    await vi.waitFor(() => expect(opened.smtp.received.filter((m) => m.subject === 'Billing Test Station: 158% of the Transcription minutes allowance used')).toHaveLength(2));

    for (const [body, expected] of [
      [{ Thresholds: [0, 300, 80, 80], Recipients: [], NotifyBillingContact: false }, [['Thresholds[0]', 'outOfRange'], ['Thresholds[1]', 'outOfRange'], ['Thresholds[3]', 'invalid']]],
      [{ Thresholds: [80], Recipients: ['ops@station.example', 'not an address'], NotifyBillingContact: false }, [['Recipients[1]', 'emailInvalid']]],
      [{ Thresholds: [80], Recipients: [] }, [['NotifyBillingContact', 'invalid']]],
    ] as const) {
      const reply = await as('demo@example.com').send('PUT', '/api/internal/subscription/add-on/TranscriptionMinutes/notification-settings', { json: body });
      expect(reply.status, reply.text).toBe(400);
      expect(fields(reply).map(([f]) => f)).toEqual(expected.map(([f]) => f));
    }
    const read = await as('support@example.com').get('/api/internal/subscription/add-on/TranscriptionMinutes/notification-settings');
    expect((read.body as NotificationSettings).Thresholds).toEqual([50, 100, 150]);
  });

  it('a restriction caps what is billed beyond the allowance', async () => {
    const patched = await admin().patch('/api/internal/billing/add-on/TranscriptionMinutes/restrictions', { MaxOverage: 10 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ AddOnType: 'TranscriptionMinutes', MaxOverage: 10 });
    expect((await admin().get('/api/internal/billing/add-on/TranscriptionMinutes/restrictions')).body).toMatchObject({ MaxOverage: 10 });
    const june = ((await admin().get('/api/internal/billing/invoices')).body as { Items: Invoice[] }).Items[0]!;
    // 95 minutes used, 60 included: 35 beyond, 10 billed.
    expect(june.Lines.find((l) => l.Measure === 'TranscriptionMinutes')).toMatchObject({ Used: 95, BilledUnits: 10, AmountCents: 50 });
    expect(june.TotalCents).toBe(5950);
    const usage = (await admin().get('/api/internal/billing/usage')).body as BillingUsage;
    expect(usage.Measures.find((m) => m.Measure === 'TranscriptionMinutes')).toMatchObject({ MaxOverage: 10, CapReached: true });
    for (const value of [-1, 2.5, 10_000_001]) {
      const reply = await admin().patch('/api/internal/billing/add-on/TranscriptionMinutes/restrictions', { MaxOverage: value });
      expect(reply.status).toBe(400);
      expect(fields(reply)).toEqual([['MaxOverage', 'outOfRange']]);
    }
    expect(fields(await admin().patch('/api/internal/billing/add-on/TranscriptionMinutes/restrictions', { MaxOverage: 'ten' }))).toEqual([['MaxOverage', 'invalid']]);
  });

  it('changes the plan and add-ons, which decide allowances, amounts and features', async () => {
    for (const [body, expected] of [
      [{ Plan: 'Gold' }, 'Plan'],
      [{ AddOns: { ExtraSeats: 101 } }, 'AddOns.ExtraSeats'],
      [{ AddOns: { ApplePremium: 2 } }, 'AddOns.ApplePremium'],
      [{ BillingContactEmail: 'nobody' }, 'BillingContactEmail'],
    ] as const) {
      const reply = await admin().patch('/api/internal/billing', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(fields(reply).map(([f]) => f)).toEqual([expected]);
    }
    expect((await admin().send('PATCH', '/api/internal/billing')).status).toBe(400);
    const before = (await admin().get('/api/internal/subscription')).body as Subscription;
    expect(before).toMatchObject({ Plan: 'Starter', Features: ['automatic-transcription'] });

    const reply = await admin().patch('/api/internal/billing', { Plan: 'Professional', AddOns: { TranscriptionMinutes: 1, ApplePremium: 1 } });
    expect(reply.status, reply.text).toBe(204);
    const billing = (await admin().get('/api/internal/billing')).body as Billing;
    expect(billing).toMatchObject({ Plan: 'Professional', BillingContactEmail: 'billing@station.example', Features: ['playlist-download-analytics', 'apple-premium', 'automatic-transcription'] });
    expect(billing.Allowances.TranscriptionMinutes).toBe(1100);
    expect(billing.AddOns.find((a) => a.Type === 'TranscriptionMinutes')).toMatchObject({ Quantity: 1, UnitsPerPack: 500, PriceCents: 2000 });
    const june = ((await admin().get('/api/internal/billing/invoices')).body as { Items: Invoice[] }).Items[0]!;
    expect(june.Lines.map((l) => [l.Kind, l.AddOnType, l.AmountCents])).toEqual([
      ['plan', null, 9900],
      ['addOn', 'TranscriptionMinutes', 2000],
      ['addOn', 'ApplePremium', 1900],
    ]);
    expect(june.TotalCents).toBe(13800);
    // The subscription is the one source of features: the organization's and a program's config read it.
    const subscription = (await as('demo@example.com').get(`/api/internal/programs/${PROGRAM}/subscription`)).body as Subscription;
    expect(subscription).toMatchObject({ ProgramId: PROGRAM, Plan: 'Professional', Features: billing.Features });
    const config = (await as('support@example.com').get(`/api/internal/config/programs/${PROGRAM}`)).body as OrganizationConfig;
    expect(config).toMatchObject({ Plan: 'Professional', Features: billing.Features, ProgramName: 'Ledger Hour' });
  });

  it('billing is for admins, the subscription for settings managers and staff, the config for staff', async () => {
    const refused = async (email: string, method: string, path: string, json?: unknown) => {
      const reply = await as(email).send(method, path, json === undefined ? {} : { json });
      expect(reply.status, `${email} ${method} ${path}`).toBe(403);
      expect(reply.text).toBe('');
    };
    for (const email of ['support@example.com', 'demo@example.com', 'analyst@example.com']) {
      await refused(email, 'GET', '/api/internal/billing');
      await refused(email, 'GET', '/api/internal/billing/invoices/2025-06');
      await refused(email, 'PATCH', '/api/internal/billing/add-on/ExtraSeats/restrictions', { MaxOverage: 0 });
    }
    await refused('analyst@example.com', 'GET', '/api/internal/subscription');
    await refused('support@example.com', 'PUT', '/api/internal/subscription/add-on/ExtraSeats/notification-settings', { Thresholds: [], Recipients: [], NotifyBillingContact: false });
    await refused('demo@example.com', 'GET', '/api/internal/config');
    await refused('demo@example.com', 'GET', '/api/internal/config/organization');
    // Someone not a member of the station: its billing is not found, as a station that does not exist.
    const producer = as('producer@example.com');
    const elsewhere = await producer.send('GET', '/api/internal/subscription', { headers: { 'x-organization-id': ORG } });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toBe('');
  });

  it('shows staff the studio’s configuration, never its secrets', async () => {
    const reply = await as('support@example.com').get('/api/internal/config');
    expect(reply.status, reply.text).toBe(200);
    const sections = (reply.body as { Sections: ConfigSection[] }).Sections;
    expect(sections.map((s) => s.Name)).toEqual(['runtime', 'mail', 'storage', 'transcription', 'caching', 'plans', 'add-ons', 'features']);
    const mail = sections.find((s) => s.Name === 'mail')!;
    expect(mail.Values).toMatchObject({ SmtpConfigured: true, SmtpHost: new URL(opened.smtp.url).host });
    expect(reply.text).not.toContain('smtp://');
    expect(sections.find((s) => s.Name === 'caching')!.Values).toMatchObject({ configMinutes: 10, subscriptionMinutes: 10 });
    expect(sections.find((s) => s.Name === 'runtime')!.Values).toMatchObject({ Store: kind });
    const plan = await as('admin@example.com').get('/api/internal/config/plans/Broadcast');
    expect(plan.body).toMatchObject({ Id: 'Broadcast', Values: { MonthlyPriceCents: 29900 } });
    const feature = await as('admin@example.com').get('/api/internal/config/features/apple-premium');
    expect(feature.body).toMatchObject({ Values: { Plans: ['Broadcast'], AddOns: ['ApplePremium'] } });
    for (const path of ['/api/internal/config/plans/Gold', '/api/internal/config/runtime/Version', '/api/internal/config/secrets']) {
      expect((await as('admin@example.com').get(path)).status, path).toBe(404);
    }
    const org = await as('support@example.com').get('/api/internal/config/organization');
    expect(org.body).toMatchObject({ OrganizationId: ORG, Name: 'Billing Test Station', Plan: 'Professional', ProgramId: null });
  });
});
