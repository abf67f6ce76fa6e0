// A program's recording settings and the deletion estimates (issue 33; section 7 settings/recording,
// clip-deletion-estimate and recording-deletion-estimate with their required days), on PGlite and
// on PostgreSQL: the retention kept on the program's row through program.setRecordingSettings
// (a bad one a 400 at DeleteRecordingsAfterDays, a stale If-Match a 412, an offline edit merged or
// a conflict), the estimates counted from backdated rows (a missing or bad days a 400 at days), and
// the retention job deleting, as recording.delete does, exactly the recordings past their program's
// retention: pulled by devices as tombstones, kept in row revisions, and not again on a second run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../sync-server/bus.ts';
import { RECORDING_RETENTION_JOB } from '../../sync-server/jobs/retention.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import type { PullResponse } from '../../src/protocol/sync.ts';
import type { DeletionEstimate, RecordingSettings } from '../../src/protocol/api/settings.ts';
import { AppClient, demoApp, fields, type DemoApp } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(storeKinds)('recording settings on %s', (kind) => {
  let test: TestStore;
  let app: DemoApp['app'];
  let api: AppClient;
  let changes: Change[] = [];

  beforeAll(async () => {
    ({ test, app, api, changes } = await demoApp(kind, { clips: 24 }));
  }, 120_000);

  afterAll(async () => {
    await app?.jobs.stop();
    await test?.drop();
  });

  const path = `/api/v1/programs/${MORNING}/settings/recording`;
  const settings = async () => {
    const reply = await api.get(path);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as RecordingSettings;
  };

  /** Every live row of the table made now, then these backdated by days with a duration. */
  async function backdate(table: 'clips' | 'recordings', rows: Array<[id: string, daysAgo: number, seconds: number]>) {
    await test.store.query(`UPDATE ${table} SET created_at_utc = now()`);
    for (const [id, daysAgo, seconds] of rows) {
      await test.store.query(`UPDATE ${table} SET created_at_utc = $2, data = data || jsonb_build_object('DurationSeconds', $3::float8) WHERE id = $1`, [id, new Date(Date.now() - daysAgo * DAY_MS), seconds]);
    }
  }
  /** The app's job runner as served, with the retention job due now; the changes it announces kept. */
  async function runRetentionJob() {
    await app.jobs.start();
    try {
      await test.store.query(`UPDATE jobs SET run_at = now() WHERE kind = $1`, [RECORDING_RETENTION_JOB]);
      changes.length = 0;
      await app.jobs.drain();
    } finally {
      await app.jobs.stop();
    }
  }
  const idsOf = async (table: 'clips' | 'recordings', programId: string) =>
    (await test.store.query<{ id: string }>(`SELECT id FROM ${table} WHERE program_id = $1 AND NOT deleted ORDER BY id`, [programId])).map((r) => r.id);

  it('keeps recordings for ever until set; sets, reads and clears the retention on the program’s row', async () => {
    expect(await settings()).toEqual({ DeleteRecordingsAfterDays: null });
    const set = await api.patch(path, { DeleteRecordingsAfterDays: 30 });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ DeleteRecordingsAfterDays: 30 });
    expect(set.headers.get('etag')).toBeTruthy();
    expect(await settings()).toEqual({ DeleteRecordingsAfterDays: 30 });
    // On the row itself: synced, as GET /v1/programs/{id} and the pull show it.
    expect(((await api.get(`/api/v1/programs/${MORNING}`)).body as { DeleteRecordingsAfterDays?: unknown }).DeleteRecordingsAfterDays).toBe(30);
    // Another program is its own.
    expect(((await api.get(`/api/v1/programs/${WORLD}/settings/recording`)).body as RecordingSettings).DeleteRecordingsAfterDays).toBeNull();
    expect((await api.patch(path, { DeleteRecordingsAfterDays: null })).body).toEqual({ DeleteRecordingsAfterDays: null });
    expect(await settings()).toEqual({ DeleteRecordingsAfterDays: null });
  });

  it('refuses a retention that is not a whole number of days from 1 to 3650 at DeleteRecordingsAfterDays, and a stale If-Match', async () => {
    expect((await api.patch(path, { DeleteRecordingsAfterDays: 1 })).status).toBe(200);
    expect((await api.patch(path, { DeleteRecordingsAfterDays: 3650 })).status).toBe(200);
    for (const [bad, type] of [[0, 'outOfRange'], [-5, 'outOfRange'], [3651, 'outOfRange'], [1.5, 'invalid']] as const) {
      const reply = await api.patch(path, { DeleteRecordingsAfterDays: bad });
      expect(reply.status, String(bad)).toBe(400);
      expect(fields(reply), String(bad)).toEqual([['DeleteRecordingsAfterDays', type]]);
    }
    for (const body of [{}, { DeleteRecordingsAfterDays: '30' }, { DeleteRecordingsAfterDays: 30, Other: 1 }]) {
      const reply = await api.patch(path, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(fields(reply).map(([f]) => f), JSON.stringify(body)).toContain(Object.keys(body).find((k) => k !== 'DeleteRecordingsAfterDays') ?? 'DeleteRecordingsAfterDays');
    }
    expect(await settings()).toEqual({ DeleteRecordingsAfterDays: 3650 });
    const etag = (await api.get(path)).headers.get('etag')!;
    expect((await api.patch(path, { DeleteRecordingsAfterDays: 60 }, { 'if-match': etag })).status).toBe(200);
    const stale = await api.patch(path, { DeleteRecordingsAfterDays: 7 }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect((stale.body as { Id: string }).Id).toBe(MORNING);
    expect(await settings()).toEqual({ DeleteRecordingsAfterDays: 60 });
    expect((await api.patch(path, { DeleteRecordingsAfterDays: null })).status).toBe(200);
  });

  it('offline: a queued program.setRecordingSettings on an old base merges; one that crosses another change is a conflict', async () => {
    const base = ((await api.get(`/api/v1/programs/${MORNING}`)).body as { ModifiedAtUtc: string }).ModifiedAtUtc;
    expect((await api.patch(`/api/v1/programs/${MORNING}/settings/normalization`, { PresetId: 'podcast' })).status).toBe(200);
    const merged = await api.pushOne('program.setRecordingSettings', { programId: MORNING, DeleteRecordingsAfterDays: 90 }, base);
    expect(merged.status).toBe('merged');
    expect(await settings()).toEqual({ DeleteRecordingsAfterDays: 90 });

    const shared = ((await api.get(`/api/v1/programs/${MORNING}`)).body as { ModifiedAtUtc: string }).ModifiedAtUtc;
    expect((await api.pushOne('program.setRecordingSettings', { programId: MORNING, DeleteRecordingsAfterDays: 14 }, shared)).status).toBe('applied');
    const second = await api.pushOne('program.setRecordingSettings', { programId: MORNING, DeleteRecordingsAfterDays: null }, shared);
    expect(second.status).toBe('conflict');
    expect(second.fields).toEqual([expect.objectContaining({ field: 'DeleteRecordingsAfterDays', mine: null, theirs: 14 })]);
    // A retention out of range queued offline is refused by the same rule.
    const refused = await api.pushOne('program.setRecordingSettings', { programId: MORNING, DeleteRecordingsAfterDays: 0 });
    expect(refused).toMatchObject({ status: 'rejected', httpStatus: 400 });
    expect(await settings()).toEqual({ DeleteRecordingsAfterDays: 14 });
    expect((await api.patch(path, { DeleteRecordingsAfterDays: null })).status).toBe(200);
    await api.delete(`/api/v1/programs/${MORNING}/settings/normalization`);
  });

  it('estimates what a retention of days would delete now: live rows created before the cutoff, their duration and the oldest', async () => {
    const recordings = await idsOf('recordings', MORNING);
    const world = await idsOf('recordings', WORLD);
    expect(recordings.length).toBeGreaterThanOrEqual(3);
    await backdate('recordings', [[recordings[0]!, 100, 1200], [recordings[1]!, 40, 600], [recordings[2]!, 10, 60], [world[0]!, 50, 300]]);
    const estimate = async (url: string) => {
      const reply = await api.get(url);
      expect(reply.status, `${url}: ${reply.text}`).toBe(200);
      return reply.body as DeletionEstimate;
    };
    const programUrl = (days: number) => `/api/v1/programs/${MORNING}/settings/recording-deletion-estimate?days=${days}`;
    const thirty = await estimate(programUrl(30));
    expect(thirty).toMatchObject({ Days: 30, Count: 2, TotalDurationSeconds: 1800 });
    expect(Date.now() - Date.parse(thirty.OldestCreatedAtUtc!)).toBeGreaterThanOrEqual(100 * DAY_MS);
    expect(Date.now() - Date.parse(thirty.OldestCreatedAtUtc!)).toBeLessThan(100 * DAY_MS + 60_000);
    expect(Math.abs(Date.now() - 30 * DAY_MS - Date.parse(thirty.CutoffUtc))).toBeLessThan(60_000);
    expect(await estimate(programUrl(5))).toMatchObject({ Count: 3, TotalDurationSeconds: 1860 });
    expect(await estimate(programUrl(365))).toMatchObject({ Count: 0, TotalDurationSeconds: 0, OldestCreatedAtUtc: null });
    // The organization's: every program the caller sees with content access.
    expect(await estimate('/api/v1/settings/recording-deletion-estimate?days=30')).toMatchObject({ Count: 3, TotalDurationSeconds: 2100 });
    // A deleted row is not counted.
    expect((await api.delete(`/api/v1/recordings/${recordings[1]}`)).status).toBe(204);
    expect(await estimate(programUrl(30))).toMatchObject({ Count: 1, TotalDurationSeconds: 1200 });

    const clips = await idsOf('clips', MORNING);
    await backdate('clips', [[clips[0]!, 200, 30], [clips[1]!, 20, 45]]);
    expect(await estimate(`/api/v1/programs/${MORNING}/settings/clip-deletion-estimate?days=7`)).toMatchObject({ Count: 2, TotalDurationSeconds: 75 });
    expect(await estimate(`/api/v1/settings/clip-deletion-estimate?days=30`)).toMatchObject({ Count: 1, TotalDurationSeconds: 30 });

    // days is required: missing, empty, not a whole number, or out of range is a 400 at days.
    for (const base of [`/api/v1/programs/${MORNING}/settings/clip-deletion-estimate`, `/api/v1/programs/${MORNING}/settings/recording-deletion-estimate`, '/api/v1/settings/clip-deletion-estimate', '/api/v1/settings/recording-deletion-estimate']) {
      for (const [query, type] of [['', 'required'], ['?days=', 'required'], ['?days=abc', 'invalid'], ['?days=1.5', 'invalid'], ['?days=-3', 'invalid'], ['?days=0', 'outOfRange'], ['?days=3651', 'outOfRange']] as const) {
        const reply = await api.get(`${base}${query}`);
        expect(reply.status, `${base}${query}`).toBe(400);
        expect(fields(reply), `${base}${query}`).toEqual([['days', type]]);
      }
    }
    // Another organization's program: 404 with no body; the other organization's own estimate counts its own rows only.
    const podcasts = new AppClient(app);
    await podcasts.login('demo@example.com');
    podcasts.organizationId = ORG_PODCASTS;
    const elsewhere = await podcasts.get(`/api/v1/programs/${MORNING}/settings/recording-deletion-estimate?days=30`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toBe('');
    expect(((await podcasts.get('/api/v1/settings/recording-deletion-estimate?days=30')).body as DeletionEstimate).Count).toBe(0);
  });

  it('every recording settings and estimate route is in the OpenAPI document', async () => {
    const doc = (await api.get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const methods = (p: string) => Object.keys(doc.paths[p] ?? {}).sort();
    expect(methods('/api/v1/programs/{programId}/settings/recording')).toEqual(['get', 'patch']);
    for (const p of ['/api/v1/programs/{programId}/settings/clip-deletion-estimate', '/api/v1/programs/{programId}/settings/recording-deletion-estimate', '/api/v1/settings/clip-deletion-estimate', '/api/v1/settings/recording-deletion-estimate']) {
      expect(methods(p), p).toEqual(['get']);
    }
  });

  it('the retention job deletes the recordings past their program’s retention as recording.delete does, once', async () => {
    const morning = await idsOf('recordings', MORNING);
    const world = await idsOf('recordings', WORLD);
    // Morning keeps 30 days: two of its recordings are older. World keeps for ever: its old one stays.
    await backdate('recordings', [[morning[0]!, 45, 100], [morning[1]!, 31, 100], [world[0]!, 400, 100]]);
    expect((await api.patch(path, { DeleteRecordingsAfterDays: 30 })).status).toBe(200);
    const pulled = (await api.get('/api/sync/pull?limit=5000')).body as PullResponse;
    const before = await test.store.query<{ id: string; version: string }>(`SELECT id, version FROM recordings WHERE id = ANY($1::uuid[])`, [morning]);

    await runRetentionJob();
    const live = async (ids: string[]) => (await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE id = ANY($1::uuid[]) AND NOT deleted ORDER BY id`, [ids])).map((r) => r.id);
    expect(await live(morning)).toEqual(morning.slice(2).sort());
    expect(await live(world)).toEqual([...world].sort());
    // As a user's delete: a new version with its revision, the organization poked after commit,
    // and a device's next pull brings the deletions as tombstones.
    // The revision of the new version undoes the deletion (Deleted was false), by no user.
    const revisions = await test.store.query<{ id: string; undo: unknown; by: string | null }>(
      `SELECT r.id, r.undo, r.modified_by_id AS by FROM row_revisions r JOIN recordings t ON t.id = r.id AND t.version = r.version WHERE r.entity = 'recording' AND r.id = ANY($1::uuid[]) AND t.deleted ORDER BY r.id`,
      [morning.slice(0, 2)],
    );
    expect(revisions).toEqual(morning.slice(0, 2).sort().map((id) => ({ id, undo: { Deleted: false }, by: null })));
    let top = 0;
    for (const row of before.filter((r) => morning.slice(0, 2).includes(r.id))) {
      const [after] = await test.store.query<{ version: string }>(`SELECT version FROM recordings WHERE id = $1`, [row.id]);
      expect(Number(after!.version)).toBeGreaterThan(Number(row.version));
      top = Math.max(top, Number(after!.version));
    }
    // (The runner's other jobs announce changes of their own.)
    expect(changes).toContainEqual(expect.objectContaining({ organizationId: ORG_DEMO, version: top }));
    const next = (await api.get(`/api/sync/pull?limit=5000&cursor=${encodeURIComponent(pulled.cursor)}`)).body as PullResponse;
    expect(next.tombstones.filter((t) => t.entity === 'recordings').map((t) => t.id).sort()).toEqual(morning.slice(0, 2).sort());

    // Idempotent: a second run finds nothing left to delete, and writes nothing.
    const versions = await test.store.query(`SELECT id, version FROM recordings ORDER BY id`);
    const revisionCount = await test.store.query(`SELECT count(*)::int AS n FROM row_revisions WHERE entity = 'recording'`);
    await runRetentionJob();
    expect(await test.store.query(`SELECT id, version FROM recordings ORDER BY id`)).toEqual(versions);
    expect(await test.store.query(`SELECT count(*)::int AS n FROM row_revisions WHERE entity = 'recording'`)).toEqual(revisionCount);
    expect((await api.patch(path, { DeleteRecordingsAfterDays: null })).status).toBe(200);
  });
});
