// A playlist's directories and premium feeds (issue 33; section 7 directories, apple-premium,
// playlist-premium-feed-urls, third-party-premium), on PGlite and PostgreSQL: the checklist read
// from the studio's own data, a submission recorded (listing URL at its field, who from the
// session), removed; an offline playlist.setDirectories merged over another field's change and a
// conflict over the same field; the Apple link checked against the settings in effect; Spotify's
// subscriber feed served as a member's private feed and rotated; the program's premium feed URLs
// (ad-free too) read; the specific settings route answering before settings/{name}; who may read
// and write (section 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaylistDirectories, SpotifyPremium } from '../../src/protocol/api/directories.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const FEED = seedId('playlist:morning:feed');
const HIGHLIGHTS = seedId('playlist:morning:highlights');
const URL_OF = (playlistId: string) => `/api/internal/playlists/${playlistId}/directories`;
const DEMO_USER = seedId('user:demo@example.com');

describe.each(storeKinds)('playlist directories and premium feeds on %s', (kind) => {
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

  const read = async (playlistId = FEED): Promise<PlaylistDirectories> => {
    const reply = await api.get(URL_OF(playlistId));
    expect(reply.status, reply.text).toBe(200);
    return reply.body as PlaylistDirectories;
  };
  const item = (d: PlaylistDirectories, id: string) => d.Items.find((i) => i.Directory === id)!;
  const check = (d: PlaylistDirectories, id: string, name: string) => item(d, id).Checklist.find((c) => c.Check === name);

  it('lists every directory never submitted, the feed to submit and what each asks of it, from the program’s data', async () => {
    const reply = await api.get(URL_OF(FEED));
    const d = reply.body as PlaylistDirectories;
    expect(reply.headers.get('etag')).toBe(`"${d.ModifiedAtUtc}"`);
    expect(d.Items.map((i) => i.Directory)).toEqual(['apple-podcasts', 'spotify', 'amazon-music', 'youtube-music', 'pocket-casts', 'podcast-index']);
    expect(d.Items.every((i) => i.State === 'NotSubmitted' && i.SubmittedAtUtc === null)).toBe(true);
    expect(d.FeedUrl).toMatch(new RegExp(`/feeds/${FEED}\\.xml$`));
    // Apple asks for every check; Podcast Index only for a public feed with an episode.
    expect(item(d, 'apple-podcasts').Checklist.map((c) => c.Check)).toEqual(['PublicFeed', 'Description', 'Artwork', 'Category', 'Language', 'Explicit', 'OwnerEmail', 'PublishedEpisode']);
    expect(item(d, 'podcast-index').Checklist.map((c) => c.Check)).toEqual(['PublicFeed', 'PublishedEpisode']);
    expect(check(d, 'apple-podcasts', 'PublicFeed')).toMatchObject({ Ok: true, FixAt: 'Playlist' });
    // No artwork uploaded in the demo: missing, to be fixed on the playlist.
    expect(check(d, 'apple-podcasts', 'Artwork')).toMatchObject({ Ok: false, Value: null, FixAt: 'PlaylistArtwork' });

    // The owner's address set on the program: the check passes, with the address.
    expect((await api.patch(`/api/v1/programs/${MORNING}`, { OwnerEmail: 'not an address' })).status).toBe(400);
    const patched = await api.patch(`/api/v1/programs/${MORNING}`, { OwnerEmail: 'owner@castaway.example', Category: null });
    expect(patched.status, patched.text).toBe(200);
    const after = await read();
    expect(check(after, 'spotify', 'OwnerEmail')).toMatchObject({ Ok: true, Value: 'owner@castaway.example', FixAt: 'ProgramPodcast' });
    expect(check(after, 'spotify', 'Category')).toMatchObject({ Ok: false });
    expect(item(after, 'spotify').Ready).toBe(false);

    // An Unlisted playlist asks directories not to list it: its feed exists but may not be submitted.
    const unlisted = await read(HIGHLIGHTS);
    expect(unlisted.FeedUrl).not.toBeNull();
    expect(check(unlisted, 'pocket-casts', 'PublicFeed')).toMatchObject({ Ok: false, Value: 'Unlisted' });
  });

  it('records a submission with its listing URL, refuses another site’s URL at ListingUrl, and records a removal', async () => {
    const bad = await api.post(`${URL_OF(FEED)}/apple-podcasts`, { ListingUrl: 'https://open.spotify.com/show/abc' });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual([['ListingUrl', 'urlInvalid']]);
    // The sites the directory's listings are on, for the message.
    expect((bad.body as { Errors: Array<{ Params?: { hosts?: string } }> }).Errors[0]!.Params?.hosts).toContain('podcasts.apple.com');
    expect(fields(await api.post(`${URL_OF(FEED)}/apple-podcasts`, { ListingUrl: 'podcasts apple com' }))[0]![0]).toBe('ListingUrl');
    expect(fields(await api.post(`${URL_OF(FEED)}/apple-podcasts`, { ListingUrl: 5 }))[0]![0]).toBe('ListingUrl');
    // Not a directory: no such resource.
    expect((await api.post(`${URL_OF(FEED)}/myspace`, {})).status).toBe(404);

    // Submitted without a body: no listing URL yet.
    expect((await api.send('POST', `${URL_OF(FEED)}/spotify`)).status).toBe(204);
    let d = await read();
    expect(item(d, 'spotify')).toMatchObject({ State: 'Submitted', SubmittedById: DEMO_USER, ListingUrl: null });
    const submittedAt = item(d, 'spotify').SubmittedAtUtc;
    expect(submittedAt).not.toBeNull();

    // The listing URL later: Listed, the first submission's date kept.
    expect((await api.post(`${URL_OF(FEED)}/spotify`, { ListingUrl: ' https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk ' })).status).toBe(204);
    d = await read();
    expect(item(d, 'spotify')).toMatchObject({ State: 'Listed', ListingUrl: 'https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk', SubmittedAtUtc: submittedAt });

    // A stale If-Match on a change the playlist row made since: 412 with the playlist.
    const stale = await api.send('DELETE', `${URL_OF(FEED)}/spotify`, { headers: { 'if-match': '"2001-01-01T00:00:00.000Z"' } });
    expect(stale.status).toBe(412);

    expect((await api.delete(`${URL_OF(FEED)}/spotify`)).status).toBe(204);
    d = await read();
    expect(item(d, 'spotify')).toMatchObject({ State: 'Removed', RemovedById: DEMO_USER, ListingUrl: 'https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk' });
    // Removing one never submitted changes nothing.
    const before = (await read()).ModifiedAtUtc;
    expect((await api.delete(`${URL_OF(FEED)}/pocket-casts`)).status).toBe(204);
    expect((await read()).ModifiedAtUtc).toBe(before);
    // The playlist row carries the record to devices.
    const row = (await api.get(`/api/v1/playlists/${FEED}`)).body as { Directories: Record<string, { RemovedAtUtc: string | null }> };
    expect(row.Directories['spotify']!.RemovedAtUtc).not.toBeNull();
  });

  it('offline: playlist.setDirectories on an old base merges over a title change; over another directories change it is a conflict', async () => {
    const playlist = async () => (await api.get(`/api/v1/playlists/${HIGHLIGHTS}`)).body as { ModifiedAtUtc: string; Title: string; Directories?: Record<string, { ListingUrl: string | null; SubmittedById: string | null }> };
    const base = (await playlist()).ModifiedAtUtc;
    const entry = (url: string | null) => ({ SubmittedAtUtc: '2026-12-01T10:00:00.000Z', SubmittedById: 'someone-else', ListingUrl: url, RemovedAtUtc: null, RemovedById: null });

    expect((await api.patch(`/api/v1/playlists/${HIGHLIGHTS}`, { Title: 'Highlights, renamed' })).status).toBe(200);
    const merged = await api.pushOne('playlist.setDirectories', { playlistId: HIGHLIGHTS, Directories: { 'pocket-casts': entry('https://pca.st/abcd') } }, base);
    expect(merged.status).toBe('merged');
    const now = await playlist();
    expect(now.Title).toBe('Highlights, renamed');
    // Who submitted is the session's user, not what the device said.
    expect(now.Directories?.['pocket-casts']).toMatchObject({ ListingUrl: 'https://pca.st/abcd', SubmittedById: DEMO_USER });

    // Two devices on the same base, both changing the directories: the second is a conflict.
    const shared = now.ModifiedAtUtc;
    expect((await api.pushOne('playlist.setDirectories', { playlistId: HIGHLIGHTS, Directories: { 'pocket-casts': entry('https://pca.st/one') } }, shared)).status).toBe('applied');
    // The server tells this one apart from its own earlier push only by client: another client.
    const other = await api.pushOne('playlist.setDirectories', { playlistId: HIGHLIGHTS, Directories: { 'pocket-casts': entry('https://pca.st/two') } }, shared);
    expect(other.status).toBe('conflict');
    expect(other.fields?.map((f) => f.field)).toEqual(['Directories']);

    // A queued edit the rules refuse: rejected at the field.
    const refused = await api.pushOne('playlist.setDirectories', { playlistId: HIGHLIGHTS, Directories: { spotify: entry('https://example.com/x') } });
    expect(refused).toMatchObject({ status: 'rejected', httpStatus: 400 });
    expect(refused.errors?.map((e) => e.Field)).toEqual(['Directories.spotify.ListingUrl']);
  });

  it('links the playlist to Apple Podcasts Subscriptions; the link is incomplete until the settings in effect allow delivery, and resync says so', async () => {
    expect((await read()).ApplePremium).toMatchObject({ State: 'NotLinked', LinkedAtUtc: null });
    expect(fields(await api.post(`${URL_OF(FEED)}/apple-premium`, { Linked: 'yes' }))).toEqual([['Linked', 'invalid']]);
    expect(fields(await api.send('POST', `${URL_OF(FEED)}/apple-premium`))).toEqual([['body', 'required']]);

    expect((await api.post(`${URL_OF(FEED)}/apple-premium`, { Linked: true })).status).toBe(204);
    let link = (await read()).ApplePremium;
    expect(link).toMatchObject({ State: 'SettingsIncomplete', Missing: ['Enabled', 'ProviderId', 'ShowId'], LinkedById: DEMO_USER });

    // The organization's provider, the program's show and switch: delivery possible.
    expect((await api.send('PUT', '/api/v1/settings/apple-premium', { json: { ProviderId: 'CastawayMedia' } })).status).toBe(200);
    expect((await api.send('PUT', `/api/v1/programs/${MORNING}/settings/apple-premium`, { json: { Enabled: true, ShowId: '1234567890' } })).status).toBe(200);
    seeded.clock.advance(60_000);
    expect((await api.post(`${URL_OF(FEED)}/apple-premium/resync`, {})).status).toBe(204);
    link = (await read()).ApplePremium;
    expect(link).toMatchObject({ State: 'Linked', Missing: [] });
    expect(Date.parse(link.CheckedAtUtc!)).toBeGreaterThan(Date.parse(link.LinkedAtUtc!));

    const apple = await api.get('/api/internal/third-party-premium/apple');
    expect(apple.status, apple.text).toBe(200);
    expect(apple.body).toMatchObject({ Enabled: false, ProviderId: 'CastawayMedia', Items: [{ PlaylistId: FEED, ProgramId: MORNING, State: 'Linked' }] });

    // The linking report (an async report): the Restricted episode of the playlist, delivered.
    const made = await api.post(`/api/v1/programs/${MORNING}/clips`, { Title: 'Members only' });
    const clipId = (made.body as { Id: string }).Id;
    await test.store.query(
      `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Restricted', slug = 'members-only',
         data = data || '{"PublishedUtc":"2026-11-01T08:00:00.000Z"}'::jsonb || jsonb_build_object('Urls', coalesce(data->'Urls', '{}'::jsonb) || jsonb_build_object('AudioPublicUrl', '/audio/' || id || '.mp3')),
         version = next_row_version(), modified_at_utc = modified_at_utc + interval '1 millisecond' WHERE id = $1`,
      [clipId],
    );
    const clipIds = ((await api.get(`/api/v1/playlists/${FEED}`)).body as { ClipIds: string[] }).ClipIds;
    expect((await api.patch(`/api/v1/playlists/${FEED}/clips`, { ClipIds: [clipId, ...clipIds] })).status).toBe(204);
    const started = await api.post(`${URL_OF(FEED)}/apple-premium/linking-report`, {});
    expect(started.status, started.text).toBe(202);
    const operation = started.body as { Id: string; Kind: string; Status: string };
    expect(operation).toMatchObject({ Kind: 'apple-premium-linking-report', Status: 'Busy' });
    await seeded.app.jobs.drain();
    const done = (await api.get(`/api/v1/reports/apple-premium-linking-report/${operation.Id}`)).body as { Status: string; Result: { Columns: Array<{ Key: string }>; Rows: unknown[][] } };
    expect(done.Status).toBe('Success');
    expect(done.Result.Columns.map((c) => c.Key)).toEqual(['ClipId', 'Clip', 'Visibility', 'PublishState', 'Linking']);
    expect(done.Result.Rows).toContainEqual([clipId, 'Members only', 'Restricted', 'Published', 'Delivered']);
    // Only premium clips are listed.
    expect(done.Result.Rows.every((r) => r[2] === 'Restricted')).toBe(true);

    expect((await api.post(`${URL_OF(FEED)}/apple-premium`, { Linked: false })).status).toBe(204);
    expect((await read()).ApplePremium.State).toBe('NotLinked');
    expect((await api.get('/api/internal/third-party-premium/apple')).body).toMatchObject({ Items: [] });
  });

  it('serves Spotify’s subscriber feed as a member’s private feed, with a token that rotates and dies when turned off', async () => {
    const SPOTIFY = `/api/internal/playlists/${FEED}/third-party-premium/spotify`;
    expect((await api.get(SPOTIFY)).body).toMatchObject({ Enabled: false, FeedUrl: null });
    expect(fields(await api.send('PUT', SPOTIFY, { json: {} }))).toEqual([['Enabled', 'required']]);

    const on = await api.send('PUT', SPOTIFY, { json: { Enabled: true } });
    expect(on.status, on.text).toBe(200);
    const first = on.body as SpotifyPremium;
    expect(first.FeedUrl).toMatch(new RegExp(`/feeds/${FEED}/members/[A-Za-z0-9_-]{32}\\.xml$`));
    const path = (url: string) => new URL(url).pathname;
    const feed = await api.get(path(first.FeedUrl!));
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toContain('application/rss+xml');
    expect(feed.text).toContain('<rss');

    const rotated = (await api.send('PUT', SPOTIFY, { json: { Enabled: true, RotateToken: true } })).body as SpotifyPremium;
    expect(rotated.FeedUrl).not.toBe(first.FeedUrl);
    expect(rotated.MemberId).toBe(first.MemberId);
    expect((await api.get(path(first.FeedUrl!))).status).toBe(404);
    expect((await api.get(path(rotated.FeedUrl!))).status).toBe(200);

    const off = (await api.send('PUT', SPOTIFY, { json: { Enabled: false } })).body as SpotifyPremium;
    expect(off).toMatchObject({ Enabled: false, FeedUrl: null });
    expect((await api.get(path(rotated.FeedUrl!))).status).toBe(404);
    // On again: one member still, a new secret.
    const again = (await api.send('PUT', SPOTIFY, { json: { Enabled: true } })).body as SpotifyPremium;
    expect(again.MemberId).toBe(first.MemberId);
    expect(again.FeedUrl).not.toBe(rotated.FeedUrl);
  });

  it('lists the program’s premium feed URLs per playlist and member, ad-free ones too, and answers before settings/{name}', async () => {
    const member = await api.post(`/api/v1/programs/${MORNING}/members`, { Name: 'Avery Listener', Email: 'avery@example.com' });
    expect(member.status, member.text).toBe(201);
    const memberId = (member.body as { Id: string }).Id;
    // A named setting of the same name may be stored; the GET is still the feed URLs.
    expect((await api.send('PUT', `/api/internal/programs/${MORNING}/settings/playlist-premium-feed-urls`, { json: { Value: { any: 1 } } })).status).toBe(200);
    const FEED_URLS = `/api/internal/programs/${MORNING}/settings/playlist-premium-feed-urls`;
    const plain = await api.get(FEED_URLS);
    expect(plain.status, plain.text).toBe(200);
    type Urls = { AdFree: boolean; Items: Array<{ PlaylistId: string; Members: Array<{ MemberId: string; Url: string }> }> };
    const list = plain.body as Urls;
    expect(list.AdFree).toBe(false);
    const ofFeed = list.Items.find((i) => i.PlaylistId === FEED)!.Members.find((m) => m.MemberId === memberId)!;
    // The member's own URL, as GET …/members/{memberId}/url gives it.
    const own = (await api.get(`/api/internal/playlists/${FEED}/members/${memberId}/url`)).body as { Url: string };
    expect(ofFeed.Url).toBe(own.Url);

    // A Restricted episode published in the playlist (as the publishing job leaves it).
    const made = await api.post(`/api/v1/programs/${MORNING}/clips`, { Title: 'For subscribers' });
    const clipId = (made.body as { Id: string }).Id;
    await test.store.query(
      `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Restricted', slug = 'for-subscribers',
         data = data || '{"PublishedUtc":"2026-11-01T08:00:00.000Z","PublishedAudioSizeInBytes":1000,"PublishedDurationSeconds":12}'::jsonb
           || jsonb_build_object('Urls', coalesce(data->'Urls', '{}'::jsonb) || jsonb_build_object('AudioPublicUrl', '/audio/' || id || '.mp3')),
         version = next_row_version(), modified_at_utc = modified_at_utc + interval '1 millisecond' WHERE id = $1`,
      [clipId],
    );
    const clipIds = ((await api.get(`/api/v1/playlists/${FEED}`)).body as { ClipIds: string[] }).ClipIds;
    expect((await api.patch(`/api/v1/playlists/${FEED}/clips`, { ClipIds: [clipId, ...clipIds] })).status).toBe(204);

    const adFree = (await api.get(`${FEED_URLS}?adFree=true`)).body as Urls;
    const adFreeUrl = adFree.Items.find((i) => i.PlaylistId === FEED)!.Members.find((m) => m.MemberId === memberId)!.Url;
    expect(adFreeUrl).toBe(`${own.Url}?adFree=true`);
    const u = new URL(adFreeUrl);
    const rss = await api.get(`${u.pathname}${u.search}`);
    expect(rss.status).toBe(200);
    // Every enclosure signed for the ad-free audio.
    const enclosures = [...rss.text.matchAll(/<enclosure url="([^"]+)"/g)].map((m) => m[1]!);
    expect(enclosures.length).toBeGreaterThan(0);
    expect(enclosures.every((e) => e.includes('&amp;af=1&amp;'))).toBe(true);
    // Without adFree the same episode is signed as its own setting says (not ad-free).
    const plainRss = await api.get(new URL(own.Url).pathname);
    expect([...plainRss.text.matchAll(/<enclosure url="([^"]+)"/g)].map((m) => m[1]!).some((e) => e.includes('&amp;af=0&amp;'))).toBe(true);

    expect(fields(await api.get(`${FEED_URLS}?adFree=maybe`))[0]![0]).toBe('adFree');
    // Other names are still named settings.
    expect((await api.get(`/api/internal/programs/${MORNING}/settings/player.theme`)).status).toBe(404);
  });

  it('section 6: reads with content access, writes with manage-settings too, premium feeds only for those who manage members', async () => {
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    expect((await producer.get(URL_OF(FEED))).status).toBe(200);
    expect((await producer.post(`${URL_OF(FEED)}/pocket-casts`, {})).status).toBe(403);
    expect((await producer.delete(`${URL_OF(FEED)}/spotify`)).status).toBe(403);
    expect((await producer.post(`${URL_OF(FEED)}/apple-premium`, { Linked: true })).status).toBe(403);
    expect((await producer.get(`/api/internal/playlists/${FEED}/third-party-premium/spotify`)).status).toBe(403);
    expect((await producer.get(`/api/internal/programs/${MORNING}/settings/playlist-premium-feed-urls`)).status).toBe(403);

    const analyst = new AppClient(seeded.app);
    await analyst.login('analyst@example.com');
    analyst.organizationId = ORG_DEMO;
    expect((await analyst.get(URL_OF(FEED))).status).toBe(404);
    expect((await analyst.get(URL_OF(FEED))).text).toBe('');
    expect((await analyst.get('/api/internal/third-party-premium/apple')).body).toMatchObject({ Items: [] });
  });
});
