// What the plan says is what the studio does (billing, issue 31's follow-up), on both stores:
// section 6's "Analytics needs content access plus the playlist-download-analytics feature" on every
// analytics figure and download report, Apple Podcasts Subscriptions only with apple-premium (by REST
// and by a device's queued edit alike), and automatic transcription refused at the month's
// TranscriptionMinutes cap. The seed's Castaway Podcasts is on Starter with the ApplePremium add-on
// (sync-server/billing/demo.ts): no download analytics. Castaway Demo Radio is on Broadcast.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingUsage } from '../../src/protocol/api/billing.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { loadSubscription, saveRestriction, saveSubscription } from '../../sync-server/billing/subscriptions.ts';
import { measureUsage } from '../../sync-server/billing/usage.ts';
import { assertSeatForMember } from '../../sync-server/billing/entitlements.ts';
import { readExplained403 } from '../../src/protocol/api/plans.ts';
import { UPLOADS_PATH } from '../../src/protocol/uploads.ts';
import { periodOf } from '../../src/domain/billing.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { AppClient, type Reply } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const RANGE = 'startDate=2025-05-09&endDate=2025-05-12&timeZoneIanaId=UTC';
type ErrorBody = { Errors: Array<{ Field: string; Code: string; Message: string; Params?: Record<string, unknown> }> };

/** The plan's refusal: a 403 whose body names the feature. */
function expectNotInPlan(reply: Reply, feature: string, what: string) {
  expect(reply.status, `${what}: ${reply.text}`).toBe(403);
  expect((reply.body as ErrorBody).Errors, what).toEqual([expect.objectContaining({ Field: 'body', Code: 'featureNotInPlan', Params: { feature } })]);
}

