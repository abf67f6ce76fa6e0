// The loudness part of `npm run bench:audio` (issue 34): our EBU R128 meter (src/media/loudness.ts)
// on the 60-minute fixture against system ffmpeg's ebur128 filter on the same file in the same run,
// each on one thread. Two figures of ours: decode INCLUDED (the file to the three figures, as the
// server's processing job measures it: mpg123 in WebAssembly plus the meter) and decode EXCLUDED
// (the time inside the meter alone, clocked around each block in the same pass). ffmpeg's: its
// `-af ebur128=peak=true` run (decode included) and that minus its decode-only run of the same file
// (decode excluded). Also how far apart the two meters' figures are on that file.
import { execFile } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openAudioDecoding } from '../src/media/decode.ts';
import { LoudnessMeter } from '../src/media/loudness.ts';
import { blobSource } from '../src/media/source.ts';
import { SHARED_FIXTURES_DIR } from '../sync-server/audio/shared-fixtures.ts';
import { parseEbur128Summary } from '../tests/audio/ebur128.ts';
import { sized, unavailable } from './tiny.ts';

type Line = (metric: string, value: number, unit: string) => void;

const FILE = join(SHARED_FIXTURES_DIR, sized('episode-60min-mono-64k.mp3', 'speech-12s.mp3'));
const run = promisify(execFile);

async function ours() {
  const t0 = performance.now();
  const decoding = await openAudioDecoding(blobSource(await openAsBlob(FILE)), { reuseBuffers: true });
  const meter = new LoudnessMeter();
  let inMeter = 0;
  for await (const block of decoding.blocks) {
    const t = performance.now();
    meter.add(block);
    inMeter += performance.now() - t;
  }
  const t = performance.now();
  const result = meter.result();
  inMeter += performance.now() - t;
  return { result, totalSeconds: (performance.now() - t0) / 1000, meterSeconds: inMeter / 1000 };
}

async function ffmpeg(args: string[]): Promise<{ seconds: number; stderr: string }> {
  const t0 = performance.now();
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-threads', '1', '-i', FILE, ...args, '-f', 'null', '-'], { maxBuffer: 256 * 1024 * 1024 });
  return { seconds: (performance.now() - t0) / 1000, stderr };
}

export async function loudnessBench(line: Line): Promise<void> {
  const mine = await ours();
  line('loudness measure 60 min', mine.totalSeconds, 's');
  line('loudness measure 60 min decode excluded', mine.meterSeconds, 's');
  try {
    const meter = await ffmpeg(['-af', 'ebur128=peak=true']);
    const decode = await ffmpeg([]);
    const reference = parseEbur128Summary(meter.stderr);
    line('ffmpeg ebur128 60 min', meter.seconds, 's');
    line('ffmpeg ebur128 60 min decode excluded', Math.max(0.001, meter.seconds - decode.seconds), 's');
    line('loudness measure 60 min ratio to ffmpeg ebur128', mine.totalSeconds / meter.seconds, 'x');
    line('loudness measure 60 min decode excluded ratio to ffmpeg', mine.meterSeconds / Math.max(0.001, meter.seconds - decode.seconds), 'x');
    line('loudness 60 min integrated difference to ffmpeg', Math.abs(mine.result.integratedLufs! - reference.integratedLufs), 'LU');
    line('loudness 60 min true peak difference to ffmpeg', Math.abs(mine.result.truePeakDbtp! - reference.truePeakDbtp), 'dB');
    line('loudness 60 min range difference to ffmpeg', Math.abs(mine.result.loudnessRangeLu! - reference.loudnessRangeLu), 'LU');
  } catch (e) {
    unavailable('ffmpeg ebur128 60 min', e);
  }
}
