// Members and their private feeds (issue 29): the member API, the private feed (read back by the
// Podcast Index's podcast-partytime), the signed media URLs its enclosures carry (real audio from
// the shared fixtures, Range), and every way such a URL is refused: a tampered signature, expiry,
// a retired key, a revoked or removed member, a Private clip. One e-mail address per live member
// of a program: refused at Email on create, change and restore, also when two requests race.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from 'podcast-partytime';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { MEMBER_URL_LIFETIME_SECONDS, SIGNING_KEY_GRACE_SECONDS } from '../../src/domain/member-feeds.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { AppError } from '../../sync-server/errors.ts';
import { insertMember } from '../../sync-server/members/members.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { clipKeys, mediaFiles } from '../../sync-server/audio/media-paths.ts';
import { signedQueryString, signMemberAudio } from '../../sync-server/members/signing.ts';
import { podcastGuid } from '../../sync-server/feeds/rss.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, type TestStore } from './test-store.ts';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';

// The shared fixtures, wherever the clone is (CASTAWAY_FIXTURES_DIR when set: .ci/run sets it for a clone made elsewhere).
const FIXTURE = join(SHARED_FIXTURES_DIR, 'speech-12s.mp3');
const ORIGIN = 'http://localhost';

let test: TestStore;
let seeded: SeededApp;
let api: AppClient;
let blobDir: string;
let audioBytes: Buffer;
let programId: string;
let playlistId: string;
const clip: Record<'open' | 'restricted' | 'private', string> = { open: '', restricted: '', private: '' };

beforeAll(async () => {
  blobDir = await mkdtemp(join(tmpdir(), 'castaway-members-'));
  process.env.CASTAWAY_BLOB_DIR = blobDir;
  test = await openTestStore('pglite');
  seeded = await seededApp(test.store);
  api = new AppClient(seeded.app);
  await api.login('demo@example.com');
  api.organizationId = ORG_DEMO;
  audioBytes = await readFile(FIXTURE);

  const program = await api.post('/api/v1/programs', { Name: `Members show ${crypto.randomUUID().slice(0, 8)}`, OwnerEmail: 'owner@example.com' });
  expect(program.status, program.text).toBe(201);
  programId = (program.body as { Id: string }).Id;
  const playlist = await api.post(`/api/v1/programs/${programId}/playlists`, { Title: 'Main feed', Visibility: 'Public' });
  expect(playlist.status, playlist.text).toBe(201);
  playlistId = (playlist.body as { Id: string }).Id;
  const blobs = fsBlobStore(blobDir);
  for (const [key, visibility, adFree] of [
    ['open', 'Public', false],
    ['restricted', 'Restricted', true],
    ['private', 'Private', true],
  ] as const) {
    const made = await api.post(`/api/v1/programs/${programId}/clips`, { Title: `The ${key} episode` });
    expect(made.status, made.text).toBe(201);
    const id = (made.body as { Id: string }).Id;
    clip[key] = id;
    // What publishing leaves on a clip, written as the publishing job writes it, and its published file.
    const data = { PublishedUtc: '2025-05-01T08:00:00.000Z', PublishedAudioSizeInBytes: audioBytes.byteLength, PublishedDurationSeconds: 12, MemberDownloadsAdFree: adFree };
    await test.store.query(
      `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = $2, slug = $3, data = data || $4::jsonb || jsonb_build_object('Urls', coalesce(data->'Urls', '{}'::jsonb) || $5::jsonb),
         version = next_row_version(), modified_at_utc = modified_at_utc + interval '1 millisecond' WHERE id = $1`,
      [id, visibility, `ep-${key}`, JSON.stringify(data), JSON.stringify({ AudioPublicUrl: publicPaths.audio(id, 'mp3') })],
    );
    const folder = clipKeys.versionFolder(id, 'v1');
    await blobs.putBytes(mediaFiles.audio(folder), audioBytes);
    await blobs.putBytes(clipKeys.published(id), JSON.stringify({ version: 'v1', folder, contentType: 'audio/mpeg', ext: 'mp3', size: audioBytes.byteLength, durationSeconds: 12, upload: 'u1', edit: null }));
  }
  const set = await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: [clip.open, clip.restricted, clip.private] });
  expect(set.status, set.text).toBe(204);
}, 180_000);