describe.each(storeKinds)('plans: features and caps enforced on %s', (kind) => {
  let t: TestStore;
  let app: ReturnType<typeof createApp>;
  let dir: string;
  /** The demo user (every flag in both organizations), in each. */
  let radio: AppClient;
  let podcasts: AppClient;

  beforeAll(async () => {
    // Uploaded audio goes to a folder of this file's (tests/setup-shared.ts puts the variable back).
    dir = await mkdtemp(join(tmpdir(), 'castaway-plans-'));
    process.env.CASTAWAY_BLOB_DIR = join(dir, 'blobs');
    t = await openTestStore(kind);
    await seed(t.store, { clips: 24 });
    // No SMTP: an invitation's answer carries its link (api/invitations.ts).
    app = createApp({ store: t.store, bus: createMemoryBus(), mail: { smtpUrl: null } });
    radio = await AppClient.signedIn(app, 'demo@example.com', ORG_DEMO);
    podcasts = await AppClient.signedIn(app, 'demo@example.com', ORG_PODCASTS);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Changes an organization's add-ons as an admin's PATCH /internal/billing would (no admin is a member of Castaway Podcasts). */
  async function setAddOns(organizationId: string, addOns: Record<string, number>) {
    const s = (await loadSubscription(t.store, organizationId))!;
    await saveSubscription(t.store, organizationId, { ...s, addOns }, null, new Date());
  }

  const firstClip = async (organizationId: string) =>
    (await t.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [organizationId]))[0]!.id;

  it('the demo organizations’ plans: Broadcast for Castaway Demo Radio; Starter with Apple Podcasts Subscriptions for Castaway Podcasts', async () => {
    const admin = await AppClient.signedIn(app, 'admin@example.com', ORG_DEMO);
    expect((await admin.get('/api/internal/subscription')).body).toMatchObject({ Plan: 'Broadcast', Features: ['playlist-download-analytics', 'apple-premium', 'automatic-transcription'] });
    expect((await podcasts.get('/api/internal/subscription')).body).toMatchObject({ Plan: 'Starter', AddOns: [{ Type: 'ApplePremium', Quantity: 1 }], Features: ['apple-premium', 'automatic-transcription'] });
  });

  it('analytics and download reports need the plan’s playlist-download-analytics: 403 naming it, after the guard’s own 404 and 403', async () => {
    const deepDive = seedId('program:deepdive');
    const clip = await firstClip(ORG_PODCASTS);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/analytics/downloads?${RANGE}`],
      ['GET', `/api/v1/analytics/media-types?${RANGE}`],
      ['GET', `/api/v1/analytics/downloads/apps?${RANGE}`],
      ['GET', `/api/v1/networks/${seedId('network:originals')}/analytics/downloads?${RANGE}`],
      ['GET', `/api/v1/programs/${deepDive}/analytics/downloads?${RANGE}`],
      ['GET', `/api/v1/clips/${clip}/analytics/downloads?${RANGE}`],
      ['GET', `/api/v1/clips/${clip}/analytics/consumption`],
      ['GET', `/api/v1/programs/${deepDive}/clips/analytics/glance?ianaTimeZoneId=UTC`],
      ['GET', '/api/v1/analytics/progress'],
      ['POST', '/api/v1/analytics/reach-estimate', { StartDate: '2025-05-09', EndDate: '2025-05-12', TimeZoneIanaId: 'UTC' }],
      ['POST', `/api/v1/reports/consumption-summary-report?${RANGE}`],
      ['POST', `/api/v1/programs/${deepDive}/reports/consumption-summary-report?${RANGE}`],
      ['POST', `/api/v1/reports/content-report?${RANGE}`],
    ];
    for (const [method, path, json] of calls) expectNotInPlan(await podcasts.send(method, path, json === undefined ? {} : { json }), 'playlist-download-analytics', `${method} ${path}`);
    // The same calls in Castaway Demo Radio (Broadcast) are answered.
    const radioProgram = seedId('program:morning');
    expect((await radio.get(`/api/v1/analytics/downloads?${RANGE}`)).status).toBe(200);
    expect((await radio.get(`/api/v1/programs/${radioProgram}/analytics/downloads?${RANGE}`)).status).toBe(200);
    expect((await radio.send('POST', `/api/v1/reports/consumption-summary-report?${RANGE}`)).status).toBe(202);
    // The guard comes first: the reseller (content access only in Castaway Podcasts) is refused for
    // the flag, with no body; a program of another organization is not found.
    const reseller = await AppClient.signedIn(app, 'reseller@example.com', ORG_PODCASTS);
    const flagless = await reseller.get(`/api/v1/analytics/downloads?${RANGE}`);
    expect([flagless.status, flagless.text]).toEqual([403, '']);
    const elsewhere = await podcasts.get(`/api/v1/programs/${radioProgram}/analytics/downloads?${RANGE}`);
    expect([elsewhere.status, elsewhere.text]).toEqual([404, '']);
    // The scheduled-publish report lists clips, not downloads: no feature needed.
    expect((await podcasts.get(`/api/v1/reports/clip-scheduled-publish-report?${RANGE}`)).status).toBe(200);

    // The AdvancedAnalytics add-on turns the feature on: the same calls are answered.
    await setAddOns(ORG_PODCASTS, { ApplePremium: 1, AdvancedAnalytics: 1 });
    try {
      expect((await podcasts.get(`/api/v1/analytics/downloads?${RANGE}`)).status).toBe(200);
      expect((await podcasts.get(`/api/v1/programs/${deepDive}/analytics/downloads?${RANGE}`)).status).toBe(200);
      expect((await podcasts.send('POST', `/api/v1/reports/content-report?${RANGE}`)).status).toBe(202);
    } finally {
      await setAddOns(ORG_PODCASTS, { ApplePremium: 1 });
    }
  });

  it('Apple Podcasts Subscriptions are set only with the plan’s apple-premium, by REST and by a device’s queued edit; clearing them is always taken', async () => {
    const settings = { ProviderId: 'CastawayMedia', ChannelId: '6450011', EarlyAccessHours: 24 };
    expect((await podcasts.send('PUT', '/api/v1/settings/apple-premium', { json: settings })).status).toBe(200);
    await setAddOns(ORG_PODCASTS, {});
    try {
      expectNotInPlan(await podcasts.send('PUT', '/api/v1/settings/apple-premium', { json: settings }), 'apple-premium', 'PUT the organization’s');
      expectNotInPlan(await podcasts.send('PUT', `/api/v1/programs/${seedId('program:deepdive')}/settings/apple-premium`, { json: { ShowId: 'https://podcasts.apple.com/us/podcast/deep-dive/id1598765432' } }), 'apple-premium', 'PUT a program’s');
      const queued = await podcasts.pushOne('organization.setApplePremium', { organizationId: ORG_PODCASTS, ApplePremium: { Enabled: null, ShowId: null, DeliverAdFree: null, ...settings } });
      expect(queued).toMatchObject({ status: 'rejected', httpStatus: 403 });
      expect(queued.errors?.[0]).toMatchObject({ Field: 'body', Code: 'featureNotInPlan' });
      const playlist = seedId('playlist:deepdive:feed');
      expectNotInPlan(await podcasts.post(`/api/internal/playlists/${playlist}/directories/apple-premium`, { Linked: true }), 'apple-premium', 'link a playlist');
      expect((await podcasts.post(`/api/internal/playlists/${playlist}/directories/apple-premium`, { Linked: false })).status).toBe(204);
      // Reading and clearing are not the feature.
      expect((await podcasts.get('/api/v1/settings/apple-premium')).body).toMatchObject({ ProviderId: 'CastawayMedia', ChannelId: '6450011' });
      expect((await podcasts.delete('/api/v1/settings/apple-premium')).status).toBe(204);
    } finally {
      await setAddOns(ORG_PODCASTS, { ApplePremium: 1 });
    }
  });

  it('automatic transcription is refused at the TranscriptionMinutes cap, naming the add-on and its cap, and taken once the cap is raised', async () => {
    const admin = await AppClient.signedIn(app, 'admin@example.com', ORG_DEMO);
    // A clip of Castaway Demo Radio with real audio (12 s of speech), processed.
    const clipId = await firstClip(ORG_DEMO);
    const put = await app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, {
      method: 'PUT',
      headers: { cookie: radio.cookie, 'x-xsrf-token': radio.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'audio/mpeg' },
      body: new Uint8Array(await readFile(fixturePath('speech-12s.mp3'))),
    });
    expect(put.status, await put.clone().text()).toBe(202);
    await app.jobs.drain();
    // Broadcast includes 3,000 minutes a month; 3,000 were transcribed this month (another clip's).
    const other = (await t.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND id <> $2 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_DEMO, clipId]))[0]!.id;
    await t.store.query(
      `INSERT INTO transcriptions (clip_id, organization_id, language, engine, status, audio_seconds, requested_at_utc, finished_at_utc) VALUES ($1, $2, 'en', 'pocketsphinx', 'Completed', 180000, now(), now())`,
      [other, ORG_DEMO],
    );
    // No MaxOverage (the default): no cap.
    const minutes = async () => ((await admin.get('/api/internal/billing/usage')).body as BillingUsage).Measures.find((m) => m.Measure === 'TranscriptionMinutes')!;
    expect(await minutes()).toMatchObject({ Used: 3000, Allowance: 3000, MaxOverage: null, CapReached: false });

    // MaxOverage 0: the allowance is the cap, and it is reached.
    expect((await admin.patch('/api/internal/billing/add-on/TranscriptionMinutes/restrictions', { MaxOverage: 0 })).status).toBe(200);
    expect(await minutes()).toMatchObject({ CapReached: true });
    const refused = await radio.send('POST', `/api/v1/clips/${clipId}/transcript?language=en`);
    expect(refused.status, refused.text).toBe(403);
    expect((refused.body as ErrorBody).Errors).toEqual([
      expect.objectContaining({
        Field: 'body',
        Code: 'addOnCapReached',
        Params: { addOn: 'TranscriptionMinutes', cap: 3000, used: 3000 },
        Message: 'This would go past the TranscriptionMinutes cap of 3000 this month (3000 used so far): an admin can raise it under Billing & features',
      }),
    ]);
    // Nothing was queued.
    expect((await radio.get(`/api/internal/clips/${clipId}/transcript/transcription`)).status).toBe(404);

    // The cap raised: the same request is taken (queued), and counts against the cap at once.
    expect((await admin.patch('/api/internal/billing/add-on/TranscriptionMinutes/restrictions', { MaxOverage: 100 })).status).toBe(200);
    const taken = await radio.send('POST', `/api/v1/clips/${clipId}/transcript?language=en`);
    expect(taken.status, taken.text).toBe(204);
    expect((await radio.get(`/api/internal/clips/${clipId}/transcript/transcription`)).body).toMatchObject({ Status: 'Queued' });
  }, 120_000);

  it('an invitation is refused past the ExtraSeats cap, open invitations counted as seats, and taken once the cap is raised', async () => {
    // Castaway Podcasts: Starter includes 3 seats; its members holding permissions are the demo user
    // and the reseller (2). MaxOverage 0 makes 3 the cap.
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 0 }, new Date());
    const invite = (name: string) =>
      podcasts.post('/api/v1/users/invitation', { Email: `${name}.${kind}@station.example`, Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true } }] });
    expect((await invite('third')).status).toBe(201);
    // Asked again, the same address is the same seat, not another.
    expect((await invite('third')).status).toBe(201);
    const refused = await invite('fourth');
    expect(refused.status, refused.text).toBe(403);
    expect((refused.body as ErrorBody).Errors).toEqual([expect.objectContaining({ Field: 'body', Code: 'addOnCapReached', Params: { addOn: 'ExtraSeats', cap: 3, used: 3 } })]);
    // A bulk import's row is refused at the row, the file's other rows reported as ever.
    const imported = await podcasts.post('/api/internal/users/import/bulk', {
      Rows: [{ Email: `imported.${kind}@station.example`, ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true }, RowNumber: 1 }],
    });
    expect(imported.status, imported.text).toBe(200);
    expect((imported.body as { Rows: Array<{ Status: string; Errors: Array<{ Code: string }> }> }).Rows).toEqual([expect.objectContaining({ Status: 'Failed', Errors: [expect.objectContaining({ Code: 'addOnCapReached' })] })]);
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 1 }, new Date());
    expect((await invite('fourth')).status).toBe(201);
  });

  it('accepting an invitation is refused once the seats held reach the ExtraSeats cap, in words naming it, and the invitation stays open', async () => {
    // Two invitations sent under a cap of 12, then the cap lowered to Starter's 3 seats (2 held):
    // the first to accept takes the third seat, the second is refused: no account, no membership.
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 10 }, new Date());
    const invite = async (name: string) => {
      const made = await podcasts.post('/api/v1/users/invitation', { Email: `${name}.${kind}@station.example`, Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true } }] });
      expect(made.status, made.text).toBe(201);
      const link = new URL((made.body as { Link: string }).Link);
      return { id: link.pathname.split('/').at(-1)!, token: link.searchParams.get('token')! };
    };
    const late = await invite('late');
    const early = await invite('early');
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 0 }, new Date());
    const accept = (i: { id: string; token: string }, name: string) => new AppClient(app).send('PUT', `/api/internal/invitations/${i.id}`, { json: { Token: i.token, Name: name, Password: 'a long enough secret' } });
    const seats = async () => (await measureUsage(t.store, ORG_PODCASTS, periodOf(new Date()))).seats;

    const first = await accept(early, 'Early Bird');
    expect(first.status, first.text).toBe(204);
    const refused = await accept(late, 'Late Comer');
    expect(refused.status, refused.text).toBe(403);
    expect((refused.body as ErrorBody).Errors).toEqual([
      expect.objectContaining({
        Field: 'body',
        Code: 'addOnCapReached',
        Params: { addOn: 'ExtraSeats', cap: 3, used: 3 },
        Message: 'This would go past the ExtraSeats cap of 3 this month (3 used so far): an admin can raise it under Billing & features',
      }),
    ]);
    expect(await t.store.query(`SELECT 1 FROM users WHERE email = $1`, [`late.${kind}@station.example`])).toEqual([]);
    expect(await seats()).toBe(3);
    // The invitation was not used up: once the cap is raised, the same link is taken.
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 1 }, new Date());
    expect((await accept(late, 'Late Comer')).status).toBe(204);
    expect(await seats()).toBe(4);
  });

  it('at the ExtraSeats cap, admin and support staff joining take no seat (they are never counted as one); anyone else is refused', async () => {
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 0 }, new Date());
    const seats = (await measureUsage(t.store, ORG_PODCASTS, periodOf(new Date()))).seats;
    // The acceptances above left 4 seats held, past Starter's 3 included: the cap can be set at them.
    expect(seats).toBeGreaterThan(3);
    // The cap set at the seats held now.
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: seats - 3 }, new Date());
    const join = (email: string) =>
      t.store.tx((q) => assertSeatForMember(q, ORG_PODCASTS, seedId(`user:${email}`), [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS }], new Date()));
    await expect(join('support@example.com')).resolves.toBeUndefined();
    await expect(join('admin@example.com')).resolves.toBeUndefined();
    await expect(join('analyst@example.com')).rejects.toMatchObject({ status: 403 });
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 100 }, new Date());
  });

  it('at the ExtraSeats cap, an invited address that has an account, signed in, is refused the seat too, and joins once the cap is raised', async () => {
    // producer@example.com has an account (in the demo organization only): accepting is joining
    // with it, signed in, not making an account; the same seat check holds.
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 100 }, new Date());
    const made = await podcasts.post('/api/v1/users/invitation', { Email: 'producer@example.com', Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true } }] });
    expect(made.status, made.text).toBe(201);
    const link = new URL((made.body as { Link: string }).Link);
    const invitation = { id: link.pathname.split('/').at(-1)!, token: link.searchParams.get('token')! };
    const seats = (await measureUsage(t.store, ORG_PODCASTS, periodOf(new Date()))).seats;
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: seats - 3 }, new Date());
    const producer = await AppClient.signedIn(app, 'producer@example.com', null);
    const accept = () => producer.send('PUT', `/api/internal/invitations/${invitation.id}`, { json: { Token: invitation.token } });
    const member = () => t.store.query(`SELECT 1 FROM memberships WHERE organization_id = $1 AND user_id = $2`, [ORG_PODCASTS, seedId('user:producer@example.com')]);

    const refused = await accept();
    expect(refused.status, refused.text).toBe(403);
    expect((refused.body as ErrorBody).Errors).toEqual([expect.objectContaining({ Field: 'body', Code: 'addOnCapReached', Params: { addOn: 'ExtraSeats', cap: seats, used: seats } })]);
    expect(await member()).toEqual([]);
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: seats - 2 }, new Date());
    const taken = await accept();
    expect(taken.status, taken.text).toBe(204);
    expect(await member()).toHaveLength(1);
    expect((await measureUsage(t.store, ORG_PODCASTS, periodOf(new Date()))).seats).toBe(seats + 1);
  });

  it('an expired invitation sent again asks for a seat again: refused at the ExtraSeats cap, taken once it is raised', async () => {
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: 100 }, new Date());
    const email = `expired.${kind}@station.example`;
    const made = await podcasts.post('/api/v1/users/invitation', { Email: email, Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true } }] });
    expect(made.status, made.text).toBe(201);
    const userId = (made.body as { UserId: string }).UserId;
    await t.store.query(`UPDATE invitations SET expires_at_utc = $2 WHERE lower(email) = $1`, [email, new Date(Date.now() - 86_400_000)]);
    // The cap set at what is taken now: the seats held and the open invitations (not the expired one).
    const seats = (await measureUsage(t.store, ORG_PODCASTS, periodOf(new Date()))).seats;
    const [open] = await t.store.query<{ n: string | number }>(`SELECT count(*) AS n FROM invitations WHERE organization_id = $1 AND used_at_utc IS NULL AND expires_at_utc > $2`, [ORG_PODCASTS, new Date()]);
    const cap = seats + Number(open!.n);
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: cap - 3 }, new Date());
    const refused = await podcasts.post(`/api/v1/users/${userId}/invitation`, {});
    expect(refused.status, refused.text).toBe(403);
    expect((refused.body as ErrorBody).Errors).toEqual([expect.objectContaining({ Field: 'body', Code: 'addOnCapReached', Params: { addOn: 'ExtraSeats', cap, used: cap } })]);
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraSeats', { maxOverage: cap - 2 }, new Date());
    expect((await podcasts.post(`/api/v1/users/${userId}/invitation`, {})).status).toBe(204);
  });

  it('audio is refused once the ExtraStorage cap is reached, and taken once it is raised', async () => {
    // Castaway Podcasts: Starter includes 50 stored audio hours; one clip made 50 hours long fills them.
    const [long, target] = (await t.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 2`, [ORG_PODCASTS])).map((r) => r.id);
    await t.store.query(`UPDATE clips SET data = jsonb_set(data, '{DurationSeconds}', '180000') WHERE id = $1`, [long]);
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraStorage', { maxOverage: 0 }, new Date());
    const put = async () =>
      app.request(`/api/v1/clips/${target}/audio?fileName=speech-12s.mp3`, {
        method: 'PUT',
        headers: { cookie: podcasts.cookie, 'x-xsrf-token': podcasts.xsrf, 'x-organization-id': ORG_PODCASTS, 'content-type': 'audio/mpeg' },
        body: new Uint8Array(await readFile(fixturePath('speech-12s.mp3'))),
      });
    const refused = await put();
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as ErrorBody;
    expect(body.Errors).toEqual([expect.objectContaining({ Code: 'addOnCapReached', Params: expect.objectContaining({ addOn: 'ExtraStorage', cap: 50 }) })]);
    // The clip screen's upload (tus) is refused when it begins, and the device's queue reads the
    // answer as the cap and what is used, to say where the file was picked (not retried for ever).
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const begun = await app.request(UPLOADS_PATH, {
      method: 'POST',
      headers: { cookie: podcasts.cookie, 'x-xsrf-token': podcasts.xsrf, 'x-organization-id': ORG_PODCASTS, 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': `filename ${b64('speech-12s.mp3')},clipId ${b64(target!)}` },
    });
    expect(readExplained403(begun.status, await begun.text())?.plan).toEqual({ kind: 'cap', addOn: 'ExtraStorage', cap: 50, used: expect.any(Number) });
    await saveRestriction(t.store, ORG_PODCASTS, 'ExtraStorage', { maxOverage: 10 }, new Date());
    const taken = await put();
    expect(taken.status, await taken.clone().text()).toBe(202);
    await app.jobs.drain();
  }, 120_000);
});
