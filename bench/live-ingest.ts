// The live part of `npm run bench:audio` (issue 34, recordings as they happen): how long after a
// chunk of an encoder's MP3 stream reaches the server its peaks are in a watching client's hands.
// The whole app on PGlite (createApp), a recording agent pushing the 12 s fixture through PUT
// …/recordings/live in 2 KiB chunks paced at the stream's own bitrate (as `ffmpeg -re` sends), a
// client reading GET /v1/recordings/{id}/live/peaks. Per 'peaks' event: its arrival at the client
// minus the moment the chunk that completed it was handed to the server.
//
// Reference, measured in the same run: the audio one chunk carries (its bytes at the file's
// bitrate). Below it, the drawn waveform keeps up with the live edge whatever the encoder sends;
// the ratio says by how much.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../sync-server/app.ts';
import { fsBlobStore } from '../sync-server/audio/blob-store.ts';
import { SHARED_FIXTURES_DIR } from '../sync-server/audio/shared-fixtures.ts';
import { createMemoryBus } from '../sync-server/bus.ts';
import { ORG_DEMO, seed, seedId } from '../sync-server/seed.ts';
import { openTestStore } from '../tests/server/test-store.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { sized, unavailable } from './tiny.ts';

type Line = (metric: string, value: number, unit: string) => void;

const CHUNK = 2048;
const FILE = join(SHARED_FIXTURES_DIR, 'speech-12s.mp3');
const SECONDS = 12;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export async function liveIngestBench(line: Line): Promise<void> {
  try {
    const test = await openTestStore('pglite');
    const blobDir = await mkdtemp(join(tmpdir(), 'castaway-live-bench-'));
    try {
      await seed(test.store, { clips: 12 });
      const app = createApp({ store: test.store, bus: createMemoryBus(), blobs: fsBlobStore(blobDir) });
      const login = await app.request('/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: 'demo@example.com', Password: 'castaway-demo' }) });
      const cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))!.split(';')[0]!;
      const xsrf = ((await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken;
      const session = { cookie, 'x-organization-id': ORG_DEMO };
      const made = await app.request('/api/v1/recording-agents', { method: 'POST', headers: { ...session, 'x-xsrf-token': xsrf, 'content-type': 'application/json' }, body: JSON.stringify({ Name: 'Bench encoder', ProgramIds: [seedId('program:morning')] }) });
      const agent = (await made.json()) as { Token: string };

      const whole = readFileSync(FILE);
      // A tiny run (bench/tiny.ts) streams the first 3 s: enough chunks to time, a quarter of the wait.
      const bytes = whole.subarray(0, sized(whole.length, Math.floor(whole.length / 4)));
      const chunkSeconds = (CHUNK / whole.length) * SECONDS;
      const handedAt: number[] = [];
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= bytes.length) return controller.close();
          await new Promise((r) => setTimeout(r, chunkSeconds * 1000));
          handedAt.push(performance.now());
          controller.enqueue(new Uint8Array(bytes.subarray(sent, sent + CHUNK)));
          sent += CHUNK;
        },
      });
      const ingest = app.request(`/api/v1/programs/${seedId('program:morning')}/recordings/live?title=Bench`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${agent.Token}`, 'content-type': 'audio/mpeg' },
        body,
        duplex: 'half',
      } as RequestInit);
      let id: string | undefined;
      while (!id) {
        id = (await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE title = 'Bench'`))[0]?.id;
        if (!id) await new Promise((r) => setTimeout(r, 5));
      }
      const latencies: number[] = [];
      const res = await app.request(`/api/v1/recordings/${id}/live/peaks`, { headers: session });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let first = true;
      for (let ended = false; !ended;) {
        const { done, value } = await reader.read();
        if (done) break;
        const at = performance.now();
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith('event: end')) ended = true;
          // The first event holds what was there before the client came: not a chunk's latency.
          else if (block.startsWith('event: peaks') && !first) latencies.push(at - handedAt[handedAt.length - 1]!);
          if (block.startsWith('event: peaks')) first = false;
        }
      }
      await ingest;
      const p50 = percentile(latencies, 50);
      const p95 = percentile(latencies, 95);
      line('live_waveform_append_latency_p50', p50, 'ms');
      line('live_waveform_append_latency_p95', p95, 'ms');
      line('live_waveform_chunk_audio_ms', chunkSeconds * 1000, 'ms');
      line('live_waveform_append_p95_ratio_to_chunk_audio', (chunkSeconds * 1000) / Math.max(0.01, p95), 'x');
      await app.jobs.stop();
    } finally {
      await test.drop();
      await rm(blobDir, { recursive: true, force: true });
    }
  } catch (e) {
    unavailable('live_waveform_append_latency', e);
  }
}
