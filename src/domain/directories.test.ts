import { describe, expect, it } from 'vitest';
import { EMPTY_APPLE_PREMIUM, APPLE_PREMIUM_DEFAULTS } from './apple-premium.ts';
import {
  applePremiumLinkState,
  applePremiumMissing,
  directoriesErrors,
  directoryChecklist,
  directoryChecks,
  directoryState,
  listingUrlError,
  markRemoved,
  markSubmitted,
  premiumClipLinking,
} from './directories.ts';

const at = '2026-12-05T10:00:00.000Z';
const published = { State: 'Ready', PublishState: 'Published', Visibility: 'Public' };

describe('directory submissions', () => {
  it('goes NotSubmitted → Submitted → Listed → Removed → Submitted, the first date kept while live', () => {
    let r = markSubmitted({}, 'spotify', { at, userId: 'u1' });
    expect(directoryState(r.spotify)).toBe('Submitted');
    r = markSubmitted(r, 'spotify', { at: '2026-12-06T00:00:00.000Z', userId: 'u2', listingUrl: ' https://open.spotify.com/show/x ' });
    expect(r.spotify).toMatchObject({ SubmittedAtUtc: at, SubmittedById: 'u1', ListingUrl: 'https://open.spotify.com/show/x' });
    expect(directoryState(r.spotify)).toBe('Listed');
    r = markRemoved(r, 'spotify', { at, userId: 'u2' });
    expect(directoryState(r.spotify)).toBe('Removed');
    expect(markRemoved(r, 'spotify', { at, userId: 'u3' })).toBe(r);
    r = markSubmitted(r, 'spotify', { at: '2026-12-07T00:00:00.000Z', userId: 'u3' });
    expect(r.spotify).toMatchObject({ SubmittedAtUtc: '2026-12-07T00:00:00.000Z', ListingUrl: null, RemovedAtUtc: null });
    expect(markRemoved({}, 'apple-podcasts', { at, userId: 'u1' })).toEqual({});
  });

  it('takes a listing URL of the directory’s own site only', () => {
    expect(listingUrlError('apple-podcasts', 'https://podcasts.apple.com/us/podcast/x/id123')).toBeNull();
    expect(listingUrlError('pocket-casts', 'https://pca.st/abcd')).toBeNull();
    expect(listingUrlError('apple-podcasts', 'https://open.spotify.com/show/x')).toMatchObject({ type: 'urlInvalid', reason: 'directoryHost' });
    expect(listingUrlError('spotify', 'https://evilspotify.com/show')).toMatchObject({ reason: 'directoryHost' });
    expect(listingUrlError('spotify', 'open spotify')).toMatchObject({ type: 'urlInvalid' });
    expect(listingUrlError('spotify', '')).toBeNull();
    const entry = { SubmittedAtUtc: null, SubmittedById: null, ListingUrl: 'https://pca.st/x', RemovedAtUtc: null, RemovedById: null };
    expect(directoriesErrors({ 'pocket-casts': entry }).map((e) => e.field)).toEqual(['Directories.pocket-casts.SubmittedAtUtc']);
    expect(directoriesErrors({ myspace: entry } as never).map((e) => e.field)).toEqual(['Directories.myspace']);
  });
});

describe('directory checklist', () => {
  const facts = {
    playlist: { Visibility: 'Public', Description: 'About' },
    program: { Category: 'news', Language: 'de', OwnerEmail: 'owner@example.com', Explicit: true },
    organization: null,
    artwork: { width: 1400, height: 1400 },
    clips: [published],
    now: new Date(at),
  };
  it('passes a feed with everything, each check with its value', () => {
    const checks = directoryChecks(facts);
    expect(checks.every((c) => c.Ok)).toBe(true);
    expect(checks.find((c) => c.Check === 'Explicit')?.Value).toBe('true');
    expect(checks.find((c) => c.Check === 'Artwork')?.Value).toBe('1400×1400');
    expect(directoryChecklist('apple-podcasts', checks).ready).toBe(true);
  });
  it('names what is missing where it is fixed; a directory that does not ask is still ready', () => {
    const checks = directoryChecks({ ...facts, artwork: { width: 3000, height: 2000 }, program: { ...facts.program, OwnerEmail: null }, clips: [{ ...published, PublishState: 'Unpublished' }] });
    const apple = directoryChecklist('apple-podcasts', checks);
    expect(apple.ready).toBe(false);
    expect(apple.checklist.filter((c) => !c.Ok).map((c) => [c.Check, c.FixAt])).toEqual([
      ['Artwork', 'PlaylistArtwork'],
      ['OwnerEmail', 'ProgramPodcast'],
      ['PublishedEpisode', 'PlaylistClips'],
    ]);
    expect(directoryChecklist('podcast-index', directoryChecks({ ...facts, artwork: null })).ready).toBe(true);
    // Unlisted: the feed asks not to be listed.
    expect(directoryChecks({ ...facts, playlist: { Visibility: 'Unlisted' } }).find((c) => c.Check === 'PublicFeed')?.Ok).toBe(false);
    // The organization's language stands in for the program's.
    expect(directoryChecks({ ...facts, program: { ...facts.program, Language: null }, organization: { Language: 'fr' } }).find((c) => c.Check === 'Language')).toMatchObject({ Ok: true, Value: 'fr' });
  });
});

describe('Apple Podcasts Subscriptions link', () => {
  const complete = { ...APPLE_PREMIUM_DEFAULTS, Enabled: true, ProviderId: 'P', ShowId: '1' };
  it('is incomplete until the settings in effect allow delivery', () => {
    expect(applePremiumLinkState(false, complete)).toBe('NotLinked');
    expect(applePremiumLinkState(true, complete)).toBe('Linked');
    expect(applePremiumMissing({ ...EMPTY_APPLE_PREMIUM })).toEqual(['Enabled', 'ProviderId', 'ShowId']);
    expect(applePremiumLinkState(true, { ...complete, ShowId: null })).toBe('SettingsIncomplete');
  });
  it('says where each premium clip stands', () => {
    const now = new Date(at);
    const restricted = { ...published, Visibility: 'Restricted' };
    expect(premiumClipLinking(restricted, 'Linked', now)).toBe('Delivered');
    expect(premiumClipLinking({ ...restricted, PublishState: 'Unpublished' }, 'Linked', now)).toBe('NotPublished');
    expect(premiumClipLinking(restricted, 'NotLinked', now)).toBe('PlaylistNotLinked');
    expect(premiumClipLinking(restricted, 'SettingsIncomplete', now)).toBe('SettingsIncomplete');
  });
});
