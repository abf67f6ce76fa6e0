// Reference data (specification section 3: countries, languages, normalization presets, podcast
// categories, time zones; section 7: GET /v1/reference-data/…): real lists, not samples.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { DEMO_PASSWORD, ORG_DEMO, ORG_PODCASTS, seed } from '../../sync-server/seed.ts';
import {
  CountriesResponseSchema,
  LanguagesResponseSchema,
  NormalizationPresetsResponseSchema,
  PodcastCategoriesResponseSchema,
  TimeZonesResponseSchema,
} from '../../src/protocol/reference.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';
import { COUNTRIES } from '../../sync-server/reference/countries.ts';
import { LANGUAGES } from '../../sync-server/reference/languages.ts';
import { NORMALIZATION_PRESETS } from '../../sync-server/reference/normalization-presets.ts';
import { PODCAST_CATEGORIES } from '../../sync-server/reference/podcast-categories.ts';
import {
  formatUtcOffset,
  parseGmtOffset,
  timeZoneAt,
  timeZonesAt,
} from '../../sync-server/reference/time-zones.ts';

const byCode = <T extends { Code: string; Name: string }>(list: readonly T[]) =>
  new Map(list.map((entry) => [entry.Code, entry.Name]));

describe('languages', () => {
  it('lists all 183 ISO 639-1 codes once, in code order, with English names', () => {
    expect(LANGUAGES).toHaveLength(183);
    const codes = LANGUAGES.map((l) => l.Code);
    expect(new Set(codes).size).toBe(183);
    expect(codes).toEqual([...codes].sort());
    const names = byCode(LANGUAGES);
    expect(names.get('de')).toBe('German');
    expect(names.get('en')).toBe('English');
    expect(names.get('pt')).toBe('Portuguese');
    expect(names.get('zh')).toBe('Chinese');
    expect(names.get('nb')).toBe('Norwegian Bokmål');
    expect(names.get('tw')).toBe('Twi');
    // Three-letter-only languages and retired codes are not ISO 639-1.
    expect(names.has('iw')).toBe(false);
    expect(names.has('fil')).toBe(false);
  });
});

describe('countries', () => {
  it('lists all 249 ISO 3166-1 alpha-2 codes once with English names', () => {
    expect(COUNTRIES).toHaveLength(249);
    const codes = COUNTRIES.map((c) => c.Code);
    expect(new Set(codes).size).toBe(249);
    expect(codes).toEqual([...codes].sort());
    const names = byCode(COUNTRIES);
    expect(names.get('BR')).toBe('Brazil');
    expect(names.get('DE')).toBe('Germany');
    expect(names.get('US')).toBe('United States of America');
    expect(names.get('GB')).toBe('United Kingdom');
    expect(names.get('BA')).toBe('Bosnia and Herzegovina');
    expect(names.get('AX')).toBe('Åland Islands');
    expect(names.get('SS')).toBe('South Sudan');
    // User-assigned or reserved, not countries of ISO 3166-1: Kosovo, the EU, the old UK code.
    for (const code of ['XK', 'EU', 'UK', 'ZZ']) expect(names.has(code)).toBe(false);
  });
});

describe('podcast categories', () => {
  it('is the Apple Podcasts tree: 19 categories, 91 subcategories', () => {
    expect(PODCAST_CATEGORIES.map((c) => c.Name)).toEqual([
      'Arts', 'Business', 'Comedy', 'Education', 'Fiction', 'Government', 'History',
      'Health & Fitness', 'Kids & Family', 'Leisure', 'Music', 'News', 'Religion & Spirituality',
      'Science', 'Society & Culture', 'Sports', 'Technology', 'True Crime', 'TV & Film',
    ]);
    const total = PODCAST_CATEGORIES.reduce((n, c) => n + c.Subcategories.length, 0);
    expect(total).toBe(91);
  });

  it('has the subcategories an RSS feed names, and none of the pre-2019 ones', () => {
    const subs = (name: string) =>
      PODCAST_CATEGORIES.find((c) => c.Name === name)?.Subcategories.map((s) => s.Name);
    expect(subs('Society & Culture')).toContain('Documentary');
    expect(subs('Leisure')).toContain('Animation & Manga');
    expect(subs('News')).toContain('Tech News');
    expect(subs('Sports')).toContain('Fantasy Sports');
    // 'Technology > Podcasting' belonged to the old tree; Technology has no subcategories now.
    expect(subs('Technology')).toEqual([]);
    expect(subs('True Crime')).toEqual([]);
    expect(subs('Government')).toEqual([]);
    expect(subs('History')).toEqual([]);
  });

  it('gives every category and subcategory a unique id', () => {
    const ids = PODCAST_CATEGORIES.flatMap((c) => [c.Id, ...c.Subcategories.map((s) => s.Id)]);
    expect(new Set(ids).size).toBe(19 + 91);
    const news = PODCAST_CATEGORIES.find((c) => c.Name === 'News');
    expect(news?.Subcategories.find((s) => s.Name === 'Business News')?.Id).toBe('news.business-news');
    expect(PODCAST_CATEGORIES.find((c) => c.Name === 'Kids & Family')?.Id).toBe('kids-and-family');
  });
});