afterAll(async () => {
  await seeded?.app.downloads.flush();
  await test?.drop();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

type Member = { Id: string; Name: string; Email: string; Note: string | null; Revoked: boolean };

async function addMember(name: string, email: string, note?: string): Promise<Member> {
  const reply = await api.post(`/api/v1/programs/${programId}/members`, { Name: name, Email: email, ...(note ? { Note: note } : {}) });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as Member;
}

async function feedUrlOf(memberId: string): Promise<string> {
  const reply = await api.get(`/api/internal/playlists/${playlistId}/members/${memberId}/url`);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as { Url: string }).Url;
}

async function fetchText(url: string, headers: Record<string, string> = {}) {
  const res = await seeded.app.request(url, { headers });
  const raw = Buffer.from(await res.arrayBuffer());
  const text = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return { status: res.status, headers: res.headers, text };
}

const enclosures = (xml: string) => parseFeed(xml)!.items.map((i) => i.enclosure!.url);

describe('the member API', () => {
  it('creates, lists with a filter and pages, changes and removes members', async () => {
    const ada = await addMember('Ada Listener', 'ada@example.com', 'Patron since 2024');
    await addMember('Bob Fan', 'bob@example.org');
    await addMember('Cleo 100%_fan', 'cleo@example.net');
    expect(ada).toMatchObject({ Name: 'Ada Listener', Email: 'ada@example.com', Note: 'Patron since 2024', Revoked: false });

    const all = await api.get(`/api/v1/programs/${programId}/members`);
    expect(all.status).toBe(200);
    expect((all.body as { Items: Member[] }).Items.map((m) => m.Name)).toEqual(['Ada Listener', 'Bob Fan', 'Cleo 100%_fan']);
    const byMail = await api.get(`/api/v1/programs/${programId}/members?filter=EXAMPLE.ORG`);
    expect((byMail.body as { Items: Member[] }).Items.map((m) => m.Name)).toEqual(['Bob Fan']);
    // LIKE's wildcards are plain text in a filter.
    const literal = await api.get(`/api/v1/programs/${programId}/members?filter=${encodeURIComponent('%_')}`);
    expect((literal.body as { Items: Member[] }).Items.map((m) => m.Name)).toEqual(['Cleo 100%_fan']);
    const page2 = await api.get(`/api/v1/programs/${programId}/members?page=2&pageSize=2`);
    expect(page2.body).toMatchObject({ Page: 2, HasNext: false, Items: [{ Name: 'Cleo 100%_fan' }] });

    const patched = await api.patch(`/api/v1/members/${ada.Id}`, { Name: 'Ada L.', Note: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ Name: 'Ada L.', Email: 'ada@example.com', Note: null });

    const removed = await api.delete(`/api/v1/members/${ada.Id}`);
    expect(removed.status).toBe(204);
    expect((await api.patch(`/api/v1/members/${ada.Id}`, { Name: 'Back?' })).status).toBe(404);
  });

  it('answers bad input with a 400 naming each field', async () => {
    const missing = await api.post(`/api/v1/programs/${programId}/members`, { Email: 'not an address', Note: 'x'.repeat(2001) });
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(expect.arrayContaining([['Name', 'required'], ['Email', 'emailInvalid'], ['Note', 'tooLong']]));
    const unknown = await api.post(`/api/v1/programs/${programId}/members`, { Name: 'X', Email: 'x@example.com', Token: 'mine' });
    expect(fields(unknown)).toEqual([['Token', 'invalid']]);
    const m = await addMember('Dee', 'dee@example.com');
    const bad = await api.patch(`/api/v1/members/${m.Id}`, { Email: '' });
    expect(fields(bad)).toEqual([['Email', 'required']]);
    const paging = await api.get(`/api/v1/programs/${programId}/members?pageSize=0`);
    expect(paging.status).toBe(400);
    expect(fields(paging).map(([f]) => f)).toEqual(['pageSize']);
  });

  it('shows members only to those who may edit the program’s settings', async () => {
    const m = await addMember('Eve', 'eve@example.com');
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    // The producer does not see this program: its members and keys are rows that do not exist.
    expect((await producer.get(`/api/v1/programs/${programId}/members`)).status).toBe(404);
    expect((await producer.patch(`/api/v1/members/${m.Id}`, { Name: 'Mine' })).status).toBe(404);
    expect((await producer.post(`/api/v1/members/${m.Id}/token`, {})).status).toBe(404);
    expect((await producer.get(`/api/internal/playlists/${playlistId}/members/${m.Id}/url`)).status).toBe(404);
    expect((await producer.get(`/api/v1/programs/${programId}/signing-keys`)).status).toBe(404);
  });
});

describe('one address per live member of a program', () => {
  const EXISTS = 'Another member of this program already has this email address.';
  const refusedAtEmail = (reply: { status: number; body: unknown; text: string }) => {
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toEqual({ Errors: [{ Field: 'Email', Code: 'EmailExists', Message: EXISTS }] });
  };
  const create = (name: string, email: string) => api.post(`/api/v1/programs/${programId}/members`, { Name: name, Email: email });

  it('refuses a new member with an address another has, in any case and with spaces around it; another program may have it', async () => {
    const first = await addMember('Oona', 'oona@example.com');
    refusedAtEmail(await create('Oona again', 'oona@example.com'));
    refusedAtEmail(await create('Oona shouting', '  OONA@Example.COM '));
    const list = await api.get(`/api/v1/programs/${programId}/members?filter=oona`);
    expect((list.body as { Items: Member[] }).Items.map((m) => m.Id)).toEqual([first.Id]);

    const other = await api.post('/api/v1/programs', { Name: `Other show ${crypto.randomUUID().slice(0, 8)}`, OwnerEmail: 'owner@example.com' });
    expect(other.status, other.text).toBe(201);
    const there = await api.post(`/api/v1/programs/${(other.body as { Id: string }).Id}/members`, { Name: 'Oona', Email: 'oona@example.com' });
    expect(there.status, there.text).toBe(201);
  });

  it('refuses changing a member to an address another has; a member may keep, or recase, its own', async () => {
    const pia = await addMember('Pia', 'pia@example.com');
    const quin = await addMember('Quin', 'quin@example.com');
    refusedAtEmail(await api.patch(`/api/v1/members/${quin.Id}`, { Email: ' PIA@example.com' }));
    // A refused change changes nothing, not even the fields beside it.
    refusedAtEmail(await api.patch(`/api/v1/members/${quin.Id}`, { Name: 'Quin P.', Email: 'Pia@Example.com' }));
    expect((await api.get(`/api/v1/programs/${programId}/members?filter=quin`)).body).toMatchObject({ Items: [{ Name: 'Quin', Email: 'quin@example.com' }] });

    const same = await api.patch(`/api/v1/members/${pia.Id}`, { Email: 'pia@example.com', Name: 'Pia R.' });
    expect(same.status, same.text).toBe(200);
    const recased = await api.patch(`/api/v1/members/${pia.Id}`, { Email: ' Pia@Example.com ' });
    expect(recased.status, recased.text).toBe(200);
    expect(recased.body).toMatchObject({ Email: 'Pia@Example.com' });
  });

  it('lets a removed or revoked member’s address go to someone else; the revoked one then cannot be restored', async () => {
    const rae = await addMember('Rae', 'rae@example.com');
    expect((await api.delete(`/api/v1/members/${rae.Id}`)).status).toBe(204);
    await addMember('Rae anew', 'RAE@example.com');

    const sam = await addMember('Sam', 'sam@example.com');
    expect((await api.patch(`/api/v1/members/${sam.Id}`, { Revoked: true })).status).toBe(200);
    const heir = await addMember('Sam’s heir', 'sam@example.com');
    refusedAtEmail(await api.patch(`/api/v1/members/${sam.Id}`, { Revoked: false }));
    // A revoked member may be given that address too (it is not live), and restored with another.
    expect((await api.patch(`/api/v1/members/${sam.Id}`, { Email: 'Sam@example.com' })).status).toBe(200);
    const restored = await api.patch(`/api/v1/members/${sam.Id}`, { Revoked: false, Email: 'sam.old@example.com' });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ Revoked: false, Email: 'sam.old@example.com' });
    refusedAtEmail(await api.patch(`/api/v1/members/${heir.Id}`, { Email: 'sam.old@example.com' }));
  });

  it('of two requests at once for one address, one adds the member (201) and the other is the same 400', async () => {
    for (let round = 0; round < 3; round++) {
      const email = `twin${round}@example.com`;
      const replies = await Promise.all([create('Twin A', email), create('Twin B', email.toUpperCase())]);
      expect(replies.map((r) => r.status).sort()).toEqual([201, 400]);
      refusedAtEmail(replies.find((r) => r.status === 400)!);
    }
  });
});

