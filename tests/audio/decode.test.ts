import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeAudio } from '../../src/media/analyze.ts';
import { readContainerInfo } from '../../src/media/container.ts';
import { openAudioDecoding, type DecodeProgress } from '../../src/media/decode.ts';
import { MediaError, MediaErrorCode, MediaWarningCode } from '../../src/media/errors.ts';
import { adtsFrame, aacConfigOf, preloadNodeAacDecoder, RECYCLE_AFTER_RUNS } from '../../sync-server/media/node-decoder.ts';
import type { ByteSource } from '../../src/media/source.ts';
import { readPcmHeader } from '../../src/media/pcm.ts';
import { fixtureSource, reference } from './fixtures.ts';

// Peaks tolerance: at most 3 steps of 16 bits (0.01 % of full scale) per min or max value against
// ffmpeg's decode of the same file, for every pixel. (Measured: PCM and FLAC match exactly, MP3
// differs by at most 1 step: float rounding between mpg123 and ffmpeg's mp3float.)
const PEAK_TOLERANCE = 3;

const decodable = [
  { file: 'speech-12s.mp3', format: 'mp3', frame: 1152 },
  { file: 'speech-12s.flac', format: 'flac', frame: 4096 },
  { file: 'speech-12s.aif', format: 'aiff', frame: 1 },
  { file: 'speech-12s.aiff', format: 'aiff', frame: 1 },
  { file: 'speech-12s-stereo.wav', format: 'wav', frame: 1 },
] as const;

async function expectMediaError(p: Promise<unknown>, code: string): Promise<MediaError> {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(MediaError);
  expect((e as MediaError).code).toBe(code);
  return e as MediaError;
}

describe('decoding every accepted format that has a decoder in Node', () => {
  for (const { file, format, frame } of decodable) {
    it(`${file}: duration within one frame of ffmpeg's decode and peaks match ffmpeg's within ${PEAK_TOLERANCE}/32767`, async () => {
      const ref = reference(file);
      const a = await analyzeAudio(await fixtureSource(file));
      expect(a.format).toBe(format);
      expect(a.sampleRate).toBe(ref.sampleRate);
      expect(a.channels).toBe(ref.channels);
      expect(Math.abs(a.frames - ref.ffmpegDecodedFrames)).toBeLessThanOrEqual(frame);
      // ffprobe's header duration also counts MP3's LAME Info frame and the encoder delay and
      // padding that gapless decoding (ours and ffmpeg's decoder) trims: 1872 samples here.
      const headerSlack = format === 'mp3' ? 1872 / ref.sampleRate : 0;
      expect(Math.abs(a.durationSeconds - ref.ffprobeDurationSeconds)).toBeLessThanOrEqual(frame / ref.sampleRate + headerSlack);
      expect(a.warnings).toEqual([]);

      const w = a.waveforms.find((x) => x.samplesPerPixel === ref.samplesPerPixel)!;
      expect(w.length).toBe(ref.peaks.length / 2);
      let worst = 0;
      for (let i = 0; i < ref.peaks.length; i++) worst = Math.max(worst, Math.abs(w.data[i]! - ref.peaks[i]!));
      expect(worst).toBeLessThanOrEqual(PEAK_TOLERANCE);
    });
  }

  it('makes peaks at 256, 1024, 4096, 16384 and 65536 samples per pixel in one pass', async () => {
    const a = await analyzeAudio(await fixtureSource('speech-12s.flac'));
    expect(a.waveforms.map((w) => w.samplesPerPixel)).toEqual([256, 1024, 4096, 16384, 65536]);
    expect(a.waveforms.map((w) => w.length)).toEqual([256, 1024, 4096, 16384, 65536].map((spp) => Math.ceil(529200 / spp)));
    // A coarse pixel is exactly the min and max of the finer pixels it covers.
    const [fine, , coarse] = a.waveforms;
    const lo = Math.min(...Array.from(fine!.data.slice(0, 32)).filter((_, i) => i % 2 === 0));
    const hi = Math.max(...Array.from(fine!.data.slice(0, 32)).filter((_, i) => i % 2 === 1));
    expect([coarse!.data[0], coarse!.data[1]]).toEqual([lo, hi]);
  });
});

