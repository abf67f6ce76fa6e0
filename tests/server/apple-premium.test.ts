// Apple Podcasts Subscriptions settings (issue 33; section 7 apple-premium at organization,
// network and program level, the program's GET with inherit), on PGlite and PostgreSQL: each
// level keeps what it sets, a program in effect takes each field from the nearest level that sets
// it and says whose it is; each field refused at its name (a show's ID only on a program, its
// podcasts.apple.com address read as its ID); delivery switched on without a provider or the
// program's show refused; If-Match and 412 with the settings; DELETE back to inherited; the named
// settings calls cannot reach the record; who may read and write (section 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplePremiumSettings } from '../../src/protocol/api/apple-premium.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const NEWS = seedId('network:news');
const MORNING = seedId('program:morning');
const COMMUNITY = seedId('program:community');
const ORG_URL = '/api/v1/settings/apple-premium';
const NETWORK_URL = `/api/v1/networks/${NEWS}/settings/apple-premium`;
const PROGRAM_URL = `/api/v1/programs/${MORNING}/settings/apple-premium`;

describe.each(storeKinds)('Apple Podcasts Subscriptions settings on %s', (kind) => {
  let test: TestStore;
  let seeded: SeededApp;
  let api: AppClient;

  beforeAll(async () => {
    test = await openTestStore(kind);
    seeded = await seededApp(test.store);
    api = new AppClient(seeded.app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
  }, 180_000);

  afterAll(async () => {
    await test?.drop();
  });

  const read = async (url: string): Promise<ApplePremiumSettings> => {
    const reply = await api.get(url);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as ApplePremiumSettings;
  };
  const put = (url: string, body: unknown, ifMatch?: string) => api.send('PUT', url, { json: body, ...(ifMatch ? { headers: { 'if-match': ifMatch } } : {}) });

  it('reads a level never set as all inherited, the ETag its row’s; a program in effect has the defaults', async () => {
    const reply = await api.get(PROGRAM_URL);
    const own = reply.body as ApplePremiumSettings;
    expect(own).toMatchObject({ Level: 'Program', Enabled: null, ProviderId: null, ShowId: null });
    expect(reply.headers.get('etag')).toBe(`"${own.ModifiedAtUtc}"`);
    expect(own.Sources).toBeUndefined();
    const effective = await read(`${PROGRAM_URL}?inherit=true`);
    expect(effective).toMatchObject({ Enabled: false, DeliverAdFree: true, EarlyAccessHours: 0, ProviderId: null });
    expect(effective.Sources).toMatchObject({ Enabled: 'Default', ProviderId: 'Default' });
  });

  it('inherits field by field from the organization and the network; the program’s own value wins and says so', async () => {
    const org = await put(ORG_URL, { ProviderId: 'CastawayMedia', ChannelId: '6450011', EarlyAccessHours: 24 });
    expect(org.status, org.text).toBe(200);
    const saved = org.body as ApplePremiumSettings;
    expect(saved).toMatchObject({ Level: 'Organization', ProviderId: 'CastawayMedia', ChannelId: '6450011', EarlyAccessHours: 24, Enabled: null });
    expect(org.headers.get('etag')).toBe(`"${saved.ModifiedAtUtc}"`);

    expect((await put(NETWORK_URL, { ChannelId: '6450022', DeliverAdFree: false })).status).toBe(200);
    // The show's page address is read as its ID.
    const program = await put(PROGRAM_URL, { Enabled: true, ShowId: 'https://podcasts.apple.com/us/podcast/morning-briefing/id1234567890?i=1', EarlyAccessHours: 0 });
    expect(program.status, program.text).toBe(200);
    expect((program.body as ApplePremiumSettings).ShowId).toBe('1234567890');

    const effective = await read(`${PROGRAM_URL}?inherit=true`);
    expect(effective).toMatchObject({ Enabled: true, ProviderId: 'CastawayMedia', ChannelId: '6450022', ShowId: '1234567890', DeliverAdFree: false, EarlyAccessHours: 0 });
    expect(effective.Sources).toEqual({ Enabled: 'Program', ProviderId: 'Organization', ChannelId: 'Network', ShowId: 'Program', DeliverAdFree: 'Network', EarlyAccessHours: 'Program' });
    // Its own, without inherit: only what it sets.
    expect(await read(PROGRAM_URL)).toMatchObject({ Enabled: true, ProviderId: null, ChannelId: null, ShowId: '1234567890' });

    // Dropping the network's: the organization's channel in effect again.
    expect((await api.delete(NETWORK_URL)).status).toBe(204);
    expect((await read(`${PROGRAM_URL}?inherit=true`)).ChannelId).toBe('6450011');
  });

  it('refuses each field at its name with the domain’s words', async () => {
    const bad = await put(NETWORK_URL, { ProviderId: 'has spaces', ChannelId: '12ab', ShowId: '123', EarlyAccessHours: 200 });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual([
      ['ProviderId', 'invalid'],
      ['ChannelId', 'invalid'],
      ['ShowId', 'invalid'],
      ['EarlyAccessHours', 'outOfRange'],
    ]);
    expect(bad.text).toContain('set it in the program');
    const fraction = await put(PROGRAM_URL, { EarlyAccessHours: 1.5 });
    expect(fields(fraction)).toEqual([['EarlyAccessHours', 'invalid']]);
    const unknown = await put(ORG_URL, { Secret: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('Secret');
    const inherit = await api.get(`${PROGRAM_URL}?inherit=maybe`);
    expect(inherit.status).toBe(400);
    expect(inherit.text).toContain('inherit');
  });

  it('refuses delivery switched on without a provider in effect, or on a program without its show', async () => {
    const noShow = await api.send('PUT', `/api/v1/programs/${COMMUNITY}/settings/apple-premium`, { json: { Enabled: true } });
    expect(noShow.status).toBe(400);
    expect(fields(noShow)).toEqual([['ShowId', 'required']]);
    expect(noShow.text).toContain('needs the show');
    // Without the organization's provider, the network's switch has none in effect.
    expect((await api.delete(ORG_URL)).status).toBe(204);
    const noProvider = await put(NETWORK_URL, { Enabled: true });
    expect(fields(noProvider)).toEqual([['ProviderId', 'required']]);
    expect((await put(NETWORK_URL, { Enabled: true, ProviderId: 'NewsDesk' })).status).toBe(200);
    expect((await api.delete(NETWORK_URL)).status).toBe(204);
  });

  it('writes on the ETag it read: a stale If-Match is a 412 with the settings as they are', async () => {
    const first = await put(ORG_URL, { ProviderId: 'First' });
    const base = (first.body as ApplePremiumSettings).ModifiedAtUtc!;
    expect((await put(ORG_URL, { ProviderId: 'Second' }, `"${base}"`)).status).toBe(200);
    const stale = await put(ORG_URL, { ProviderId: 'Third' }, `"${base}"`);
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ Level: 'Organization', ProviderId: 'Second' });
    const staleDelete = await api.delete(ORG_URL, { 'if-match': `"${base}"` });
    expect(staleDelete.status).toBe(412);
    expect((await read(ORG_URL)).ProviderId).toBe('Second');
  });

  it('keeps each level’s values on its row, which devices sync', async () => {
    await put(ORG_URL, { ProviderId: 'Kept' });
    await put(NETWORK_URL, { ChannelId: '777' });
    await put(PROGRAM_URL, { ShowId: '42' });
    const organization = await api.get(`/api/internal/users/me/organizations/${ORG_DEMO}`);
    expect((organization.body as { ApplePremium?: unknown }).ApplePremium).toMatchObject({ ProviderId: 'Kept' });
    const network = await api.get(`/api/v1/networks/${NEWS}`);
    expect((network.body as { ApplePremium?: unknown }).ApplePremium).toMatchObject({ ChannelId: '777' });
    const program = await api.get(`/api/v1/programs/${MORNING}`);
    expect((program.body as { ApplePremium?: unknown }).ApplePremium).toMatchObject({ ShowId: '42', ProviderId: null });
    expect((await api.delete(NETWORK_URL)).status).toBe(204);
    expect(((await api.get(`/api/v1/networks/${NEWS}`)).body as { ApplePremium?: unknown }).ApplePremium).toBeNull();
  });

  it('lets those section 6 names read and write, and nobody else', async () => {
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    // Content access without manage-settings: the program's settings are not theirs to read.
    expect((await producer.get(PROGRAM_URL)).status).toBe(403);
    expect((await producer.send('PUT', PROGRAM_URL, { json: { Enabled: false } })).status).toBe(403);
    // A program they do not see is not found.
    expect((await producer.get(`/api/v1/programs/${seedId('program:matchday')}/settings/apple-premium`)).status).toBe(404);
    expect((await producer.get(ORG_URL)).status).toBe(403);

    const support = new AppClient(seeded.app);
    await support.login('support@example.com');
    support.organizationId = ORG_DEMO;
    // Audit access reads; it does not write.
    expect((await support.get(ORG_URL)).status).toBe(200);
    expect((await support.get(`${PROGRAM_URL}?inherit=true`)).status).toBe(200);
    expect((await support.send('PUT', ORG_URL, { json: {} })).status).toBe(403);
    expect((await support.delete(PROGRAM_URL)).status).toBe(403);
  });
});