describe('one address per live member, on PostgreSQL', () => {
  // Two connections for real: the first adds a member in a transaction it holds open; the second's
  // check cannot see that row yet, so its INSERT waits on the unique index and, once the first
  // commits, fails there. That failure must be the check's own 400, never a 500.
  it('a create that raced past the check meets the index and is the same 400', async () => {
    const pgt = await openTestStore('postgres');
    try {
      await seed(pgt.store, { clips: 1 });
      const base = { organizationId: ORG_DEMO, programId: seedId('program:morning'), note: null, createdById: null, at: new Date() };
      let added!: () => void;
      let commit!: () => void;
      const inFirst = new Promise<void>((r) => (added = r));
      const mayCommit = new Promise<void>((r) => (commit = r));
      const first = pgt.store.tx(async (q) => {
        await insertMember(q, { ...base, id: crypto.randomUUID(), name: 'Uma', email: 'uma@example.com' });
        added();
        await mayCommit;
      });
      await inFirst;
      const second = insertMember(pgt.store, { ...base, id: crypto.randomUUID(), name: 'Uma twin', email: ' UMA@example.com' }).then(
        () => null,
        (e: unknown) => e,
      );
      // Until the second's INSERT is waiting on the first's row in the index.
      let waiting = false;
      for (let i = 0; i < 400 && !waiting; i++) {
        const [w] = await pgt.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO members%'`);
        waiting = w!.n > 0;
        if (!waiting) await new Promise((r) => setTimeout(r, 25));
      }
      commit();
      expect(waiting, 'the second INSERT never waited on the index').toBe(true);
      await first;
      const err = await second;
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).body).toEqual({ Errors: [{ Field: 'Email', Code: 'EmailExists', Message: 'Another member of this program already has this email address.' }] });
      const rows = await pgt.store.query<{ email: string }>(`SELECT email FROM members WHERE program_id = $1`, [base.programId]);
      expect(rows.map((r) => r.email)).toEqual(['uma@example.com']);
    } finally {
      await pgt.drop();
    }
  });
});