// AAC in Node: the worker's path (mediabunny demux → AudioSampleSink → trim → peaks) with FFmpeg's
// AAC decoder in WebAssembly where the browser has WebCodecs (sync-server/media/node-decoder.ts). Within a
// decoder batch (512 packets) the samples are FFmpeg's own; after a batch join only the noise-
// substituted bands differ. Tolerance, measured on these fixtures: at least 99 % of min/max values
// within PEAK_TOLERANCE steps of ffmpeg's, and every one within 0.25 % of full scale (82 steps).
const AAC_WORST_STEPS = 82;

describe('AAC (m4a, mp4, raw ADTS) in Node', () => {
  beforeAll(async () => { await preloadNodeAacDecoder(); }, 120_000);

  for (const file of ['speech-12s.m4a', 'speech-12s-audio-only.mp4', 'speech-12s.aac', 'video-12s.mp4']) {
    it(`${file}: duration within one AAC frame of ffprobe/ffmpeg, peaks match ffmpeg's decode`, async () => {
      const ref = reference(file);
      const info = await readContainerInfo(await fixtureSource(file));
      expect(info.audioCodec).toBe('aac');
      // Raw ADTS has no duration header: ffprobe estimates one from the bitrate (13.5 s), so the
      // truth there is ffmpeg's decoded length.
      const truth = file.endsWith('.aac') ? ref.ffmpegDecodedFrames / ref.sampleRate : ref.ffprobeDurationSeconds;
      expect(Math.abs(info.durationSeconds! - truth)).toBeLessThanOrEqual(1024 / ref.sampleRate);

      const a = await analyzeAudio(await fixtureSource(file));
      expect(a.format).toBe(file.endsWith('.aac') ? 'aac' : 'mp4');
      expect([a.sampleRate, a.channels]).toEqual([ref.sampleRate, ref.channels]);
      expect(Math.abs(a.durationSeconds - truth)).toBeLessThanOrEqual(1024 / ref.sampleRate);
      expect(a.warnings).toEqual([]);
      const w = a.waveforms.find((x) => x.samplesPerPixel === ref.samplesPerPixel)!;
      expect(w.length).toBe(ref.peaks.length / 2);
      let worst = 0;
      let close = 0;
      for (let i = 0; i < ref.peaks.length; i++) {
        const d = Math.abs(w.data[i]! - ref.peaks[i]!);
        worst = Math.max(worst, d);
        if (d <= PEAK_TOLERANCE) close++;
      }
      expect(close / ref.peaks.length).toBeGreaterThanOrEqual(0.99);
      expect(worst).toBeLessThanOrEqual(AAC_WORST_STEPS);
    });
  }

  it(`many AAC files in one process: FFmpeg's per-command leak is recycled away (it failed after ~160 commands before)`, async () => {
    // speech-12s.aac is two decoder commands (512 packets + the rest): 90 files = 180 commands.
    const ref = reference('speech-12s.aac');
    const frames = new Set<number>();
    for (let i = 0; i < 90; i++) frames.add((await analyzeAudio(await fixtureSource('speech-12s.aac'), { levels: [65536] })).frames);
    expect([...frames]).toEqual([ref.ffmpegDecodedFrames]);
    expect(RECYCLE_AFTER_RUNS).toBeLessThan(160);
  }, 300_000);

  it('ADTS framing of a raw MP4 frame: the header names AAC-LC, 44.1 kHz, mono and the frame length', () => {
    const cfg = aacConfigOf('mp4a.40.2', 44100, 1, new Uint8Array([0x12, 0x08]));
    expect(cfg).toEqual({ objectType: 2, rateIndex: 4, channelConfig: 1 });
    const frame = adtsFrame(cfg!, new Uint8Array(10));
    expect(Array.from(frame.subarray(0, 7))).toEqual([0xff, 0xf1, 0x50, 0x40, 0x02, 0x3f, 0xfc]);
    // HE-AAC with explicit SBR signalling is framed as its AAC-LC core; no AudioSpecificConfig → the codec string.
    expect(aacConfigOf('mp4a.40.5', 44100, 2, new Uint8Array([0x2b, 0x92, 0x08, 0x00]))).toEqual({ objectType: 2, rateIndex: 7, channelConfig: 2 });
    expect(aacConfigOf('mp4a.40.2', 48000, 2)).toEqual({ objectType: 2, rateIndex: 3, channelConfig: 2 });
    expect(aacConfigOf('mp4a.40.2', 12345, 2)).toBeNull();
  });

  it('video-12s.mp4 is AudioAndVideo, 320x180', async () => {
    const info = await readContainerInfo(await fixtureSource('video-12s.mp4'));
    expect(info.mediaType).toBe('AudioAndVideo');
    expect(info.video).toEqual({ width: 320, height: 180 });
    const audioOnly = await readContainerInfo(await fixtureSource('speech-12s-audio-only.mp4'));
    expect(audioOnly.mediaType).toBe('Audio');
    expect(audioOnly.video).toBeNull();
  });
});

