// Makes the reference values the audio tests compare against, from ffprobe and ffmpeg.
// Run once by hand when the fixtures change (tests never need ffmpeg):
//   apt-get install -y ffmpeg
//   node --import tsx tests/audio/fixtures-ref/make-refs.ts
// For each fixture it runs exactly:
//   ffprobe -v error -select_streams a:0 -show_entries stream=codec_name,sample_rate,channels,duration
//           -show_entries format=duration -of json FILE
//   ffmpeg -v error -i FILE -map 0:a:0 -f f32le -acodec pcm_f32le -      (native channel count)
// and from ffmpeg's decode computes: the decoded frame count, and min/max peaks of the mono mix
// (mean of the channels, like audiowaveform's default) at 1024 samples per pixel as 16-bit ints
// (round(x * 32767), clamped), written to tests/audio/fixtures-ref/<file>.json.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED_FIXTURES_DIR } from '../../../sync-server/audio/shared-fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = SHARED_FIXTURES_DIR;
const files = [
  'speech-12s.mp3', 'speech-12s.m4a', 'speech-12s-audio-only.mp4', 'speech-12s.aac', 'speech-12s.flac',
  'speech-12s.aif', 'speech-12s.aiff', 'speech-12s-stereo.wav', 'video-12s.mp4', 'truncated.mp3',
];
const SPP = 1024;

for (const name of files) {
  const file = join(fixtures, name);
  const probe = spawnSync('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries',
    'stream=codec_name,sample_rate,channels,duration', '-show_entries', 'format=duration', '-of', 'json', file],
  { encoding: 'utf8' });
  const p = JSON.parse(probe.stdout) as { streams: { codec_name: string; sample_rate: string; channels: number; duration?: string }[]; format: { duration?: string } };
  const stream = p.streams[0]!;
  const channels = stream.channels;
  const dec = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a:0', '-f', 'f32le', '-acodec', 'pcm_f32le', '-'],
    { maxBuffer: 1 << 30 });
  const buf = dec.stdout;
  const f32 = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const frames = f32.length / channels;
  const peaks: number[] = [];
  for (let start = 0; start < frames; start += SPP) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = start; i < Math.min(frames, start + SPP); i++) {
      let s = 0;
      for (let c = 0; c < channels; c++) s += f32[i * channels + c]!;
      s /= channels;
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    const q = (x: number) => Math.max(-32768, Math.min(32767, Math.round(x * 32767)));
    peaks.push(q(lo), q(hi));
  }
  const ref = {
    file: name,
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    channels,
    ffprobeDurationSeconds: Number(stream.duration ?? p.format.duration),
    ffmpegDecodedFrames: frames,
    samplesPerPixel: SPP,
    peaks,
  };
  writeFileSync(join(here, `${name}.json`), JSON.stringify(ref) + '\n');
  console.log(name, ref.codec, ref.sampleRate, channels, ref.ffprobeDurationSeconds, frames);
}
