// One streaming pass over a file: decode → peaks at every level, duration, warnings.
// Used by the decode worker and by the server's processing pipeline alike.
import { mp3PartBlocks, openAudioDecoding, type DecodeOptions } from './decode.ts';
import type { MediaWarning } from './errors.ts';
import type { Mp3Part, Mp3SplitPlan } from './mp3-split.ts';
import { joinWaveforms, PEAK_LEVELS, PeaksBuilder, type Waveform } from './peaks.ts';
import type { SniffedFormat } from './sniff.ts';
import type { ByteSource } from './source.ts';

export type AudioAnalysis = {
  format: SniffedFormat;
  sampleRate: number;
  channels: number;
  frames: number;
  durationSeconds: number;
  waveforms: Waveform[];
  warnings: MediaWarning[];
};

export async function analyzeAudio(src: ByteSource, opts: DecodeOptions & { levels?: readonly number[] } = {}): Promise<AudioAnalysis> {
  // Peaks fold each block as it comes: the decoders may hand out views of reused buffers.
  const decoding = await openAudioDecoding(src, { reuseBuffers: true, ...opts });
  const peaks = new PeaksBuilder(opts.levels ?? PEAK_LEVELS);
  let channels = 0;
  for await (const block of decoding.blocks) {
    channels = block.channels.length;
    peaks.add(block);
  }
  const waveforms = peaks.finish();
  return {
    format: decoding.format,
    sampleRate: peaks.sampleRate,
    channels,
    frames: peaks.frames,
    durationSeconds: peaks.sampleRate > 0 ? peaks.frames / peaks.sampleRate : 0,
    waveforms,
    warnings: decoding.warnings,
  };
}

/** One part of a split MP3 (src/media/mp3-split.ts): its peaks, placed in the whole file. */
export type PartAnalysis = { startSample: number; frames: number; sampleRate: number; waveforms: Waveform[] };

export async function analyzeMp3Part(
  src: ByteSource,
  part: Mp3Part,
  channels: number,
  opts: DecodeOptions & { levels?: readonly number[] } = {},
): Promise<PartAnalysis> {
  const peaks = new PeaksBuilder(opts.levels ?? PEAK_LEVELS, part.startSample);
  for await (const block of mp3PartBlocks(src, part, channels, { reuseBuffers: true, ...opts })) peaks.add(block);
  return { startSample: part.startSample, frames: peaks.frames, sampleRate: peaks.sampleRate, waveforms: peaks.finish() };
}

/** The parts' analyses as one file's, exactly what analyzeAudio gives for the whole file. */
export function joinMp3Parts(plan: Mp3SplitPlan, parts: PartAnalysis[]): AudioAnalysis {
  const frames = parts.reduce((n, p) => n + p.frames, 0);
  if (frames !== plan.totalSamples) throw new Error(`the parts decoded ${frames} samples, the plan said ${plan.totalSamples}`);
  return {
    format: 'mp3',
    sampleRate: plan.sampleRate,
    channels: plan.channels,
    frames,
    durationSeconds: frames / plan.sampleRate,
    waveforms: joinWaveforms(parts),
    warnings: [],
  };
}
