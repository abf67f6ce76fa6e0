// Publishing (specification section 4): Publish and Unpublish through REST and through a sync push,
// the visibility requirements refused by field, the jobs that publish and give up, ScheduledVisibility
// applied at VisibleAtUtc (and superseded), and the public audio: GET, HEAD, Range, 206, 416, 304,
// If-Range on a real fixture file, 404 for everything that is not published publicly, and every
// request recorded as a download event with a salted hash and no address. PGlite, the real app.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';
import { PublishProblem } from '../../src/domain/publishing.ts';
import { SYNC_PROTOCOL_VERSION } from '../../src/protocol/sync.ts';
import { fsBlobStore, type BlobStore } from '../../sync-server/audio/blob-store.ts';
import { clipKeys, clipUrls, mediaFiles } from '../../sync-server/audio/media-paths.ts';
import type { PublishedVersion } from '../../sync-server/audio/published-media.ts';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { createMemoryBus, type Change } from '../../sync-server/bus.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import { addressForHash } from '../../sync-server/publishing/downloads.ts';
import { APPLY_JOB, publishingJobs } from '../../sync-server/publishing/publishing.ts';
import { loadRow, updateRow } from '../../sync-server/rows.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp, withAnotherApp, type SeededApp } from '../server/app-client.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';

const FIXTURE = readFileSync(join(SHARED_FIXTURES_DIR, 'speech-12s.mp3'));
const PROGRAM = seedId('program:morning');
const OTHER_PROGRAM = seedId('program:deepdive');

let t: TestStore;
let s: SeededApp;
let blobDir: string;
let demo: AppClient;
const blobs = () => fsBlobStore(blobDir);

beforeAll(async () => {
  t = await openTestStore('pglite');
  blobDir = await mkdtemp(join(tmpdir(), 'castaway-publishing-'));
  process.env.CASTAWAY_BLOB_DIR = blobDir;
  s = await seededApp(t.store);
  demo = new AppClient(s.app);
  await demo.login('demo@example.com');
  demo.organizationId = ORG_DEMO;
}, 120_000);

