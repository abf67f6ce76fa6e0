// The set-up the live-stream suites on several instances share (live-recordings-instances and
// live-recordings-lost): a scratch PostgreSQL database with the demo seeded and a temporary folder
// for the instances' blobs; the demo user signed in on one instance with an agent that may push to
// Morning Briefing; and what a stream's live_streams row counts against what its segments hold.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordingAgentWithToken } from '../../src/protocol/api/recording-agents.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { liveSegmentKey } from '../../sync-server/audio/live-ingest.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { AppClient } from './app-client.ts';
import type { PgInstance } from './pg-instance.ts';
import { MISSING_DATABASE_URL, openScratchPostgres, type TestStore } from './test-store.ts';

export const MORNING = seedId('program:morning');

export type LiveDatabase = { db: TestStore & { url: string }; dir: string; drop(): Promise<void> };

/** A scratch database from TEST_DATABASE_URL (named from `name`) with the demo seeded (12 clips),
 *  and a temporary folder `dir`; `drop` removes both. */
export async function liveDatabase(name: string): Promise<LiveDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error(MISSING_DATABASE_URL);
  const db = await openScratchPostgres(base, name);
  await seed(db.store, { clips: 12 });
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  return {
    db,
    dir,
    async drop() {
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type LiveSession = { api: AppClient; session: Record<string, string>; agent: RecordingAgentWithToken };

/** The demo user signed in on `instance` (`session`: the headers a fetch to any instance sends) and
 *  a recording agent named `agentName` that may push to Morning Briefing. */
export async function liveSession(instance: PgInstance, agentName: string): Promise<LiveSession> {
  const api = await AppClient.signedIn(instance.app, 'demo@example.com');
  const session = { cookie: api.cookie, 'x-organization-id': ORG_DEMO };
  const made = await api.post('/api/v1/recording-agents', { Name: agentName, ProgramIds: [MORNING] });
  if (made.status !== 201) throw new Error(`the recording agent was not made: ${made.status} ${made.text}`);
  return { api, session, agent: made.body as RecordingAgentWithToken };
}

/** What a live stream's row counts (segments and bytes) and what those segments in `blobDir` hold
 *  (null when it has no row). Read while the stream runs: a segment is stored before it is counted
 *  and never written again, so the two agree; once the stream ends its segments are removed (and
 *  count 0 here) as the recording is put together from them. */
export async function liveStreamStored(store: Store, blobDir: string, recordingId: string): Promise<{ segments: number; counted: number; stored: number } | null> {
  const [row] = await store.query<{ upload_id: string; segments: number; bytes: number | null }>(`SELECT upload_id, segments, bytes FROM live_streams WHERE recording_id = $1`, [recordingId]);
  if (!row) return null;
  const blobs = fsBlobStore(blobDir);
  let stored = 0;
  for (let n = 0; n < row.segments; n++) stored += (await blobs.size(liveSegmentKey(recordingId, row.upload_id, n))) ?? 0;
  return { segments: row.segments, counted: Number(row.bytes), stored };
}
