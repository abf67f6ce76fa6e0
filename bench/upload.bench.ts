// `npm run bench:upload`: issue 6's "a 200 MB episode completes over a connection that drops every
// minute", scaled: the real server (startServer, PGlite, blob and upload folders in a temp dir)
// behind a TCP proxy with a 40 MiB/s uplink that cuts every connection every 2 s (a 200 MB file then
// sees about as many drops as over a 4 MB/s link dropping every minute, 20x faster).
// The file is a 19-minute stereo WAV (201.6 MB: the 12 s fixture's PCM 95 times under one header, so
// the server's processing to Ready stays short), sent with tus-js-client in the app's 8 MiB chunks;
// then the same file over the same uplink without drops, for the ratio. Each run waits for the
// clip to be processed before the next starts. Each figure is a line `bench: <metric> = <number> <unit>`;
// ratios above 1 are better. Figures only: nothing here passes or fails on time.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { UPLOAD_CHUNK_BYTES } from '../src/protocol/uploads.ts';
import { startFlakyProxy, type FlakyOptions } from '../tests/uploads/flaky-proxy.ts';
import { startUploadServer, tusUpload } from '../tests/uploads/upload-server.ts';
import { SHARED_FIXTURES_DIR } from '../sync-server/audio/shared-fixtures.ts';
import { clipUrls } from '../sync-server/audio/media-paths.ts';
import { sized, TINY } from './tiny.ts';

const FIXTURE = resolve(SHARED_FIXTURES_DIR, 'speech-12s-stereo.wav');
// A tiny run (bench/tiny.ts): an 8.5 MB file, cut every 100 ms so that it still resumes.
const COPIES = sized(95, 4);
const UPLINK_BYTES_PER_SECOND = 40 * 1024 * 1024;
const CUT_EVERY_MS = sized(2000, 100);
/** Target: resuming costs little, so the dropped link takes at most 1.5x the clean link's time. */
const TARGET_DROPPED_VS_CLEAN = 1.5;

function line(metric: string, value: number, unit: string): void {
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  console.log(`bench: ${metric} = ${rounded} ${unit}`);
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A WAV of the fixture's 'fmt ' chunk and its PCM data repeated `copies` times. */
function longWav(source: Buffer, copies: number): Buffer {
  let fmt: Buffer | null = null;
  let data: Buffer | null = null;
  for (let at = 12; at + 8 <= source.length; ) {
    const id = source.toString('latin1', at, at + 4);
    const size = source.readUInt32LE(at + 4);
    if (id === 'fmt ') fmt = source.subarray(at, at + 8 + size);
    if (id === 'data') data = source.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  if (!fmt || !data) throw new Error(`${FIXTURE}: no fmt or data chunk`);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'latin1');
  dataHeader.writeUInt32LE(data.length * copies, 4);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + fmt.length + 8 + data.length * copies, 4);
  riff.write('WAVE', 8, 'latin1');
  return Buffer.concat([riff, fmt, dataHeader, ...Array.from({ length: copies }, () => data)]);
}

const bytes = longWav(readFileSync(FIXTURE), COPIES);
const mb = bytes.length / 1e6;
console.log(
  `Castaway upload benchmark: ${mb.toFixed(1)} MB through a ${UPLINK_BYTES_PER_SECOND / 1024 / 1024} MiB/s uplink cut every ${CUT_EVERY_MS / 1000} s ` +
    `(issue 6: completes over a link that drops every minute; target dropped/clean time <= ${TARGET_DROPPED_VS_CLEAN}x).`,
);
line('machine_load_average_1m', loadavg()[0] ?? 0, 'runnable');
line('machine_cores', cpus().length, 'cores');
line('file_size', mb, 'MB');

const server = await startUploadServer();
try {
  async function run(label: string, clip: { id: string; organization_id: string }, options: FlakyOptions) {
    const proxy = await startFlakyProxy({ host: '127.0.0.1', port: server.port }, options);
    const started = performance.now();
    try {
      const result = await tusUpload(proxy.url, bytes, { fileName: 'episode-19min.wav', clipId: clip.id, headers: server.clipHeaders(clip), chunkSize: UPLOAD_CHUNK_BYTES });
      const seconds = (performance.now() - started) / 1000;
      line(`${label}.upload_time`, seconds, 's');
      line(`${label}.throughput`, mb / seconds, 'MB/s');
      line(`${label}.connection_drops`, proxy.cuts(), 'drops');
      line(`${label}.resumes`, result.resumes, 'resumes');
      line(`${label}.bytes_resent`, Math.max(0, proxy.upstreamBytes() - bytes.length) / 1e6, 'MB');
      const processingStarted = performance.now();
      const state = await server.settledState(clip, 300_000);
      line(`${label}.processing_time`, (performance.now() - processingStarted) / 1000, 's');
      line(`${label}.clip_ready`, state === 'Ready' ? 1 : 0, 'bool');
      // The original as uploaded (the served audio is the published version, an MP3 made from it).
      const served = new Uint8Array(await (await fetch(`${server.url}${clipUrls.original(clip.id)}`, { headers: server.clipHeaders(clip) })).arrayBuffer());
      const identical = served.length === bytes.length && sha(served) === sha(bytes);
      line(`${label}.bytes_identical`, identical ? 1 : 0, 'bool');
      // A tiny run checks that the bench works: an upload that did not arrive whole is a failure.
      if (TINY && (state !== 'Ready' || !identical)) throw new Error(`${label}: the clip is ${state}, its bytes ${identical ? 'identical' : 'not identical'}`);
      return seconds;
    } finally {
      await proxy.close();
    }
  }
  const dropped = await run('dropped_every_2s', server.clips[0]!, { bytesPerSecond: UPLINK_BYTES_PER_SECOND, cutEveryMs: CUT_EVERY_MS });
  const clean = await run('clean_link', server.clips[1]!, { bytesPerSecond: UPLINK_BYTES_PER_SECOND });
  line('dropped_vs_clean_time', dropped / clean, 'x');
  line('dropped_vs_clean_time_vs_target', TARGET_DROPPED_VS_CLEAN / (dropped / clean), 'x');
} finally {
  await server.close();
}
