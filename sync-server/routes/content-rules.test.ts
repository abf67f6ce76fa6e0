// A clip after a change: the rules of src/domain/clip-rules.ts, refused exactly as the domain
// refuses them, then the slug's uniqueness in the store (PGlite), then the derived fields of
// section 4: its embed and show-page URLs follow its visibility, slug and program whatever the
// change was, and its other URLs are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clipDefaults, emptyClipUrls } from '../../src/domain/clip-defaults.ts';
import { VISIBILITIES } from '../../src/domain/clip.ts';
import { clipFieldErrors } from '../../src/domain/clip-rules.ts';
import type { ClipPatch } from '../../src/protocol/entities.ts';
import { BadRequestBodySchema, type FieldError } from '../../src/protocol/errors.ts';
import { openTestStore, type TestStore } from '../../tests/server/test-store.ts';
import { AppError, fieldError } from '../errors.ts';
import type { Queryable } from '../store/store.ts';
import { applyClipChange } from './content-rules.ts';

// A title edit reads nothing from the store (no slug to check).
const noStore: Queryable = {
  query: () => {
    throw new Error('no query expected');
  },
};
const clipId = '5f0c9c1e-8e8a-4c55-a1a4-2f0f5b6f2a01';
const programId = '0b8f6a34-9c1d-4e0f-8b7a-2d7f3c9e1b10';
const ctx = (programSlug: string | null) => ({ organizationId: 'o', clipId, programSlug, now: new Date('2026-11-26T10:00:00.000Z'), isNew: false });
const publicClip = (urls: Record<string, unknown>) => ({ ...clipDefaults(), ProgramId: programId, Slug: 'monday', Visibility: 'Public', PublishedUtc: '2026-11-01T10:00:00.000Z', Urls: urls });

describe('applyClipChange: the clip URLs', () => {
  it('a title edit keeps URLs that are still right as they are', async () => {
    const urls = { ...emptyClipUrls(), AudioPublicUrl: '/audio/a.mp3', EmbedUrl: `/embed/${clipId}`, ShowPageUrl: `/shows/${programId}/monday` };
    const next = await applyClipChange(noStore, publicClip(urls), { Title: 'Monday news' }, ctx('news'));
    expect(next['Urls']).toEqual(urls);
    expect(next['Title']).toBe('Monday news');
  });

  it('a title edit refreshes a show-page URL of an earlier shape (the program named by its slug)', async () => {
    const urls = { ...emptyClipUrls(), AudioPublicUrl: '/audio/a.mp3', EmbedUrl: `/embed/${clipId}`, ShowPageUrl: '/shows/news/monday' };
    const next = await applyClipChange(noStore, publicClip(urls), { Title: 'Monday news' }, ctx('news'));
    expect(next['Urls']).toEqual({ ...urls, ShowPageUrl: `/shows/${programId}/monday` });
  });


  it('the embed link override is set when sent and kept when not', async () => {
    const urls = { ...emptyClipUrls(), EmbedUrl: `/embed/${clipId}`, ShowPageUrl: `/shows/${programId}/monday` };
    const set = await applyClipChange(noStore, publicClip(urls), { EmbedShareLinkOverrideUrl: 'https://example.com/ep' }, ctx('news'));
    expect(set['Urls']).toEqual({ ...urls, EmbedShareLinkOverrideUrl: 'https://example.com/ep' });
    const kept = await applyClipChange(noStore, set, { Title: 'Again' }, ctx('news'));
    expect((kept['Urls'] as Record<string, unknown>)['EmbedShareLinkOverrideUrl']).toBe('https://example.com/ep');
  });

  it('a clip stored without some URLs gets every one after any edit', async () => {
    const next = await applyClipChange(noStore, publicClip({ AudioPublicUrl: '/audio/a.mp3' }), { Title: 'Complete' }, ctx('news'));
    expect(next['Urls']).toEqual({
      ...emptyClipUrls(),
      AudioPublicUrl: '/audio/a.mp3',
      EmbedUrl: `/embed/${clipId}`,
      ShowPageUrl: `/shows/${programId}/monday`,
    });
  });
});