afterAll(async () => {
  await s?.app.downloads.close();
  await t?.drop();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

type ClipSetup = { visibility?: string; publishState?: string; state?: string; slug?: string | null; title?: string | null; audio?: boolean; org?: string; program?: string; deleted?: boolean };

/** A clip row as processing leaves one (Ready, its upload stored), with what the test says. */
async function clip(setup: ClipSetup = {}): Promise<string> {
  const id = randomUUID();
  const audio = setup.audio ?? true;
  const at = s.clock.now;
  const { Title: _t, Slug: _s, State: _st, PublishState: _p, Visibility: _v, ...data } = clipDefaults();
  const urls = { ...(data['Urls'] as Record<string, unknown>), ...(audio ? { AudioPrivateUrl: clipUrls.audio(id), WaveformHighResUrl: clipUrls.waveform(id, 'high'), WaveformLowResUrl: clipUrls.waveform(id, 'low') } : {}) };
  const slug = setup.slug === undefined ? `ep-${id.slice(0, 8)}` : setup.slug;
  await t.store.query(
    `INSERT INTO clips (id, organization_id, program_id, title, slug, state, publish_state, visibility, data, created_at_utc, modified_at_utc, deleted, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $10, $11, next_row_version())`,
    [id, setup.org ?? ORG_DEMO, setup.program ?? PROGRAM, setup.title === undefined ? 'An episode' : setup.title, slug, setup.state ?? (audio ? 'Ready' : 'Draft'), setup.publishState ?? 'Unpublished',
      setup.visibility ?? 'Public', JSON.stringify({ ...data, DurationSeconds: audio ? 12.04 : null, PublishedUtc: setup.visibility === 'Private' ? null : at.toISOString(), Urls: urls }), at, setup.deleted ?? false],
  );
  await t.store.query(`INSERT INTO row_revisions (entity, id, version, modified_at_utc, organization_id) SELECT 'clip', id, version, modified_at_utc, organization_id FROM clips WHERE id = $1`, [id]);
  if (audio) {
    await blobs().putBytes(clipKeys.audio(id), FIXTURE);
    await blobs().putBytes(clipKeys.meta(id), JSON.stringify({ fileName: 'speech-12s.mp3', contentType: 'audio/mpeg', size: FIXTURE.byteLength, uploadId: randomUUID() }));
  }
  return id;
}

const row = async (id: string) => (await demo.get(`/api/v1/clips/${id}`)).body as Record<string, unknown> & { Urls: Record<string, string | null> };

async function published(id: string) {
  const reply = await demo.post(`/api/v1/clips/${id}/publish`, undefined);
  expect(reply.status, reply.text).toBe(202);
  await s.app.jobs.drain();
  return row(id);
}

describe('Publish and Unpublish', () => {
  it('over REST: 202 Publishing, then the job publishes: PublishedUtc, Slug, site-relative public URLs', async () => {
    const id = await clip();
    const reply = await demo.post(`/api/v1/clips/${id}/publish`, undefined);
    expect(reply.status, reply.text).toBe(202);
    expect((reply.body as { PublishState: string }).PublishState).toBe('Publishing');
    await s.app.jobs.drain();
    const done = await row(id);
    expect(done.PublishState).toBe('Published');
    expect(done.PublishedUtc).toEqual(expect.any(String));
    expect(done.Urls).toMatchObject({
      AudioPublicUrl: `/audio/${id}.mp3`,
      AudioPublicAdFreeUrl: `/audio/${id}/ad-free.mp3`,
      EmbedUrl: `/embed/${id}`,
      ShowPageUrl: `/shows/${PROGRAM}/${String(done.Slug)}`,
    });
    expect(done.PublishedAudioSizeInBytes).toBe(FIXTURE.byteLength);

    const off = await demo.post(`/api/v1/clips/${id}/unpublish`, undefined);
    expect(off.status).toBe(202);
    expect((off.body as { PublishState: string }).PublishState).toBe('Unpublishing');
    await s.app.jobs.drain();
    const after = await row(id);
    expect(after.PublishState).toBe('Unpublished');
    expect(after.Urls.AudioPublicUrl).toBeNull();
  });

  it('refuses with a 400 naming each field the clip lacks', async () => {
    const priv = await clip({ visibility: 'Private', slug: null });
    expect(fields(await demo.post(`/api/v1/clips/${priv}/publish`, undefined))).toEqual([['Visibility', 'invalid']]);
    const draft = await clip({ audio: false });
    expect(fields(await demo.post(`/api/v1/clips/${draft}/publish`, undefined))).toEqual([['State', 'invalid']]);
    const nothing = await clip({ visibility: 'Unlisted', slug: null, title: null, audio: false });
    expect(fields(await demo.post(`/api/v1/clips/${nothing}/publish`, undefined))).toEqual([['State', 'invalid'], ['Slug', 'required']]);
    expect((await row(nothing)).PublishState).toBe('Unpublished');
  });

  it('a clip without a slug gets one from its title, unique in its program', async () => {
    await clip({ slug: 'big-news' });
    const id = await clip({ visibility: 'Unlisted', slug: null, title: 'Big News!' });
    const done = await published(id);
    expect(done.Slug).toBe('big-news-2');
    expect(done.Urls.ShowPageUrl).toBe(`/shows/${PROGRAM}/big-news-2`);
  });

  it('through a sync push, as a device queued it offline', async () => {
    const id = await clip({ visibility: 'Restricted' });
    const push = (name: string) =>
      demo.post('/api/sync/push', { protocolVersion: SYNC_PROTOCOL_VERSION, clientId: randomUUID(), mutations: [{ id: randomUUID(), name, args: { clipId: id }, base: null, createdAt: 1 }] });
    const sent = await push('clip.publish');
    expect(sent.status, sent.text).toBe(200);
    expect((sent.body as { results: Array<{ status: string }> }).results[0]!.status).toBe('applied');
    await s.app.jobs.drain();
    const done = await row(id);
    expect(done.PublishState).toBe('Published');
    // Restricted: no embed, no show page, and no public audio (member feeds sign theirs).
    expect(done.Urls).toMatchObject({ EmbedUrl: null, ShowPageUrl: null, AudioPublicUrl: null });
    await push('clip.unpublish');
    await s.app.jobs.drain();
    expect((await row(id)).PublishState).toBe('Unpublished');
  });

  it('a job that cannot publish (the audio is gone) sets the clip back to Unpublished, saying why', async () => {
    const id = await clip();
    expect((await demo.post(`/api/v1/clips/${id}/publish`, undefined)).status).toBe(202);
    await blobs().remove(clipKeys.dir(id));
    await s.app.jobs.drain();
    const after = await row(id);
    expect(after.PublishState).toBe('Unpublished');
    expect(after.PublishProblem).toBe('AudioMissing');
  });

  it('a clip the job publishes joins the playlists of its program whose auto-add rule takes it, once', async () => {
    const playlist = (await demo.post(`/api/v1/programs/${PROGRAM}/playlists`, { Title: 'Everything published', Visibility: 'Public' })).body as { Id: string };
    expect((await demo.patch(`/api/v1/playlists/${playlist.Id}/settings/auto-add`, { Enabled: true })).status).toBe(200);
    const id = await clip();
    const clipIds = async () => ((await demo.get(`/api/v1/playlists/${playlist.Id}`)).body as { ClipIds: string[] }).ClipIds;
    expect(await clipIds()).not.toContain(id);
    expect((await published(id)).PublishState).toBe('Published');
    expect(await clipIds()).toEqual([id]);
    // Unpublished and published again: still there once.
    expect((await demo.post(`/api/v1/clips/${id}/unpublish`, undefined)).status).toBe(202);
    await s.app.jobs.drain();
    await published(id);
    expect(await clipIds()).toEqual([id]);
  });

  it('an edit of a published clip’s visibility or slug runs its publishing again: its public URLs follow', async () => {
    const id = await clip({ visibility: 'Restricted' });
    const first = await published(id);
    expect(first.Urls.AudioPublicUrl).toBeNull();
    // Restricted → Public: the public audio URL appears (it did not before this rule).
    const patch = async (body: Record<string, unknown>) => {
      const current = await row(id);
      const reply = await demo.patch(`/api/v1/clips/${id}`, body, { 'if-match': `"${String(current.ModifiedAtUtc)}"` });
      expect(reply.status, reply.text).toBe(200);
      await s.app.jobs.drain();
      return row(id);
    };
    const open = await patch({ Visibility: 'Public' });
    expect(open.PublishState).toBe('Published');
    expect(open.Urls).toMatchObject({ AudioPublicUrl: `/audio/${id}.mp3`, EmbedUrl: `/embed/${id}`, ShowPageUrl: `/shows/${PROGRAM}/${String(open.Slug)}` });
    expect((await s.app.request(`/audio/${id}.mp3`, { method: 'HEAD' })).status).toBe(200);
    // A new slug: the show page follows.
    const moved = await patch({ Slug: `moved-${id.slice(0, 6)}` });
    expect(moved.Urls.ShowPageUrl).toBe(`/shows/${PROGRAM}/moved-${id.slice(0, 6)}`);
    // Public → Private: unpublished, saying why; the audio is no longer served.
    const closed = await patch({ Visibility: 'Private' });
    expect(closed.PublishState).toBe('Unpublished');
    expect(closed.PublishProblem).toBe('Private');
    expect(closed.Urls.AudioPublicUrl).toBeNull();
    expect((await s.app.request(`/audio/${id}.mp3`, { method: 'HEAD' })).status).toBe(404);
  });

  it('a version that lands while the job publishes is the one the clip says (the job reads the audio under the row’s lock)', async () => {
    const id = await clip();
    expect((await published(id)).PublishedDurationSeconds).toBeCloseTo(12, 0);
    // A new version, switched to as a cut's render does it: its file, then published.json and the
    // row's figures in one transaction.
    const bytes = FIXTURE.subarray(0, 4000);
    const version: PublishedVersion = { version: randomUUID(), folder: clipKeys.versionFolder(id, 'cut'), contentType: 'audio/mpeg', ext: 'mp3', size: bytes.byteLength, durationSeconds: 9, upload: 'original', edit: 'cut' };
    const switchVersion = async () => {
      await blobs().putBytes(mediaFiles.audio(version.folder), bytes);
      await t.store.tx(async (q) => {
        const current = (await loadRow(q, 'clip', ORG_DEMO, id, { forUpdate: true }))!;
        await updateRow(q, 'clip', current, { organizationId: ORG_DEMO, userId: null, now: s.clock.now, clientId: null }, { ...current, DurationSeconds: 9, PublishedDurationSeconds: 9, PublishedAudioSizeInBytes: bytes.byteLength });
        await blobs().putBytes(clipKeys.published(id), JSON.stringify(version));
      });
    };
    // The publishing job runs on an app whose blob store lets the version land just after the job
    // has looked for it: before this job took the row's lock, it committed there and then; while
    // the job holds it, it waits its turn (given a second) and lands after.
    let landed: Promise<void> | null = null;
    const inner = blobs();
    const racing: BlobStore = {
      ...inner,
      size: async (key) => {
        const size = await inner.size(key);
        if (key === clipKeys.published(id) && !landed) {
          landed = switchVersion();
          await Promise.race([landed, new Promise((resolve) => setTimeout(resolve, 1000))]);
        }
        return size;
      },
    };
    await withAnotherApp({ store: t.store, clock: () => s.clock.now, blobs: racing }, async (other) => {
      // A new slug runs the clip's publishing again.
      const current = await row(id);
      const reply = await demo.patch(`/api/v1/clips/${id}`, { Slug: `cut-${id.slice(0, 6)}` }, { 'if-match': `"${String(current.ModifiedAtUtc)}"` });
      expect(reply.status, reply.text).toBe(200);
      await other.jobs.drain();
      expect(landed).not.toBeNull();
      await landed;
    });
    expect(await row(id)).toMatchObject({ PublishState: 'Published', DurationSeconds: 9, PublishedDurationSeconds: 9, PublishedAudioSizeInBytes: bytes.byteLength });
  });

  it('deleting a published clip unpublishes it', async () => {
    const id = await clip();
    await published(id);
    const current = await row(id);
    const reply = await demo.delete(`/api/v1/clips/${id}`, { 'if-match': `"${String(current.ModifiedAtUtc)}"` });
    expect(reply.status, reply.text).toBe(204);
    await s.app.jobs.drain();
    const [after] = await t.store.query<{ publish_state: string; problem: string | null }>(`SELECT publish_state, data->>'PublishProblem' AS problem FROM clips WHERE id = $1`, [id]);
    expect(after).toEqual({ publish_state: 'Unpublished', problem: 'Deleted' });
  });

  it('a publish that lands while an unpublish runs its last attempt is kept: the give-up leaves the clip to the run it asked for', async () => {
    const id = await clip();
    await published(id);
    const key = `${APPLY_JOB}:${id}`;
    // The handler's own bus: what its writes poke, after commit (devices pull on a poke).
    const bus = createMemoryBus();
    const pokes: Change[] = [];
    bus.subscribe((c) => void pokes.push(c));
    const handler = publishingJobs({ store: t.store, bus, clock: () => s.clock.now }, blobs())[APPLY_JOB]!;
    const payload = handler.payload.parse({ organizationId: ORG_DEMO, clipId: id });
    /** The clip's job as its last attempt leaves it, running (this test's, in place of a runner). */
    const lastAttempt = async () => {
      const [job] = await t.store.query<{ id: number; max_attempts: number }>(
        `UPDATE jobs SET state = 'running', attempts = max_attempts, locked_by = 'this test', locked_until = now() + interval '1 hour' WHERE singleton_key = $1 RETURNING id, max_attempts`,
        [key],
      );
      return jobContext(t.store, { id: job!.id, kind: APPLY_JOB, attempt: job!.max_attempts, maxAttempts: job!.max_attempts });
    };
    expect((await demo.post(`/api/v1/clips/${id}/unpublish`, undefined)).status).toBe(202);
    const unpublishing = await lastAttempt();
    // The publish lands during that attempt: the row says Publishing, and a run is asked for.
    expect((await demo.post(`/api/v1/clips/${id}/publish`, undefined)).status).toBe(202);
    await handler.giveUp!(payload, new Error('the disk went away'), unpublishing);
    expect(await row(id)).toMatchObject({ PublishState: 'Publishing', PublishProblem: null });
    expect(pokes).toEqual([]);
    // What the runner does after that give-up (the job queued again at once): its run publishes.
    await t.store.query(`UPDATE jobs SET state = 'queued', attempts = 0, rerun = false, locked_by = NULL, locked_until = NULL, run_at = now() WHERE id = $1`, [unpublishing.id]);
    await s.app.jobs.drain();
    expect((await row(id)).PublishState).toBe('Published');
    // With no run asked for, the give-up of a publish says it failed.
    expect((await demo.post(`/api/v1/clips/${id}/unpublish`, undefined)).status).toBe(202);
    await s.app.jobs.drain();
    expect((await demo.post(`/api/v1/clips/${id}/publish`, undefined)).status).toBe(202);
    const publishing = await lastAttempt();
    await handler.giveUp!(payload, new Error('the disk went away'), publishing);
    expect(await row(id)).toMatchObject({ PublishState: 'Unpublished', PublishProblem: PublishProblem.Failed });
    const [failed] = await t.store.query<{ version: string }>(`SELECT version::text AS version FROM clips WHERE id = $1`, [id]);
    expect(pokes).toEqual([{ organizationId: ORG_DEMO, version: Number(failed!.version) }]);
    await t.store.query(`DELETE FROM jobs WHERE id = $1`, [publishing.id]);
  });
});

describe('ScheduledVisibility at VisibleAtUtc', () => {
  /** Time passes for the server's clock and for the job queue (whose clock is the database's). */
  async function pass(ms: number) {
    s.clock.advance(ms);
    await t.store.query(`UPDATE jobs SET run_at = run_at - $1::float8 * interval '1 millisecond' WHERE state = 'queued' AND kind = 'publishing.schedule'`, [ms]);
  }
  const queued = async (id: string) =>
    t.store.query<{ run_at: Date; payload: { at: string } }>(`SELECT run_at, payload FROM jobs WHERE kind = 'publishing.schedule' AND payload->>'clipId' = $1 AND state = 'queued'`, [id]);

  it('applies the visibility at that time and publishes; a changed schedule supersedes the earlier job', async () => {
    const id = await clip({ visibility: 'Private' });
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const saved = await demo.patch(`/api/v1/clips/${id}`, { ScheduledVisibility: 'Public', VisibleAtUtc: inAnHour });
    expect(saved.status, saved.text).toBe(200);
    expect((await queued(id)).map((j) => j.run_at.toISOString())).toEqual([inAnHour]);
    await s.app.jobs.drain();
    expect((await row(id)).Visibility).toBe('Private');

    const inTwo = new Date(Date.now() + 7_200_000).toISOString();
    expect((await demo.patch(`/api/v1/clips/${id}`, { VisibleAtUtc: inTwo })).status).toBe(200);
    expect((await queued(id)).map((j) => j.payload.at)).toEqual([inTwo]);

    await pass(3_700_000);
    await s.app.jobs.drain();
    expect((await row(id)).Visibility).toBe('Private');
    await pass(3_600_000);
    await s.app.jobs.drain();
    const done = await row(id);
    expect(done).toMatchObject({ Visibility: 'Public', ScheduledVisibility: null, VisibleAtUtc: null, PublishState: 'Published' });
    expect(done.Urls.AudioPublicUrl).toBe(`/audio/${id}.mp3`);
  });

  it('a cleared schedule leaves nothing queued; a job that finds the row changed does nothing', async () => {
    const id = await clip({ visibility: 'Private' });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await demo.patch(`/api/v1/clips/${id}`, { ScheduledVisibility: 'Unlisted', VisibleAtUtc: at });
    const [job] = await queued(id);
    expect(job).toBeDefined();
    await demo.patch(`/api/v1/clips/${id}`, { ScheduledVisibility: null, VisibleAtUtc: null });
    expect(await queued(id)).toEqual([]);
    // As if the earlier job was already running when the schedule was cleared.
    await t.store.query(`INSERT INTO jobs (kind, payload) VALUES ('publishing.schedule', $1::jsonb)`, [JSON.stringify({ organizationId: ORG_DEMO, clipId: id, visibility: 'Unlisted', at })]);
    const before = await row(id);
    await s.app.jobs.drain();
    expect(await row(id)).toEqual(before);
  });
});

describe('public audio', () => {
  let id: string;
  let etag: string;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET', address = '203.0.113.7') =>
    s.app.request(path, { method, headers }, { incoming: { socket: { remoteAddress: address } } });

  beforeAll(async () => {
    id = await clip();
    await published(id);
  });

  it('GET serves the whole file with Accept-Ranges, ETag, Content-Length and a long-lived cache header; HEAD the same headers', async () => {
    const res = await get(`/audio/${id}.mp3`);
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('content-length')).toBe(String(FIXTURE.byteLength));
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d{5,}/);
    etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect(Buffer.from(await res.arrayBuffer()).equals(FIXTURE)).toBe(true);
    const head = await get(`/audio/${id}.mp3`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(FIXTURE.byteLength));
    expect(head.headers.get('etag')).toBe(etag);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('Range: 206 with Content-Range (a-b, a-, -n); unsatisfiable: 416 with bytes */size', async () => {
    const size = FIXTURE.byteLength;
    for (const [range, start, end] of [['bytes=0-99', 0, 99], [`bytes=${size - 10}-`, size - 10, size - 1], ['bytes=-100', size - 100, size - 1]] as const) {
      const res = await get(`/audio/${id}.mp3`, { range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(FIXTURE.subarray(start, end + 1))).toBe(true);
    }
    const past = await get(`/audio/${id}.mp3`, { range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it('If-None-Match with the ETag: 304; If-Range: the range while the ETag holds, the whole file once it does not', async () => {
    const cached = await get(`/audio/${id}.mp3`, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect((await cached.arrayBuffer()).byteLength).toBe(0);
    expect((await get(`/audio/${id}.mp3`, { range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
    const changed = await get(`/audio/${id}.mp3`, { range: 'bytes=0-9', 'if-range': '"another"' });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('content-length')).toBe(String(FIXTURE.byteLength));
    await changed.arrayBuffer();
    const adFree = await get(`/audio/${id}/ad-free.mp3`, { range: 'bytes=0-9' });
    expect(adFree.status).toBe(206);
    await adFree.arrayBuffer();
  });

  it('404 with no body for Private, Restricted, unpublished, deleted, unknown and other organizations’ unpublished clips', async () => {
    const cases = {
      private: await clip({ visibility: 'Private', publishState: 'Published' }),
      restricted: await clip({ visibility: 'Restricted', publishState: 'Published' }),
      unpublished: await clip({ visibility: 'Public', publishState: 'Unpublished' }),
      publishing: await clip({ visibility: 'Public', publishState: 'Publishing' }),
      deleted: await clip({ visibility: 'Public', publishState: 'Published', deleted: true }),
      otherOrganization: await clip({ org: ORG_PODCASTS, program: OTHER_PROGRAM, publishState: 'Unpublished' }),
      unknown: randomUUID(),
    };
    for (const [what, clipId] of Object.entries(cases)) {
      for (const path of [`/audio/${clipId}.mp3`, `/audio/${clipId}/ad-free.mp3`]) {
        const res = await get(path);
        expect(res.status, `${what} ${path}`).toBe(404);
        expect(await res.text()).toBe('');
      }
    }
    expect((await get('/audio/not-a-clip.mp3')).status).toBe(404);
  });

  it('records every request as a download event: a salted hash of the /64 and user agent, never the address', async () => {
    await s.app.downloads.flush();
    await t.store.query(`DELETE FROM download_events`);
    // A new day: its salt is made, and salts older than two days are deleted.
    const yesterday = s.clock.now.toISOString().slice(0, 10);
    const day = s.clock.advance(86_400_000).toISOString().slice(0, 10);
    await t.store.query(`INSERT INTO download_salts (day, salt) VALUES ($1::date - 5, 'old'), ($1::date - 1, 'kept') ON CONFLICT DO NOTHING`, [day]);
    const ua = { 'user-agent': 'AppleCoreMedia/1.0' };
    await (await get(`/audio/${id}.mp3?src=feed`, { ...ua, range: 'bytes=0-99' }, 'GET', '2001:db8:1:2:aaaa::1')).arrayBuffer();
    await (await get(`/audio/${id}.mp3`, { ...ua, referer: 'https://studio.example/embed/x' }, 'HEAD', '2001:db8:1:2:bbbb::2')).arrayBuffer();
    await (await get(`/audio/${id}/ad-free.mp3`, ua, 'GET', '2001:db8:9::1')).arrayBuffer();
    await (await get(`/audio/${randomUUID()}.mp3`, ua, 'GET', '198.51.100.4')).arrayBuffer();
    await s.app.downloads.flush();
    const events = await t.store.query<Record<string, unknown>>(`SELECT * FROM download_events ORDER BY id`);
    expect(events.map((e) => [e['method'], e['status'], e['source'], e['ad_free'], Number(e['bytes_sent'])])).toEqual([
      ['GET', 206, 'feed', false, 100],
      ['HEAD', 200, 'embed', false, 0],
      ['GET', 200, null, true, FIXTURE.byteLength],
      ['GET', 404, null, false, 0],
    ]);
    expect(events[0]).toMatchObject({ clip_id: id, organization_id: ORG_DEMO, program_id: PROGRAM, range_header: 'bytes=0-99', user_agent: 'AppleCoreMedia/1.0' });
    expect([Number(events[0]!['range_start']), Number(events[0]!['range_end'])]).toEqual([0, 99]);
    const hashes = events.map((e) => String(e['listener_hash']));
    for (const h of hashes) expect(h).toMatch(/^[0-9a-f]{64}$/);
    // One /64, one listener; another network, another.
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
    const stored = JSON.stringify(events);
    for (const address of ['2001:db8', '198.51.100.4', '2001:0db8']) expect(stored).not.toContain(address);
    const salts = await t.store.query<{ day: string }>(`SELECT day::text AS day FROM download_salts ORDER BY day`);
    expect(salts.map((r) => r.day)).toEqual([yesterday, day]);
  });

  it('an IPv6 address is cut to its /64 before hashing; IPv4 (and IPv4-mapped) kept whole', () => {
    expect(addressForHash('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressForHash('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressForHash('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressForHash('203.0.113.7')).toBe('203.0.113.7');
  });
});