describe('a member’s private feed', () => {
  it('lists Restricted clips (never Private ones) with signed enclosures; the public feed lists neither', async () => {
    const m = await addMember('Fay', 'fay@example.com');
    const url = await feedUrlOf(m.Id);
    expect(url).toMatch(new RegExp(`^${ORIGIN}/feeds/${playlistId}/members/[A-Za-z0-9_-]{32}\\.xml$`));
    const podcastUrl = await api.get(`/api/internal/playlists/${playlistId}/members/${m.Id}/url?type=podcast`);
    expect((podcastUrl.body as { Url: string }).Url).toBe(url.replace('http://', 'podcast://'));

    const feed = await fetchText(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('cache-control')).toBe('private, max-age=60');
    const party = parseFeed(feed.text)!;
    expect(party.items.map((i) => i.title)).toEqual(['The open episode', 'The restricted episode']);
    // Locked, and kept out of directories, though the program's public feed is neither.
    expect(party.locked).toBe(true);
    expect(feed.text).toMatch(/<itunes:block>Yes<\/itunes:block>/i);
    for (const [i, e] of enclosures(feed.text).entries()) {
      const id = [clip.open, clip.restricted][i]!;
      expect(e).toMatch(new RegExp(`^${ORIGIN}/audio/m/${m.Id}/${id}\\.mp3\\?k=[0-9a-f-]{36}&exp=\\d+&af=${i === 1 ? 1 : 0}&sig=[A-Za-z0-9_-]{43}$`));
    }
    const open = parseFeed((await fetchText(`${ORIGIN}${publicPaths.feed(playlistId)}`)).text)!;
    expect(open.items.map((i) => i.title)).toEqual(['The open episode']);
    // The same show: its podcast:guid is the public feed's, not one made from the private URL.
    expect(party.guid).toBe(podcastGuid(`${ORIGIN}${publicPaths.feed(playlistId)}`));
    expect(open.guid).toBe(party.guid);

    // Validators per member: another member's feed has another ETag; the member's own gets a 304.
    const other = await fetchText(await feedUrlOf((await addMember('Gus', 'gus@example.com')).Id));
    expect(other.headers.get('etag')).not.toBe(feed.headers.get('etag'));
    expect((await fetchText(url, { 'if-none-match': feed.headers.get('etag')! })).status).toBe(304);
  });

  it('a new token stops the old URL at once (404) and the new one works; revoked and removed members get 404', async () => {
    const m = await addMember('Hal', 'hal@example.com');
    const old = await feedUrlOf(m.Id);
    expect((await fetchText(old)).status).toBe(200);
    const reset = await api.post(`/api/v1/members/${m.Id}/token`, {});
    expect(reset.status, reset.text).toBe(200);
    const fresh = await feedUrlOf(m.Id);
    expect(fresh).not.toBe(old);
    expect((await fetchText(old)).status).toBe(404);
    const renewed = await fetchText(fresh);
    expect(renewed.status).toBe(200);
    expect(parseFeed(renewed.text)!.guid, 'a new token is the same show').toBe(podcastGuid(`${ORIGIN}${publicPaths.feed(playlistId)}`));

    expect((await api.patch(`/api/v1/members/${m.Id}`, { Revoked: true })).body).toMatchObject({ Revoked: true });
    expect((await fetchText(fresh)).status).toBe(404);
    expect((await api.patch(`/api/v1/members/${m.Id}`, { Revoked: false })).body).toMatchObject({ Revoked: false, RevokedAtUtc: null });
    expect((await fetchText(fresh)).status).toBe(200);
    expect((await api.delete(`/api/v1/members/${m.Id}`)).status).toBe(204);
    const gone = await fetchText(fresh);
    expect(gone.status).toBe(404);
    // Alike: an unknown token, a made-up playlist.
    expect((await fetchText(`${ORIGIN}/feeds/${playlistId}/members/${'A'.repeat(32)}.xml`)).status).toBe(404);
    expect((await fetchText(fresh.replace(playlistId, crypto.randomUUID()))).status).toBe(404);
  });
});

