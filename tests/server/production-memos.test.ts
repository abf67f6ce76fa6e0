// GET /v1/programs/{programId}/recordings/memos (issue 34) on PGlite and on PostgreSQL: a memo per
// UTC date that has recordings, the day's recordings in capture order with their annotations;
// startDate and endDate required and checked (400 at the field); a recording deleted leaves the
// memo, a day without recordings has none; guarded as the program's recordings are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductionMemo } from '../../src/protocol/api/production-memos.ts';
import type { Annotation, Recording } from '../../src/protocol/entities.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
type ErrorBody = { Errors: Array<{ Field: string }> };

describe.each(storeKinds)('production memos on %s', (kind) => {
  let test: TestStore;
  let api: AppClient;
  let app: ReturnType<typeof createApp>;
  let recordings: Recording[] = [];

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 12 });
    app = createApp({ store: test.store, bus: createMemoryBus() });
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
    recordings = ((await api.get(`/api/v1/programs/${MORNING}/recordings?pageSize=100`)).body as { Items: Recording[] }).Items.filter((r) => r.CaptureStartUtc !== null);
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const memos = (start: string, end: string) => api.get(`/api/v1/programs/${MORNING}/recordings/memos?startDate=${start}&endDate=${end}`);

  it('one memo per date with recordings: the day’s recordings in capture order, each with its annotations', async () => {
    const dates = [...new Set(recordings.map((r) => r.CaptureStartUtc!.slice(0, 10)))].sort();
    expect(dates.length).toBeGreaterThan(0);
    const reply = await memos(dates[0]!, dates.at(-1)!);
    expect(reply.status, reply.text).toBe(200);
    const got = reply.body as ProductionMemo[];
    expect(got.map((m) => m.MemoDate)).toEqual(dates);
    for (const memo of got) {
      const mine = recordings.filter((r) => r.CaptureStartUtc!.startsWith(memo.MemoDate)).sort((a, b) => Date.parse(a.CaptureStartUtc!) - Date.parse(b.CaptureStartUtc!));
      expect(memo.Recordings.map((r) => r.RecordingId)).toEqual(mine.map((r) => r.Id));
      for (const r of memo.Recordings) {
        const notes = ((await api.get(`/api/v1/recordings/${r.RecordingId}/annotations?pageSize=100`)).body as { Items: Annotation[] }).Items;
        expect(r.Annotations.map((a) => a.Text)).toEqual([...notes].sort((a, b) => a.OffsetSeconds - b.OffsetSeconds).map((a) => a.Text));
      }
    }
    // The day before the first: no memo.
    const before = new Date(Date.parse(`${dates[0]}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await memos(before, before)).body).toEqual([]);
    // A recording deleted leaves its day's memo without it.
    const gone = got[0]!.Recordings[0]!.RecordingId;
    expect((await api.delete(`/api/v1/recordings/${gone}`)).status).toBe(204);
    const after = (await memos(dates[0]!, dates[0]!)).body as ProductionMemo[];
    expect(after.flatMap((m) => m.Recordings.map((r) => r.RecordingId))).not.toContain(gone);
  });

  it('refuses missing or bad dates at their field', async () => {
    const missing = await api.get(`/api/v1/programs/${MORNING}/recordings/memos`);
    expect(missing.status).toBe(400);
    expect((missing.body as ErrorBody).Errors.map((e) => e.Field).sort()).toEqual(['endDate', 'startDate']);
    const reversed = await memos('2026-03-02', '2026-03-01');
    expect(reversed.status).toBe(400);
    expect((reversed.body as ErrorBody).Errors.map((e) => e.Field)).toContain('endDate');
    const bad = await memos('yesterday', '2026-03-01');
    expect((bad.body as ErrorBody).Errors.map((e) => e.Field)).toContain('startDate');
  });

  it('is guarded as the program’s recordings are', async () => {
    const other = await api.get(`/api/v1/programs/${seedId('program:deepdive')}/recordings/memos?startDate=2026-01-01&endDate=2026-01-31`);
    expect(other.status).toBe(404);
    expect(other.text).toBe('');
    const analyst = new AppClient(app);
    await analyst.login('analyst@example.com');
    analyst.organizationId = ORG_DEMO;
    expect((await analyst.get(`/api/v1/programs/${MORNING}/recordings/memos?startDate=2026-01-01&endDate=2026-01-31`)).status).toBe(403);
  });
});