describe('broken files give clear typed errors, never a crash', () => {
  it('empty.mp3 (zero bytes) → emptyFile', async () => {
    const e = await expectMediaError(analyzeAudio(await fixtureSource('empty.mp3')), MediaErrorCode.EmptyFile);
    expect(e.message).toBe('The file is empty');
  });

  it('not-audio.mp3 (text with an .mp3 name) → notAudio', async () => {
    const e = await expectMediaError(analyzeAudio(await fixtureSource('not-audio.mp3')), MediaErrorCode.NotAudio);
    expect(e.message).toBe('The file is not audio in a format we accept');
    await expectMediaError(readContainerInfo(await fixtureSource('not-audio.mp3')), MediaErrorCode.NotAudio);
  });

  it('truncated.mp3 (first 5,000 bytes) decodes what is there and warns truncatedFile', async () => {
    const ref = reference('truncated.mp3');
    const a = await analyzeAudio(await fixtureSource('truncated.mp3'));
    expect(a.warnings).toEqual([{ code: MediaWarningCode.TruncatedFile, details: { framesAnnounced: 461, framesFound: 23 } }]);
    expect(Math.abs(a.frames - ref.ffmpegDecodedFrames)).toBeLessThanOrEqual(1152);
    expect(a.durationSeconds).toBeLessThan(1);
  });

  it('a WAV cut inside its header → truncated; cut inside its data → decodes and warns', async () => {
    const src = await fixtureSource('speech-12s-stereo.wav');
    const cut = (n: number): ByteSource => ({ size: n, read: (o, l) => src.read(o, Math.max(0, Math.min(l, n - o))) });
    await expectMediaError(analyzeAudio(cut(40)), MediaErrorCode.Truncated);
    const { dataOffset } = await readPcmHeader(src, 'wav');
    const a = await analyzeAudio(cut(dataOffset + 4 * 44100 + 3));
    expect(a.frames).toBe(44100);
    expect(a.warnings.map((w) => w.code)).toEqual([MediaWarningCode.TruncatedFile]);
  });
});

describe('streaming: bounded reads, progress, cancel', () => {
  it('reads in chunks of at most 64 KiB and reports progress up to 1', async () => {
    const src = await fixtureSource('speech-12s.mp3');
    let largest = 0;
    const counting: ByteSource = { size: src.size, read: (o, l) => { largest = Math.max(largest, l); return src.read(o, l); } };
    const seen: DecodeProgress[] = [];
    await analyzeAudio(counting, { onProgress: (p) => seen.push(p) });
    expect(largest).toBeLessThanOrEqual(64 * 1024);
    expect(seen.at(-1)).toEqual({ bytesRead: src.size, totalBytes: src.size, fraction: 1 });
  });

  it('progress comes at least 4 times a second of decoding, and abort stops with "aborted"', async () => {
    // A fake clock advances 30 ms per 64 KiB read (a slow link): progress must be reported at
    // most 250 ms apart on that clock, i.e. at least 4 times a second.
    const file = await fixtureSource('episode-60min-mono-64k.mp3');
    let clock = 0;
    const src: ByteSource = { size: file.size, read: (o, l) => { clock += 30; return file.read(o, l); } };
    const controller = new AbortController();
    const times: number[] = [0];
    const decoding = await openAudioDecoding(src, {
      signal: controller.signal,
      now: () => clock,
      onProgress: () => {
        times.push(clock);
        if (times.length > 20) controller.abort();
      },
    });
    let blocks = 0;
    const run = (async () => { for await (const _ of decoding.blocks) blocks++; })();
    await expectMediaError(run, MediaErrorCode.Aborted);
    expect(blocks).toBeGreaterThan(0);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(250);
    expect(clock).toBeLessThan(20 * 250 + 500);
  });
});
