// The app's recurring sweeps, as its job runner runs them (createApp(...).jobs) on PGlite and
// PostgreSQL: starting schedules one of each (a second start adds none), and a due sweep deletes
// the expired sessions, keeps the live ones, and schedules itself again.
import { BILLING_NOTICES_JOB } from '../../sync-server/billing/notices.ts';
import { STORE_ANALYZE_JOB } from '../../sync-server/jobs/store-statistics.ts';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createSession, SESSION_TTL_MS } from '../../sync-server/auth.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { SESSION_SWEEP_JOB } from '../../sync-server/jobs/session-sweep.ts';
import { RECORDING_RETENTION_JOB } from '../../sync-server/jobs/retention.ts';
import { LIVE_SWEEP_JOB } from '../../sync-server/audio/live-end.ts';
import { UPLOAD_SWEEP_JOB } from '../../sync-server/uploads/tus.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';

describe.each(storeKinds)('sweeps on %s', (kind) => {
  let t: TestStore;
  let dataDir: string;
  const previous = process.env.CASTAWAY_DATA_DIR;
  beforeAll(async () => {
    // The app's upload and blob folders: this test's own, not the working copy's .data.
    dataDir = await mkdtemp(join(tmpdir(), 'castaway-sweeps-'));
    process.env.CASTAWAY_DATA_DIR = dataDir;
    t = await openTestStore(kind);
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.CASTAWAY_DATA_DIR;
    else process.env.CASTAWAY_DATA_DIR = previous;
    await t?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the expired-sessions sweep deletes expired sessions only, and keeps one schedule of each sweep', async () => {
    const { store } = t;
    const userId = randomUUID();
    const now = new Date();
    await store.query(`INSERT INTO users (id, email, name, password_hash, created_at_utc, modified_at_utc, version)
                       VALUES ($1, $2, 'U', 'x', $3, $3, next_row_version())`, [userId, `${userId}@example.com`, now]);
    await createSession(store, userId, new Date(now.getTime() - SESSION_TTL_MS - 60_000));
    const live = await createSession(store, userId, now);

    const app = createApp({ store, bus: createMemoryBus() });
    const other = createApp({ store, bus: createMemoryBus() });
    await app.jobs.start();
    try {
      await other.jobs.start();
      await other.jobs.stop();
      const scheduled = () => store.query<{ kind: string; state: string }>(`SELECT kind, state FROM jobs ORDER BY kind`);
      expect(await scheduled()).toEqual([
        { kind: 'analytics.count-downloads', state: 'queued' },
        { kind: 'analytics.rollup', state: 'queued' },
        // Billing's hourly allowance notices (sync-server/billing/notices.ts).
        { kind: BILLING_NOTICES_JOB, state: 'queued' },
        // Live recordings whose stream was lost (sync-server/audio/live-end.ts).
        { kind: LIVE_SWEEP_JOB, state: 'queued' },
        { kind: RECORDING_RETENTION_JOB, state: 'queued' },
        { kind: SESSION_SWEEP_JOB, state: 'queued' },
        // PGlite has no autovacuum: the studio analyzes it (jobs/store-statistics.ts).
        ...(kind === 'pglite' ? [{ kind: STORE_ANALYZE_JOB, state: 'queued' }] : []),
        { kind: UPLOAD_SWEEP_JOB, state: 'queued' },
      ]);
      // Not due for an hour: a drain leaves the sessions alone.
      await app.jobs.drain();
      expect(await store.query(`SELECT count(*)::int AS n FROM sessions WHERE user_id = $1`, [userId])).toEqual([{ n: 2 }]);

      await store.query(`UPDATE jobs SET run_at = now() WHERE kind = $1`, [SESSION_SWEEP_JOB]);
      await app.jobs.drain();
      const left = await store.query<{ xsrf_token: string }>(`SELECT xsrf_token FROM sessions WHERE user_id = $1`, [userId]);
      expect(left.map((s) => s.xsrf_token)).toEqual([live.xsrfToken]);
      const [next] = await store.query<{ state: string; in_minutes: number }>(
        `SELECT state, round(extract(epoch FROM run_at - now()) / 60)::int AS in_minutes FROM jobs WHERE kind = $1`, [SESSION_SWEEP_JOB]);
      expect(next).toEqual({ state: 'queued', in_minutes: 60 });
    } finally {
      await app.jobs.stop();
    }
  });
});
