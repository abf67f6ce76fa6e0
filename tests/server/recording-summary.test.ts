// GET /v1/programs/{programId}/recordings/summary (issue 34) on PGlite and on PostgreSQL: the
// figures agree with the program's recordings as the list call answers them (counted here in
// JavaScript from the rows, not by the server's query), follow a recording deleted and one marked
// reviewed, and the call is guarded as the list is (another organization's program 404, a program
// seen without content access 403).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordingSummary } from '../../src/protocol/api/recording-summary.ts';
import type { Recording } from '../../src/protocol/entities.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');

describe.each(storeKinds)('recording summary on %s', (kind) => {
  let test: TestStore;
  let api: AppClient;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 12 });
    app = createApp({ store: test.store, bus: createMemoryBus() });
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const summary = async () => {
    const reply = await api.get(`/api/v1/programs/${MORNING}/recordings/summary`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as RecordingSummary;
  };
  /** The figures from the rows the list call answers. */
  const expected = async (): Promise<RecordingSummary> => {
    const rows = ((await api.get(`/api/v1/programs/${MORNING}/recordings?pageSize=100`)).body as { Items: Recording[] }).Items;
    const counts = { Processing: 0, Live: 0, Finalized: 0 };
    for (const r of rows) counts[r.State]++;
    const starts = rows.map((r) => r.CaptureStartUtc).filter((s): s is string => s !== null).map((s) => Date.parse(s));
    const finalized = rows.filter((r) => r.State === 'Finalized');
    return {
      ProgramId: MORNING,
      Counts: counts,
      Total: rows.length,
      TotalDurationSeconds: Math.round(finalized.reduce((t, r) => t + (r.DurationSeconds ?? 0), 0) * 1000) / 1000,
      TornCount: rows.filter((r) => r.HasTornAudio).length,
      UnreviewedCount: finalized.filter((r) => !r.Reviewed).length,
      FirstCaptureStartUtc: starts.length ? new Date(Math.min(...starts)).toISOString() : null,
      LastCaptureStartUtc: starts.length ? new Date(Math.max(...starts)).toISOString() : null,
    };
  };

  it('counts the program’s recordings by state, with the finalized ones’ duration, and follows changes', async () => {
    const before = await summary();
    expect(before).toEqual(await expected());
    expect(before.Total).toBeGreaterThan(1);
    expect(before.TotalDurationSeconds).toBeGreaterThan(0);
    const rows = ((await api.get(`/api/v1/programs/${MORNING}/recordings?status=Finalized`)).body as { Items: Recording[] }).Items;
    const finalized = rows.find((r) => (r.DurationSeconds ?? 0) > 0)!;
    expect((await api.delete(`/api/v1/recordings/${finalized.Id}`)).status).toBe(204);
    const after = await summary();
    expect(after.Total).toBe(before.Total - 1);
    expect(after.Counts.Finalized).toBe(before.Counts.Finalized - 1);
    expect(after.TotalDurationSeconds).toBeCloseTo(before.TotalDurationSeconds - finalized.DurationSeconds!, 3);
    expect(after).toEqual(await expected());
  });

  it('is guarded as the program’s recordings are', async () => {
    const other = await api.get(`/api/v1/programs/${seedId('program:deepdive')}/recordings/summary`);
    expect(other.status).toBe(404);
    expect(other.text).toBe('');
    const analyst = new AppClient(app);
    await analyst.login('analyst@example.com');
    analyst.organizationId = ORG_DEMO;
    expect((await analyst.get(`/api/v1/programs/${MORNING}/recordings/summary`)).status).toBe(403);
  });
});