describe('signed media URLs', () => {
  const fetchAudio = (url: string, headers: Record<string, string> = {}) => seeded.app.request(url, { headers });

  it('serve the audio with Range (206) and record the download as ad-free when the clip says so', async () => {
    const m = await addMember('Ivy', 'ivy@example.com');
    const [openUrl, restrictedUrl] = enclosures((await fetchText(await feedUrlOf(m.Id))).text);
    const res = await fetchAudio(restrictedUrl!, { range: 'bytes=100-1099' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-1099/${audioBytes.byteLength}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(audioBytes.subarray(100, 1100))).toBe(true);
    const whole = await fetchAudio(openUrl!);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(audioBytes)).toBe(true);

    await seeded.app.downloads.flush();
    const events = await test.store.query<{ clip_id: string; ad_free: boolean; status: number }>(`SELECT clip_id, ad_free, status FROM download_events WHERE clip_id = ANY($1::uuid[]) ORDER BY id`, [[clip.open, clip.restricted]]);
    expect(events).toEqual([
      { clip_id: clip.restricted, ad_free: true, status: 206 },
      { clip_id: clip.open, ad_free: false, status: 200 },
    ]);

    // The studio's own signed URL for one clip is the same kind of URL.
    const one = await api.get(`/api/internal/clips/${clip.restricted}/members/${m.Id}/url`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ AdFree: true });
    expect((await fetchAudio((one.body as { Url: string }).Url, { range: 'bytes=0-9' })).status).toBe(206);
    // A member of another program names nothing here.
    const elsewhere = await api.post('/api/v1/programs', { Name: `Other show ${crypto.randomUUID().slice(0, 8)}` });
    const stranger = await api.post(`/api/v1/programs/${(elsewhere.body as { Id: string }).Id}/members`, { Name: 'Jo', Email: 'jo@example.com' });
    expect((await api.get(`/api/internal/clips/${clip.restricted}/members/${(stranger.body as Member).Id}/url`)).status).toBe(404);
  });

  it('refuse a tampered signature, another member or clip, an expired URL, a revoked or removed member (403), and never serve a Private clip', async () => {
    const m = await addMember('Kim', 'kim@example.com');
    const other = await addMember('Lou', 'lou@example.com');
    const url = enclosures((await fetchText(await feedUrlOf(m.Id))).text)[1]!;
    expect((await fetchAudio(url)).status).toBe(200);
    const sig = new URL(url).searchParams.get('sig')!;
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expect((await fetchAudio(url.replace(sig, flipped))).status).toBe(403);
    expect((await fetchAudio(url.replace('af=1', 'af=0'))).status).toBe(403);
    expect((await fetchAudio(url.replace(m.Id, other.Id))).status).toBe(403);
    expect((await fetchAudio(url.replace(clip.restricted, clip.open))).status).toBe(403);
    expect((await fetchAudio(url.replace(/exp=\d+/, (e) => `exp=${Number(e.slice(4)) + 1}`))).status).toBe(403);
    expect((await fetchAudio(url.replace(/&sig=.*/, ''))).status).toBe(403);

    // A valid signature for a Private clip: 404, as public audio answers it.
    const [key] = await test.store.query<{ id: string; secret: string }>(`SELECT id, secret FROM signing_keys WHERE program_id = $1 AND retires_at_utc IS NULL`, [programId]);
    const signed = signMemberAudio(key!, m.Id, clip.private, true, seeded.clock.now);
    expect((await fetchAudio(`${ORIGIN}/audio/m/${m.Id}/${clip.private}.mp3?${signedQueryString(signed)}`)).status).toBe(404);

    await api.patch(`/api/v1/members/${m.Id}`, { Revoked: true });
    expect((await fetchAudio(url)).status).toBe(403);
    await api.patch(`/api/v1/members/${m.Id}`, { Revoked: false });
    expect((await fetchAudio(url)).status).toBe(200);

    const saved = seeded.clock.now;
    seeded.clock.now = new Date(saved.getTime() + (MEMBER_URL_LIFETIME_SECONDS + 24 * 3600 + 1) * 1000);
    try {
      expect((await fetchAudio(url)).status).toBe(403);
    } finally {
      seeded.clock.now = saved;
    }
    await api.delete(`/api/v1/members/${m.Id}`);
    expect((await fetchAudio(url)).status).toBe(403);
  });

  it('a rotated key still verifies its URLs within the grace period, and none once it is retired', async () => {
    const m = await addMember('Max', 'max@example.com');
    const feedUrl = await feedUrlOf(m.Id);
    const before = await fetchText(feedUrl);
    const url = enclosures(before.text)[0]!;
    const keys = await api.get(`/api/v1/programs/${programId}/signing-keys`);
    expect(keys.status).toBe(200);
    const items = (keys.body as { Items: Array<{ Id: string; State: string }> }).Items;
    const current = items.find((k) => k.State === 'Current')!;
    expect(new URL(url).searchParams.get('k')).toBe(current.Id);
    expect(JSON.stringify(keys.body)).not.toMatch(/secret/i);

    seeded.clock.advance(1000);
    const rotated = await api.post(`/api/v1/programs/${programId}/signing-keys/${current.Id}/rotate`, {});
    expect(rotated.status, rotated.text).toBe(200);
    const after = (rotated.body as { Items: Array<{ Id: string; State: string; RetiresAtUtc: string | null }> }).Items;
    const previous = after.find((k) => k.Id === current.Id)!;
    expect(previous.State).toBe('Retiring');
    expect(Date.parse(previous.RetiresAtUtc!)).toBe(seeded.clock.now.getTime() + SIGNING_KEY_GRACE_SECONDS * 1000);
    const next = after.find((k) => k.State === 'Current')!;
    expect(next.Id).not.toBe(current.Id);
    // Only the current key rotates.
    const again = await api.post(`/api/v1/programs/${programId}/signing-keys/${current.Id}/rotate`, {});
    expect(again.status).toBe(400);
    expect(fields(again)).toEqual([['signingKeyId', 'invalid']]);

    // The URL already in the listener's app still plays; the feed now signs with the new key.
    expect((await fetchAudio(url)).status).toBe(200);
    const refreshed = await fetchText(feedUrl, { 'if-none-match': before.headers.get('etag')! });
    expect(refreshed.status).toBe(200);
    expect(new URL(enclosures(refreshed.text)[0]!).searchParams.get('k')).toBe(next.Id);
    // An app that revalidates by date alone gets the new links too (never a 304 keeping old ones).
    expect((await fetchText(feedUrl, { 'if-modified-since': before.headers.get('last-modified')! })).status).toBe(200);
    const latest = await fetchText(feedUrl);
    expect((await fetchText(feedUrl, { 'if-modified-since': latest.headers.get('last-modified')! })).status).toBe(304);

    // Past the grace period the old key is retired: even a URL it signed to expire later is refused.
    const [old] = await test.store.query<{ id: string; secret: string }>(`SELECT id, secret FROM signing_keys WHERE id = $1`, [current.Id]);
    const saved = seeded.clock.now;
    seeded.clock.now = new Date(saved.getTime() + SIGNING_KEY_GRACE_SECONDS * 1000 + 1000);
    try {
      const late = signMemberAudio(old!, m.Id, clip.open, false, seeded.clock.now);
      expect((await fetchAudio(`${ORIGIN}/audio/m/${m.Id}/${clip.open}.mp3?${signedQueryString(late)}`)).status).toBe(403);
      const listed = await api.get(`/api/v1/programs/${programId}/signing-keys`);
      expect((listed.body as { Items: Array<{ Id: string; State: string }> }).Items.find((k) => k.Id === current.Id)!.State).toBe('Retired');
      // The member's feed still plays: it signs with the current key.
      const now = enclosures((await fetchText(feedUrl)).text)[0]!;
      expect((await fetchAudio(now)).status).toBe(200);
    } finally {
      seeded.clock.now = saved;
    }
  });
});

describe('a deleted program', () => {
  it('takes its members’ feeds (404) and their media (404) with it', async () => {
    const m = await addMember('Ned', 'ned@example.com');
    const feedUrl = await feedUrlOf(m.Id);
    const media = enclosures((await fetchText(feedUrl)).text)[0]!;
    expect((await seeded.app.request(media)).status).toBe(200);
    const removed = await api.delete(`/api/v1/programs/${programId}`);
    expect(removed.status, removed.text).toBe(204);
    expect((await fetchText(feedUrl)).status).toBe(404);
    expect((await seeded.app.request(media)).status).toBe(404);
  });
});