describe('normalization presets', () => {
  it('offers podcast, streaming and broadcast loudness targets', () => {
    const byId = new Map(NORMALIZATION_PRESETS.map((p) => [p.Id, p]));
    expect(byId.get('podcast')).toMatchObject({ IntegratedLoudness: -16, TruePeak: -1 });
    expect(byId.get('streaming')).toMatchObject({ IntegratedLoudness: -14, TruePeak: -1 });
    expect(byId.get('broadcast-ebu-r128')).toMatchObject({ IntegratedLoudness: -23, TruePeak: -1 });
    expect(byId.get('broadcast-atsc-a85')).toMatchObject({ IntegratedLoudness: -24, TruePeak: -2 });
    expect(new Set(NORMALIZATION_PRESETS.map((p) => p.Name)).size).toBe(NORMALIZATION_PRESETS.length);
    for (const preset of NORMALIZATION_PRESETS) {
      expect(preset.TruePeak).toBeLessThan(0);
      expect(preset.IntegratedLoudness).toBeLessThan(preset.TruePeak);
      expect(preset.LoudnessRange).toBeGreaterThan(0);
    }
  });
});

describe('time zones', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const summer = new Date('2026-07-15T12:00:00Z');

  it('lists every IANA zone of the runtime under its current name, plus UTC', () => {
    const zones = timeZonesAt(winter);
    const ids = zones.map((z) => z.IanaId);
    expect(zones.length).toBeGreaterThanOrEqual(400);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Europe/Kyiv', 'America/Sao_Paulo']) {
      expect(ids).toContain(id);
    }
    expect(ids).not.toContain('Asia/Calcutta');
    // West to east.
    const offsets = zones.map((z) => z.UtcOffsetMinutes);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it('gives the offset in force at the instant asked for', () => {
    expect(timeZoneAt('Europe/Berlin', winter)).toEqual({
      IanaId: 'Europe/Berlin',
      DisplayName: '(UTC+01:00) Europe/Berlin, Central European Time',
      UtcOffsetMinutes: 60,
      UtcOffset: '+01:00',
    });
    expect(timeZoneAt('Europe/Berlin', summer).UtcOffset).toBe('+02:00');
    expect(timeZoneAt('America/New_York', winter).UtcOffsetMinutes).toBe(-300);
    expect(timeZoneAt('Asia/Kolkata', summer).UtcOffset).toBe('+05:30');
    expect(timeZoneAt('Asia/Kathmandu', summer).UtcOffset).toBe('+05:45');
    expect(timeZoneAt('America/St_Johns', winter).UtcOffset).toBe('-03:30');
    expect(timeZoneAt('UTC', summer).DisplayName).toBe('(UTC+00:00) UTC, Coordinated Universal Time');
  });

  it('reads and writes offsets', () => {
    expect(parseGmtOffset('GMT')).toBe(0);
    expect(parseGmtOffset('GMT+05:30')).toBe(330);
    expect(parseGmtOffset('GMT-03')).toBe(-180);
    expect(() => parseGmtOffset('CET')).toThrow(/Unexpected UTC offset/);
    expect(formatUtcOffset(-570)).toBe('-09:30');
    expect(formatUtcOffset(0)).toBe('+00:00');
  });
});

describe.each(storeKinds)('GET /api/v1/reference-data/* on %s', (kind) => {
  let test: TestStore;
  let app: ReturnType<typeof createApp>;
  let cookie = '';
  // A fixed server clock in northern summer: the offsets answered are those in force then.
  const clock = () => new Date('2026-07-15T12:00:00Z');

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 0 });
    app = createApp({ store: test.store, bus: createMemoryBus(), clock });
    const login = await app.request('/api/internal/session/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: 'demo@example.com', Password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  }, 60_000);

  afterAll(async () => {
    await test?.drop();
  });

  const get = (list: string, organizationId = ORG_DEMO) =>
    app.request(`/api/v1/reference-data/${list}`, { headers: { cookie, 'x-organization-id': organizationId } });

  const lists: Array<[string, z.ZodType<unknown[]>, number]> = [
    ['languages', LanguagesResponseSchema, 183],
    ['countries', CountriesResponseSchema, 249],
    ['podcast-categories', PodcastCategoriesResponseSchema, 19],
    ['normalization-presets', NormalizationPresetsResponseSchema, NORMALIZATION_PRESETS.length],
  ];

  it.each(lists)('%s: the whole list in its wire shape', async (list, schema, count) => {
    const response = await get(list);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = schema.parse(await response.json());
    expect(body).toHaveLength(count);
  });

  it('time-zones: every zone with the offset of the server clock', async () => {
    const response = await get('time-zones');
    expect(response.status).toBe(200);
    const zones = TimeZonesResponseSchema.parse(await response.json());
    expect(zones).toHaveLength(timeZonesAt(clock()).length);
    expect(zones.find((z) => z.IanaId === 'Europe/Berlin')).toMatchObject({ UtcOffset: '+02:00', UtcOffsetMinutes: 120 });
    expect(zones.find((z) => z.IanaId === 'America/Sao_Paulo')).toMatchObject({ UtcOffset: '-03:00' });
    expect(zones.find((z) => z.IanaId === 'Australia/Sydney')).toMatchObject({ UtcOffset: '+10:00' });
  });

  it('is the same in every organization', async () => {
    const demo = await (await get('podcast-categories', ORG_DEMO)).json();
    const podcasts = await (await get('podcast-categories', ORG_PODCASTS)).json();
    expect(podcasts).toEqual(demo);
  });

  it('needs a session: 401 with no body without one', async () => {
    for (const list of ['languages', 'countries', 'time-zones', 'podcast-categories', 'normalization-presets']) {
      const response = await app.request(`/api/v1/reference-data/${list}`);
      expect(response.status, list).toBe(401);
      expect(await response.text()).toBe('');
    }
  });

  it('an unknown list is 404', async () => {
    expect((await get('currencies')).status).toBe(404);
  });
});
