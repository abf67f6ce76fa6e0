// Our EBU R128 meter (src/media/loudness.ts) against system ffmpeg's ebur128 filter on the shared
// fixtures (their decoders: src/media, as the server and the worker decode them), on a file resampled
// to 22.05 kHz (the filters are derived for the file's rate), and against BS.1770-4's own numbers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAudioDecoding, type PcmBlock } from '../../src/media/decode.ts';
import { kWeightingFilters, LoudnessMeter, measureLoudness, type LoudnessMeasurement } from '../../src/media/loudness.ts';
import { blobSource } from '../../src/media/source.ts';
import { registerNodeAudioDecoders } from '../../sync-server/media/node-decoder.ts';
import { ffmpegEbur128 } from './ebur128.ts';
import { fixturePath } from './fixtures.ts';

registerNodeAudioDecoders();

const temp = mkdtempSync(join(tmpdir(), 'castaway-loudness-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function ours(file: string): Promise<LoudnessMeasurement> {
  const decoding = await openAudioDecoding(blobSource(await openAsBlob(file)), { reuseBuffers: true });
  return measureLoudness(decoding.blocks);
}

async function expectAgreement(file: string): Promise<void> {
  const [mine, reference] = await Promise.all([ours(file), ffmpegEbur128(file)]);
  // ffmpeg prints one decimal: 0.2 LU is its rounding plus 0.15 of method (it meters at 48 kHz).
  expect(Math.abs(mine.integratedLufs! - reference.integratedLufs)).toBeLessThanOrEqual(0.2);
  expect(Math.abs(mine.loudnessRangeLu! - reference.loudnessRangeLu)).toBeLessThanOrEqual(0.2);
  expect(Math.abs(mine.truePeakDbtp! - reference.truePeakDbtp)).toBeLessThanOrEqual(0.5);
}

describe('loudness meter (EBU R128)', () => {
  for (const name of ['speech-12s.mp3', 'speech-12s-stereo.wav', 'speech-12s.flac', 'speech-12s.aiff']) {
    it(`agrees with ffmpeg's ebur128 on ${name} (0.2 LU integrated and LRA, 0.5 dB true peak)`, async () => {
      await expectAgreement(fixturePath(name));
    });
  }

  it('derives its filters for the file\'s rate: a 22.05 kHz copy agrees with ffmpeg too', async () => {
    const file = join(temp, 'speech-22050.wav');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', fixturePath('speech-12s-stereo.wav'), '-ar', '22050', file]);
    await expectAgreement(file);
    const [at48] = kWeightingFilters(48000);
    // BS.1770-4 table 1, the shelf's published 48 kHz coefficients.
    expect(at48.b0).toBeCloseTo(1.53512485958697, 10);
    expect(at48.a1).toBeCloseTo(-1.69065929318241, 10);
  });

  it('a 0 dBFS 1 kHz sine in one channel of stereo reads −3.01 LUFS, and 997 Hz at −20 dBFS peaks near −20 dBTP', () => {
    const rate = 48000;
    const meter = new LoudnessMeter();
    const left = new Float32Array(rate * 5);
    for (let i = 0; i < left.length; i++) left[i] = Math.sin((2 * Math.PI * 1000 * i) / rate);
    meter.add({ sampleRate: rate, channels: [left, new Float32Array(left.length)] });
    expect(meter.result().integratedLufs).toBeCloseTo(-3.01, 1);

    const quiet = new LoudnessMeter();
    const tone = new Float32Array(rate * 5).map((_, i) => 0.1 * Math.sin((2 * Math.PI * 997 * i) / rate));
    quiet.add({ sampleRate: rate, channels: [tone] });
    expect(quiet.result().truePeakDbtp!).toBeCloseTo(-20, 1);
  });

  it('an inter-sample peak above the samples shows in the true peak, not the sample peak', () => {
    // fs/4 at 45° phase: every sample is ±0.5·√2·a, the wave itself reaches a.
    const blocks: PcmBlock = { sampleRate: 48000, channels: [new Float32Array(48000).map((_, i) => 0.5 * Math.sin((Math.PI / 2) * i + Math.PI / 4))] };
    const meter = new LoudnessMeter();
    meter.add(blocks);
    const samplePeakDb = 20 * Math.log10(0.5 * Math.SQRT1_2);
    expect(meter.result().truePeakDbtp! - samplePeakDb).toBeGreaterThan(2.5);
  });

  it('silence and audio shorter than a block have no loudness to gate', () => {
    const meter = new LoudnessMeter();
    meter.add({ sampleRate: 44100, channels: [new Float32Array(44100 * 4)] });
    expect(meter.result()).toEqual({ integratedLufs: null, truePeakDbtp: null, loudnessRangeLu: null, durationSeconds: 4 });
    const short = new LoudnessMeter();
    short.add({ sampleRate: 44100, channels: [new Float32Array(4410).fill(0.5)] });
    expect(short.result().integratedLufs).toBeNull();
  });
});
