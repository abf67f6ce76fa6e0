// A program's settings root, monetization (and its defaults), video monetization and headliner
// videos (issue 33; section 7), on PGlite and on PostgreSQL: set at the organization, inherited
// by a program field by field with its source, overridden, reset to the organization's; the same
// change queued offline (a sync push of program.setSettings on an old base) merged with a change
// of another field, and one crossing a change of the same setting a conflict on it; each bad
// field a 400 naming it; the program's ad-marker rules bind the positions it sells; If-Match and
// 412 with the settings; a new clip's MemberDownloadsAdFree taken from the monetization in effect;
// who may read and write (section 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { DEFAULT_AD_MARKER_RULES } from '../../src/domain/ad-markers.ts';
import { MONETIZATION_DEFAULTS } from '../../src/domain/monetization.ts';
import type { MonetizationDefaults, OrganizationProgramDefaults, ProgramMonetization, ProgramSettings, ProgramVideoMonetization, ProgramHeadlinerVideos } from '../../src/protocol/api/program-settings.ts';
import { AppClient, demoApp, fields, type DemoApp } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
const ROOT = `/api/v1/programs/${MORNING}/settings`;
const MONETIZATION = `${ROOT}/monetization`;
const DEFAULTS = '/api/v1/settings/program-defaults';

