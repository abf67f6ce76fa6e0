// A live stream heard from its stored segments (sync-server/audio/live-ingest.ts storedLiveAudio),
// on PGlite and on PostgreSQL, with the real LiveAudioStore writing segments into a blob folder:
// the stream's row counts the bytes of its stored segments as each is stored; a listener joining
// after three segments hears the newest one, then each next one as it is stored, and after the end
// the rest of the recording assembled from the segments from exactly where it was. Where that is
// comes from the row's count, or, for a row without one (a stream received by an instance from
// before migration 0645), from the segments' sizes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsBlobStore, type BlobStore } from '../../sync-server/audio/blob-store.ts';
import { liveSegmentKey, liveSegmentsKey, LiveAudioStore, storedLiveAudio } from '../../sync-server/audio/live-ingest.ts';
import { recordingKeys } from '../../sync-server/audio/media-paths.ts';
import { seed } from '../../sync-server/seed.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const log = pino({ level: 'silent' });
/** `n` bytes, each `value`: which segment a byte came from shows in what is heard. */
const bytes = (n: number, value: number) => new Uint8Array(n).fill(value);
const joined = (...parts: Uint8Array[]) => Buffer.concat(parts);

describe.each(storeKinds)('a live stream heard from its stored segments on %s', (kind) => {
  let test: TestStore;
  let dir = '';
  let blobs: BlobStore;
  let recording: { id: string; organization_id: string };

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 4 });
    dir = await mkdtemp(join(tmpdir(), 'castaway-live-stored-'));
    blobs = fsBlobStore(dir);
    recording = (await test.store.query<{ id: string; organization_id: string }>(`SELECT id, organization_id FROM recordings ORDER BY id LIMIT 1`))[0]!;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const counted of [true, false]) {
    it(counted ? 'with the bytes counted in the row' : 'with a row from before the count (bytes NULL)', async () => {
      const deps = { store: test.store, log };
      const uploadId = crypto.randomUUID();
      await test.store.query(`DELETE FROM live_streams WHERE recording_id = $1`, [recording.id]);
      // A row from before the count is NULL, and the code that wrote it never sets it: the NULL is
      // put back after each segment stored here.
      await test.store.query(`INSERT INTO live_streams (recording_id, organization_id, upload_id, bytes) VALUES ($1, $2, $3, ${counted ? '0' : 'NULL'})`, [
        recording.id,
        recording.organization_id,
        uploadId,
      ]);
      const segments = [bytes(1_000, 1), bytes(1_500, 2), bytes(700, 3), bytes(400, 4), bytes(300, 5)];
      const store = new LiveAudioStore(deps, blobs, recording.id, uploadId);
      const storeNext = async (n: number) => {
        store.push(segments[n]!);
        await store.flush();
        if (!counted) await test.store.query(`UPDATE live_streams SET bytes = NULL WHERE recording_id = $1`, [recording.id]);
      };
      for (const n of [0, 1, 2]) await storeNext(n);
      const [row] = await test.store.query<{ segments: number; bytes: number | null }>(`SELECT segments, bytes FROM live_streams WHERE recording_id = $1`, [recording.id]);
      expect(row!.segments).toBe(3);
      // The count is the bytes stored, each segment's as it was stored.
      let sized = 0;
      for (const n of [0, 1, 2]) sized += (await blobs.size(liveSegmentKey(recording.id, uploadId, n)))!;
      expect(sized).toBe(3_200);
      expect(row!.bytes).toBe(counted ? sized : null);

      // Where to start is found with one size request (the newest segment's) when the row counts
      // the bytes, however long the stream has run; without the count, one per earlier segment.
      const sizeRequests: string[] = [];
      const counting: BlobStore = { ...blobs, size: (key) => (sizeRequests.push(key), blobs.size(key)) };
      const heard = (await storedLiveAudio(deps, counting, recording.id))!.getReader();
      expect(sizeRequests).toEqual(counted ? [liveSegmentKey(recording.id, uploadId, 2)] : [0, 1].map((n) => liveSegmentKey(recording.id, uploadId, n)));
      // Joined after three segments: the newest one first, then the next as it is stored.
      expect(joined((await heard.read()).value!)).toEqual(joined(segments[2]!));
      await storeNext(3);
      expect(joined((await heard.read()).value!)).toEqual(joined(segments[3]!));
      // The end, as live-end.ts makes it: the recording's audio put together (here with the last
      // heartbeat's audio, which this listener never saw as a segment), the row claimed, the segments
      // removed. The listener gets what it has not heard of the recording: the last part, from
      // where it was, then the end.
      await blobs.putBytes(recordingKeys.audio(recording.id, uploadId), joined(...segments));
      await test.store.query(`UPDATE live_streams SET claimed_at = now() WHERE recording_id = $1`, [recording.id]);
      await blobs.remove(liveSegmentsKey(recording.id, uploadId));
      const rest: Uint8Array[] = [];
      for (let r = await heard.read(); !r.done; r = await heard.read()) rest.push(r.value);
      expect(joined(...rest)).toEqual(joined(segments[4]!));
    }, 60_000);
  }

  // The review's case: a listener joins on another instance just as the stream ends. The row, read
  // first, is not claimed yet; by the time the newest segment is sized, the end has put the
  // recording together and removed the segments. Its size is not 0 (which would start the listener
  // past the newest segment): nothing is coming in any more, so the answer is "no stream" (404),
  // and the player turns to the recording.
  it('a listener joining as the segments are removed with the end is told no stream is coming in', async () => {
    const deps = { store: test.store, log };
    const uploadId = crypto.randomUUID();
    await test.store.query(`DELETE FROM live_streams WHERE recording_id = $1`, [recording.id]);
    await test.store.query(`INSERT INTO live_streams (recording_id, organization_id, upload_id, segments, bytes) VALUES ($1, $2, $3, 3, 3200)`, [recording.id, recording.organization_id, uploadId]);
    for (const [n, size] of [1_000, 1_500, 700].entries()) await blobs.putBytes(liveSegmentKey(recording.id, uploadId, n), bytes(size, n + 1));
    const endingMeanwhile: BlobStore = {
      ...blobs,
      size: async (key) => {
        await blobs.remove(liveSegmentsKey(recording.id, uploadId));
        return blobs.size(key);
      },
    };
    expect(await storedLiveAudio(deps, endingMeanwhile, recording.id)).toBeNull();
    // Not ended: the same row and segments are heard from the newest one.
    for (const [n, size] of [1_000, 1_500, 700].entries()) await blobs.putBytes(liveSegmentKey(recording.id, uploadId, n), bytes(size, n + 1));
    const heard = (await storedLiveAudio(deps, blobs, recording.id))!.getReader();
    expect(joined((await heard.read()).value!)).toEqual(joined(bytes(700, 3)));
    await heard.cancel();
  });
});
