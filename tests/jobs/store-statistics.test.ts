// The planner's statistics on PGlite (sync-server/jobs/store-statistics.ts): PGlite has no
// autovacuum, so a recurring job analyzes; PostgreSQL's own autovacuum does, so it gets no job.
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { enqueueJob } from '../../sync-server/jobs/queue.ts';
import { STORE_ANALYZE_JOB, storeStatisticsJobs } from '../../sync-server/jobs/store-statistics.ts';
import { seed } from '../../sync-server/seed.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';

const clipRowsEstimate = async (t: TestStore) =>
  Number((await t.store.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'clips'`))[0]!.n);

describe('store statistics', () => {
  const stores: TestStore[] = [];
  afterAll(async () => {
    for (const t of stores) await t.drop();
  });

  it('on PGlite the job vacuums and analyzes: the planner then knows how many clips there are, and which pages are all visible', async () => {
    const t = await openTestStore('pglite');
    stores.push(t);
    await seed(t.store, { clips: 60 });
    // A small seed does not analyze (tests/… would pay for it): the planner knows nothing yet.
    expect(await clipRowsEstimate(t)).toBeLessThan(1);
    const app = createApp({ store: t.store, bus: createMemoryBus() });
    await enqueueJob(t.store, STORE_ANALYZE_JOB, {});
    await app.jobs.drain();
    const [count] = await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM clips`);
    expect(await clipRowsEstimate(t)).toBe(count!.n);
    // VACUUM set the visibility map the list pages' index-only scans rely on.
    const [pages] = await t.store.query<{ visible: number }>(`SELECT relallvisible AS visible FROM pg_class WHERE relname = 'clips'`);
    expect(pages!.visible).toBeGreaterThan(0);
  });

  it('a seed of 1,000 clips or more analyzes as it ends', async () => {
    const t = await openTestStore('pglite');
    stores.push(t);
    await seed(t.store, { clips: 1000 });
    const [count] = await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM clips`);
    expect(await clipRowsEstimate(t)).toBe(count!.n);
  });

  it('on PostgreSQL there is no such job (autovacuum analyzes)', async () => {
    const t = await openTestStore('postgres');
    stores.push(t);
    expect(Object.keys(storeStatisticsJobs({ store: t.store }))).toEqual([]);
  });
});
