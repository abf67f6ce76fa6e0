// Demo recordings with real audio (`npm start` seeding): a few seeded recordings get a 12-second
// fixture through the recording ingest pipeline, so their screens draw a real waveform and play.
// The fixtures live in shared/fixtures/audio beside the clone (dev machines and CI); without them
// the demo keeps its other recordings' links and this does nothing. MP3 and FLAC only: no WASM
// module to compile, ≈ 0.1 s per file.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createMemoryBus } from '../bus.ts';
import type { Store } from '../store/store.ts';
import { fsBlobStore } from './blob-store.ts';
import { processRecordingIngest, recordingKeys, startRecordingIngest } from './recording-routes.ts';

export const DEMO_FIXTURES_DIR = resolve(fileURLToPath(new URL('../../..', import.meta.url)), 'shared/fixtures/audio');

/** Ingests `file` (a fixture name) for each recording; returns how many recordings got audio. */
export async function seedRecordingAudio(store: Store, blobDir: string, items: Array<{ recordingId: string; file: string }>, fixturesDir = DEMO_FIXTURES_DIR): Promise<number> {
  const blobs = fsBlobStore(blobDir);
  const deps = { store, bus: createMemoryBus() };
  let done = 0;
  for (const { recordingId, file } of items) {
    const path = join(fixturesDir, file);
    if (!existsSync(path)) continue;
    const [row] = await store.query<{ organization_id: string }>('SELECT organization_id FROM recordings WHERE id = $1', [recordingId]);
    if (!row) continue;
    const uploadId = 'seed';
    const size = statSync(path).size;
    await blobs.put(recordingKeys.audio(recordingId, uploadId), Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, size);
    const ingest = await startRecordingIngest(deps, blobs, row.organization_id, null, recordingId, { uploadId, fileName: file, size });
    await processRecordingIngest(deps, blobs, row.organization_id, null, recordingId, ingest);
    done++;
  }
  return done;
}
