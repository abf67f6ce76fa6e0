// One streaming pass over a file: decode → peaks at every level, duration, warnings.
// Used by the decode worker and by the server's processing pipeline alike.
import { openAudioDecoding, type DecodeOptions } from './decode.ts';
import type { MediaWarning } from './errors.ts';
import { PEAK_LEVELS, PeaksBuilder, type Waveform } from './peaks.ts';
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
