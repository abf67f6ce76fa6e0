// `npm start` seeds a couple of demo recordings with real audio (sync-server/audio/seed-audio.ts):
// a signed-in user then sees them Finalized with a 12-second duration, and their audio and
// waveform URLs answer, on PGlite and PostgreSQL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRecording } from '../../src/domain/recording.ts';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import { RecordingSchema } from '../../src/protocol/entities.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { DEMO_RECORDING_AUDIO, seedIfEmpty } from '../../sync-server/seed.ts';
import { AppClient } from '../server/app-client.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';

describe.each(storeKinds)('demo recordings with real audio on %s', (kind) => {
  let t: TestStore;
  let blobDir: string;
  let demo: AppClient;
  let app: ReturnType<typeof createApp>;
  const previous = process.env.CASTAWAY_BLOB_DIR;

  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-seed-audio-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
    t = await openTestStore(kind);
    await seedIfEmpty(t.store, { clips: 6, blobDir });
    app = createApp({ store: t.store, bus: createMemoryBus() });
    demo = new AppClient(app);
    await demo.login('demo@example.com');
  }, 60_000);
  afterAll(async () => {
    if (previous === undefined) delete process.env.CASTAWAY_BLOB_DIR;
    else process.env.CASTAWAY_BLOB_DIR = previous;
    await t?.drop();
    await rm(blobDir, { recursive: true, force: true });
  });

  it('the seeded recordings are Finalized with DurationSeconds 12 and their audio and waveforms are served', async () => {
    expect(DEMO_RECORDING_AUDIO.length).toBeGreaterThanOrEqual(2);
    for (const { recordingId, file } of DEMO_RECORDING_AUDIO) {
      const rec = RecordingSchema.parse((await demo.get(`/api/v1/recordings/${recordingId}`)).body);
      expect(rec.State).toBe('Finalized');
      expect(rec.DurationSeconds).toBe(12);
      expect(rec.Urls.AudioUrl).toBe(`/api/media/recordings/${recordingId}/audio`);
      const normalised = normalizeRecording(rec);
      expect(normalised.ok && normalised.value.Phase).toBe('finalized');
      const audio = await app.request(rec.Urls.AudioUrl!, { headers: { cookie: demo.cookie, range: 'bytes=0-3' } });
      expect(audio.status).toBe(206);
      expect(audio.headers.get('content-type')).toBe(file.endsWith('.flac') ? 'audio/flac' : 'audio/mpeg');
      const low = await app.request(rec.Urls.WaveformLowResUrl!, { headers: { cookie: demo.cookie } });
      const w = waveformFromDat(new Uint8Array(await low.arrayBuffer()));
      expect([w.samplesPerPixel, w.length]).toEqual([4096, Math.ceil(529200 / 4096)]);
    }
  });
});