// The server refuses a clip change exactly when src/domain/clip-rules.ts does (the clip screen
// runs the same function before it saves), with the same fields, codes and words; the one rule
// the domain leaves out, a slug in use in the program, is the store's.
describe('applyClipChange refuses exactly what clipFieldErrors refuses', () => {
  let t: TestStore;
  const ORG = '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const taken = 'taken-slug';
  beforeAll(async () => {
    t = await openTestStore('pglite');
    const at = '2026-01-01T00:00:00.000Z';
    await t.store.query(
      `INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'Org', 'Podcaster', $2, $2, 1)`,
      [ORG, at],
    );
    await t.store.query(
      `INSERT INTO clips (id, organization_id, program_id, title, slug, state, publish_state, visibility, created_at_utc, modified_at_utc, version)
       VALUES ($1, $2, $3, 'Other', $4, 'Draft', 'Unpublished', 'Private', $5, $5, 2)`,
      ['1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', ORG, programId, taken, at],
    );
  });
  afterAll(() => t.drop());

  const stored = { ...clipDefaults(), Title: 'Pilot', ProgramId: programId };
  const context = (isNew: boolean) => ({ organizationId: ORG, clipId, programSlug: 'news', now: new Date('2026-11-26T10:00:00.000Z'), isNew });

  /** The field errors the server answers with, or 'saved'. */
  async function serverSays(current: Record<string, unknown>, patch: ClipPatch, isNew: boolean): Promise<FieldError[] | 'saved'> {
    try {
      await applyClipChange(t.store, current, patch, context(isNew));
      return 'saved';
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      return BadRequestBodySchema.parse((error as AppError).body).Errors;
    }
  }
  const domainSays = (current: Record<string, unknown>, patch: ClipPatch, isNew: boolean): FieldError[] | 'saved' => {
    const errors = Object.entries(clipFieldErrors(current, patch, { isNew })).map(([field, e]) => fieldError(field, e));
    return errors.length === 0 ? 'saved' : errors;
  };

  it.each<[string, Record<string, unknown>, ClipPatch, boolean]>([
    ['Public without a slug', stored, { Visibility: 'Public' }, false],
    ['a new clip made Public without a slug', clipDefaults(), { Title: 'New', Visibility: 'Public' }, true],
    ['a saved slug cleared', { ...stored, Slug: 'pilot' }, { Slug: '' }, false],
    ['a reserved slug', stored, { Slug: 'rss' }, false],
    ['a malformed slug', stored, { Slug: 'Not A Slug' }, false],
    ['a schedule without its time', stored, { ScheduledVisibility: 'Public' }, false],
    ['a time without its schedule', stored, { VisibleAtUtc: '2031-01-01T08:00:00+01:00' }, false],
    ['a time before 1753', stored, { ScheduledVisibility: 'Public', VisibleAtUtc: '1700-01-01T00:00:00Z' }, false],
    ['Season and Episode out of range', stored, { Season: -1, Episode: 2147483648 }, false],
    ['a title too long, every field at once', stored, { Title: 'x'.repeat(256), Season: 1.5, RssLinkOverride: 'feed', Slug: 'admin' }, false],
    ['an RSS link override that is not a URL', stored, { RssLinkOverride: 'ftp://example.com/feed' }, false],
    ['a whitespace title', stored, { Title: '   ' }, false],
    ['Public with a slug', stored, { Visibility: 'Public', Slug: 'pilot' }, false],
  ])('%s', async (_, current, patch, isNew) => {
    expect(await serverSays(current, patch, isNew)).toEqual(domainSays(current, patch, isNew));
  });

  it('for any change of the ruled fields, the server saves it exactly when the domain finds nothing wrong', async () => {
    const text = fc.oneof(fc.constantFrom('', ' ', 'pilot', 'Pilot', 'admin', 'a--b', 'news-2', 'x'.repeat(101)), fc.string({ maxLength: 8 }));
    const change = fc.record(
      {
        Title: fc.option(fc.oneof(fc.string({ maxLength: 4 }), fc.constant('x'.repeat(256))), { nil: null }),
        Season: fc.option(fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom(2147483648, 0.5)), { nil: null }),
        Episode: fc.option(fc.integer({ min: -2, max: 3 }), { nil: null }),
        Slug: fc.option(text, { nil: null }),
        Visibility: fc.constantFrom(...VISIBILITIES),
        ScheduledVisibility: fc.option(fc.constantFrom(...VISIBILITIES), { nil: null }),
        VisibleAtUtc: fc.option(fc.constantFrom('2031-01-01T08:00:00+01:00', '1600-01-01T00:00:00Z'), { nil: null }),
        RssLinkOverride: fc.option(fc.constantFrom('https://example.com/feed', 'feed', ''), { nil: null }),
      },
      { requiredKeys: [] },
    );
    const current = fc.record({
      Slug: fc.option(fc.constantFrom('pilot', 'admin'), { nil: null }),
      Visibility: fc.constantFrom(...VISIBILITIES),
      ScheduledVisibility: fc.constant(null),
      VisibleAtUtc: fc.constant(null),
    });
    await fc.assert(
      fc.asyncProperty(current, change, fc.boolean(), async (now, patch, isNew) => {
        const row = { ...stored, ...now };
        expect(await serverSays(row, patch, isNew)).toEqual(domainSays(row, patch, isNew));
      }),
      { numRuns: 400 },
    );
  });

  it('a slug another clip of the program holds: the domain finds nothing wrong, the store says SlugExists', async () => {
    expect(domainSays(stored, { Slug: taken }, false)).toBe('saved');
    expect(await serverSays(stored, { Slug: taken }, false)).toEqual([
      { Field: 'Slug', Code: 'SlugExists', Message: 'This slug is already in use in this program', MessageKey: 'domain_slug_exists_in_program' },
    ]);
    // The clip that holds it may keep it.
    expect(await applyClipChange(t.store, { ...stored, Slug: taken }, { Slug: taken, Visibility: 'Public' }, { ...context(false), clipId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' })).toMatchObject({
      Slug: taken,
      Visibility: 'Public',
    });
  });

  it('stores the change normalised: a whitespace title as null, an empty slug as none, VisibleAtUtc in UTC', async () => {
    const next = await applyClipChange(t.store, stored, { Title: ' \t', Slug: '', ScheduledVisibility: 'Public', VisibleAtUtc: '2031-01-01T08:00:00+01:00' }, context(false));
    expect(next).toMatchObject({ Title: null, Slug: null, ScheduledVisibility: 'Public', VisibleAtUtc: '2031-01-01T07:00:00.000Z' });
  });
});