describe.each(storeKinds)('program settings on %s', (kind) => {
  let test: TestStore;
  let api: AppClient;
  let producer: AppClient;
  let analyst: AppClient;

  beforeAll(async () => {
    let app: DemoApp['app'];
    ({ test, app, api } = await demoApp(kind, { clips: 4 }));
    producer = new AppClient(app);
    await producer.login('producer@example.com');
    analyst = new AppClient(app);
    await analyst.login('analyst@example.com');
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const monetization = async (): Promise<ProgramMonetization> => {
    const reply = await api.get(MONETIZATION);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as ProgramMonetization;
  };
  const own = (values: Record<string, unknown>) => ({ DynamicAdsEnabled: null, AdPositions: null, MemberDownloadsAdFree: null, HouseAdsFallback: null, CpmFloor: null, ...values });

  it('set at the organization, inherited by the program with its source, overridden, reset to the organization’s', async () => {
    // Nothing set anywhere: the studio's defaults.
    const fresh = await monetization();
    expect(fresh.Effective).toEqual(MONETIZATION_DEFAULTS);
    expect(fresh.Sources.DynamicAdsEnabled).toBe('Default');
    expect(fresh.Own).toEqual(own({}));

    // The organization sets its defaults.
    const org = await api.patch(DEFAULTS, { Monetization: { DynamicAdsEnabled: true, CpmFloor: { Amount: 18.5, Currency: 'EUR' } }, HeadlinerVideos: { AspectRatios: ['9:16', '1:1'] } });
    expect(org.status, org.text).toBe(200);
    expect((org.body as OrganizationProgramDefaults).Monetization.Effective).toMatchObject({ DynamicAdsEnabled: true, CpmFloor: { Amount: 18.5, Currency: 'EUR' }, HouseAdsFallback: false });
    // Kept in order.
    expect((org.body as OrganizationProgramDefaults).HeadlinerVideos.Own.AspectRatios).toEqual(['1:1', '9:16']);
    const defaults = (await api.get(`${MONETIZATION}/defaults`)).body as MonetizationDefaults;
    expect(defaults).toMatchObject({ OrganizationId: ORG_DEMO, Values: { DynamicAdsEnabled: true, CpmFloor: { Amount: 18.5, Currency: 'EUR' } } });
    expect(defaults.Sources).toMatchObject({ DynamicAdsEnabled: 'Organization', CpmFloor: 'Organization', AdPositions: 'Default' });

    // The program inherits it, and says whose it is.
    const inherited = await monetization();
    expect(inherited.Effective).toMatchObject({ DynamicAdsEnabled: true, CpmFloor: { Amount: 18.5, Currency: 'EUR' } });
    expect(inherited.Sources).toMatchObject({ DynamicAdsEnabled: 'Organization', CpmFloor: 'Organization', MemberDownloadsAdFree: 'Default' });
    const root = (await api.get(ROOT)).body as ProgramSettings;
    expect(root.HeadlinerVideos.Effective.AspectRatios).toEqual(['1:1', '9:16']);
    expect(root.HeadlinerVideos.InheritedSources.AspectRatios).toBe('Organization');
    expect(root.Normalization.Source).toBe('Organization');

    // The program overrides one field; the rest still follow the organization.
    const put = await api.send('PUT', MONETIZATION, { json: { CpmFloor: { Amount: 25, Currency: 'USD' }, AdPositions: [{ Type: 'PostRoll', MaxAds: 2 }, { Type: 'PreRoll', MaxAds: 1 }] } });
    expect(put.status, put.text).toBe(200);
    const overridden = put.body as ProgramMonetization;
    expect(put.headers.get('etag')).toBe(`"${overridden.ModifiedAtUtc}"`);
    expect(overridden.Effective).toMatchObject({ DynamicAdsEnabled: true, CpmFloor: { Amount: 25, Currency: 'USD' }, AdPositions: [{ Type: 'PreRoll', MaxAds: 1 }, { Type: 'PostRoll', MaxAds: 2 }] });
    expect(overridden.Sources).toMatchObject({ CpmFloor: 'Program', AdPositions: 'Program', DynamicAdsEnabled: 'Organization' });
    expect(overridden.Inherited.CpmFloor).toEqual({ Amount: 18.5, Currency: 'EUR' });

    // A later change of the organization's default reaches what the program inherits, not what it set.
    expect((await api.patch(DEFAULTS, { Monetization: { HouseAdsFallback: true, CpmFloor: { Amount: 12, Currency: 'EUR' } } })).status).toBe(200);
    expect((await monetization()).Effective).toMatchObject({ HouseAdsFallback: true, CpmFloor: { Amount: 25, Currency: 'USD' } });

    // Reset to the organization's: one field through the merge patch, then the whole setting.
    const oneBack = await api.patch(ROOT, { Monetization: { CpmFloor: null } });
    expect(oneBack.status, oneBack.text).toBe(200);
    expect((oneBack.body as ProgramSettings).Monetization.Sources).toMatchObject({ CpmFloor: 'Organization', AdPositions: 'Program' });
    const allBack = await api.patch(ROOT, { Monetization: null });
    expect(allBack.status, allBack.text).toBe(200);
    expect((allBack.body as ProgramSettings).Monetization.Own).toEqual(own({}));
    expect((await monetization()).Effective).toMatchObject({ CpmFloor: { Amount: 12, Currency: 'EUR' }, AdPositions: MONETIZATION_DEFAULTS.AdPositions });
  });

  it('an edit queued offline on an old base merges with a change of another setting; one crossing the same setting is a conflict on it', async () => {
    const base = (await monetization()).ModifiedAtUtc;
    // Meanwhile another device changes the program's video monetization.
    const video = await api.patch(`${ROOT}/video-monetization`, { VideoAdsEnabled: true });
    expect(video.status, video.text).toBe(200);
    expect((video.body as ProgramVideoMonetization).Sources.VideoAdsEnabled).toBe('Program');

    const merged = await api.pushOne('program.setSettings', { programId: MORNING, Monetization: own({ DynamicAdsEnabled: false, MemberDownloadsAdFree: false }) }, base);
    expect(merged.status).toBe('merged');
    const after = (await api.get(ROOT)).body as ProgramSettings;
    expect(after.Monetization.Own).toMatchObject({ DynamicAdsEnabled: false, MemberDownloadsAdFree: false });
    expect(after.VideoMonetization.Effective.VideoAdsEnabled).toBe(true);

    // Two devices change the monetization on the same base: the second is a conflict on Monetization.
    const shared = after.ModifiedAtUtc;
    expect((await api.pushOne('program.setSettings', { programId: MORNING, Monetization: own({ HouseAdsFallback: false }) }, shared)).status).toBe('applied');
    const crossed = await api.pushOne('program.setSettings', { programId: MORNING, Monetization: own({ HouseAdsFallback: true }) }, shared);
    expect(crossed.status).toBe('conflict');
    expect(crossed.fields).toEqual([expect.objectContaining({ field: 'Monetization', mine: own({ HouseAdsFallback: true }), theirs: own({ HouseAdsFallback: false }) })]);

    // The organization's defaults queued offline, on its current base.
    const org = await api.pushOne('organization.setProgramDefaults', { organizationId: ORG_DEMO, VideoMonetization: { VideoAdsEnabled: null, VideoAdPositions: ['PostRoll', 'MidRoll'] } }, null);
    expect(org.status).toBe('applied');
    expect(((await api.get(DEFAULTS)).body as OrganizationProgramDefaults).VideoMonetization.Own.VideoAdPositions).toEqual(['MidRoll', 'PostRoll']);
    // A refused change names its field under its setting.
    const refused = await api.pushOne('program.setSettings', { programId: MORNING, Monetization: own({ CpmFloor: { Amount: -1, Currency: 'USD' } }) }, null);
    expect(refused).toMatchObject({ status: 'rejected', httpStatus: 400 });
    expect(refused.errors?.map((e) => e.Field)).toEqual(['Monetization.CpmFloor.Amount']);
    expect((await api.patch(ROOT, { Monetization: null, VideoMonetization: null })).status).toBe(200);
  });

  it('refuses each bad field with a 400 naming it', async () => {
    const bad = async (method: 'PUT' | 'PATCH', path: string, json: unknown) => {
      const reply = await api.send(method, path, { json });
      expect(reply.status, reply.text).toBe(400);
      return fields(reply).map(([field]) => field);
    };
    expect(await bad('PUT', MONETIZATION, { CpmFloor: { Amount: 1000.01, Currency: 'USD' } })).toEqual(['CpmFloor.Amount']);
    expect(await bad('PUT', MONETIZATION, { CpmFloor: { Amount: 9.999, Currency: 'XYZ' } })).toEqual(['CpmFloor.Amount', 'CpmFloor.Currency']);
    expect(await bad('PUT', MONETIZATION, { AdPositions: [{ Type: 'MidRoll', MaxAds: 0 }, { Type: 'MidRoll', MaxAds: 11 }] })).toEqual(['AdPositions.0.MaxAds', 'AdPositions.1.Type', 'AdPositions.1.MaxAds']);
    // Dynamic ads with nothing to sell.
    expect(await bad('PUT', MONETIZATION, { DynamicAdsEnabled: true, AdPositions: [] })).toEqual(['AdPositions']);
    expect(await bad('PUT', MONETIZATION, { DynamicAdsEnabled: 'yes' })).toEqual(['DynamicAdsEnabled']);
    expect(await bad('PATCH', `${ROOT}/video-monetization`, { VideoAdPositions: ['PreRoll', 'PreRoll'] })).toEqual(['VideoAdPositions.1']);
    expect(await bad('PATCH', ROOT, { HeadlinerVideos: { ForegroundColor: 'orange' }, Monetization: { HouseAdsFallback: 1 } })).toEqual(expect.arrayContaining(['Monetization.HouseAdsFallback']));
    expect(await bad('PATCH', ROOT, { HeadlinerVideos: { ForegroundColor: 'orange' } })).toEqual(['HeadlinerVideos.ForegroundColor']);
    // Colours in effect too alike to read: at the colour this level sets (the background inherited).
    expect(await bad('PATCH', ROOT, { HeadlinerVideos: { ForegroundColor: '#1a2440' } })).toEqual(['HeadlinerVideos.ForegroundColor']);
    expect(await bad('PATCH', ROOT, { HeadlinerVideos: { AspectRatios: [] } })).toEqual(['HeadlinerVideos.AspectRatios']);
    expect(await bad('PATCH', DEFAULTS, { Monetization: { CpmFloor: { Amount: 5, Currency: 'usd' } } })).toEqual(['Monetization.CpmFloor.Currency']);
    expect(await bad('PATCH', ROOT, { Recording: {} })).toEqual(['Recording']);
    // Nothing was written.
    expect((await monetization()).Own).toEqual(own({}));
    // A colour written any way people write one is kept as #RRGGBB.
    const colour = await api.patch(ROOT, { HeadlinerVideos: { ForegroundColor: 'ffffff' } });
    expect(colour.status, colour.text).toBe(200);
    expect(((await api.get(`${ROOT}/headliner-videos`)).body as ProgramHeadlinerVideos).Effective.ForegroundColor).toBe('#FFFFFF');
  });

  it('the positions a program sells agree with its ad-marker rules', async () => {
    const rules = await api.pushOne('program.setAdMarkerRules', { programId: MORNING, AdMarkerRules: { ...DEFAULT_AD_MARKER_RULES, MaxMidRolls: 0, MaxAdsPerBreak: 2 } }, null);
    expect(rules.status).toBe('applied');
    const reply = await api.send('PUT', MONETIZATION, { json: { AdPositions: [{ Type: 'PreRoll', MaxAds: 3 }, { Type: 'MidRoll', MaxAds: 1 }] } });
    expect(reply.status).toBe(400);
    expect(fields(reply).map(([field]) => field)).toEqual(['AdPositions.0.MaxAds', 'AdPositions.1.Type']);
    expect((reply.body as { Errors: Array<{ Message: string }> }).Errors[0]!.Message).toBe('The ad-marker rules allow 2 ads in a break at most');
    expect((await api.patch(`${ROOT}/video-monetization`, { VideoAdPositions: ['MidRoll'] })).status).toBe(400);
    // Another program's rules do not bind this one's.
    expect((await api.send('PUT', `/api/v1/programs/${WORLD}/settings/monetization`, { json: { AdPositions: [{ Type: 'MidRoll', MaxAds: 3 }] } })).status).toBe(200);
    expect((await api.pushOne('program.setAdMarkerRules', { programId: MORNING, AdMarkerRules: null }, null)).status).toBe('applied');
  });

  it('a new clip’s MemberDownloadsAdFree follows the program’s monetization in effect, unless the call gives it', async () => {
    const created = async (fields: Record<string, unknown> = {}) => {
      const reply = await api.post(`/api/v1/programs/${MORNING}/clips`, { Title: 'Ad-free?', ...fields });
      expect(reply.status, reply.text).toBe(201);
      return (reply.body as { MemberDownloadsAdFree: boolean }).MemberDownloadsAdFree;
    };
    // Nobody chose: the studio's default, as a clip always had it.
    expect(await created()).toBe(false);
    expect((await api.patch(DEFAULTS, { Monetization: { MemberDownloadsAdFree: true } })).status).toBe(200);
    expect(await created()).toBe(true);
    // The program's own choice wins over the organization's; the call's over both.
    expect((await api.patch(ROOT, { Monetization: { MemberDownloadsAdFree: false } })).status).toBe(200);
    expect(await created()).toBe(false);
    expect(await created({ MemberDownloadsAdFree: true })).toBe(true);
    expect((await api.patch(ROOT, { Monetization: null })).status).toBe(200);
    expect((await api.patch(DEFAULTS, { Monetization: { MemberDownloadsAdFree: null } })).status).toBe(200);
  });

  it('If-Match: a stale base is a 412 with the settings as they are', async () => {
    const current = await monetization();
    expect((await api.patch(ROOT, { Monetization: { HouseAdsFallback: true } }, { 'if-match': `"${current.ModifiedAtUtc}"` })).status).toBe(200);
    const stale = await api.send('PUT', MONETIZATION, { json: { HouseAdsFallback: false }, headers: { 'if-match': `"${current.ModifiedAtUtc}"` } });
    expect(stale.status).toBe(412);
    expect((stale.body as ProgramMonetization).Own.HouseAdsFallback).toBe(true);
    expect(stale.headers.get('etag')).toBe(`"${(stale.body as ProgramMonetization).ModifiedAtUtc}"`);
    expect((await api.patch(ROOT, { Monetization: null })).status).toBe(200);
  });

  it('reads with the program, writes with content and manage-settings access on it (section 6)', async () => {
    // Content access on the program without manage-settings: reads, may not write.
    expect((await producer.get(MONETIZATION)).status).toBe(200);
    expect((await producer.send('PUT', MONETIZATION, { json: { HouseAdsFallback: true } })).status).toBe(403);
    expect((await producer.patch(ROOT, { Monetization: null })).status).toBe(403);
    // A program the caller does not see is a 404 with no body.
    const unseen = await producer.get(`/api/v1/programs/${WORLD}/settings`);
    expect(unseen.status).toBe(404);
    expect(unseen.text).toBe('');
    // The organization's defaults: audit or manage-organization-settings access.
    expect((await analyst.get(DEFAULTS)).status).toBe(403);
    expect((await producer.patch(DEFAULTS, { Monetization: null })).status).toBe(403);
  });
});
