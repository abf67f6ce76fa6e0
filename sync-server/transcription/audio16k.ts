// The audio an engine hears: any stored upload decoded by the server's own decoder (src/media's
// streaming decode, AAC through sync-server/media/node-decoder.ts), mixed down to mono and
// resampled to 16 kHz, written as a 16-bit WAV file. 16 kHz mono is what speech engines are
// trained on (pocketsphinx's en-us model reads 16 kHz only, and reads any other rate wrongly
// without a word of warning: the 22.05 kHz espeak-ng reading gave a WER of 1.0 as is).
//
// Resampling is an average over each output sample's span of input (a box filter, then one
// sample per span): the box removes most of what lies above 8 kHz before it can fold back into the
// speech band, with no filter state to carry beyond one partial span, so blocks stream through in
// bounded memory whatever the file's length. On the 60-second espeak-ng reading pocketsphinx's word
// error rate is 0.68 after this resampler and 0.76 after ffmpeg's (bench/audio.bench.ts prints both).
import { open, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAudioDecoding, type PcmBlock } from '../../src/media/decode.ts';
import { blobSource } from '../../src/media/source.ts';
import { pcm16, wavHeader } from '../../src/media/wav.ts';
import { registerNodeAudioDecoders } from '../media/node-decoder.ts';

registerNodeAudioDecoders();

export const ENGINE_SAMPLE_RATE = 16_000;

/** Folds decoded blocks (any rate, any channels) into 16 kHz mono blocks. */
export function monoResampler(outRate = ENGINE_SAMPLE_RATE) {
  let inRate = 0;
  let step = 1; // input samples per output sample
  let acc = 0; // sum of the span so far
  let filled = 0; // input samples (fractional) in the span so far
  return (block: PcmBlock): Float32Array => {
    if (inRate !== block.sampleRate) {
      inRate = block.sampleRate;
      step = inRate / outRate;
    }
    const channels = block.channels;
    const n = channels[0]?.length ?? 0;
    const out = new Float32Array(Math.ceil((n + filled) / step) + 2);
    let o = 0;
    for (let i = 0; i < n; i++) {
      let x = 0;
      for (const ch of channels) x += ch[i]!;
      x /= channels.length;
      // Each input sample is spread over the spans it covers (several when upsampling).
      let remaining = 1;
      while (filled + remaining >= step) {
        const take = step - filled;
        out[o++] = (acc + x * take) / step;
        acc = 0;
        filled = 0;
        remaining -= take;
      }
      acc += x * remaining;
      filled += remaining;
    }
    return out.subarray(0, o);
  };
}

/** A temporary WAV path for one transcription. */
export const engineWavPath = () => join(tmpdir(), `castaway-asr-${randomUUID()}.wav`);

/**
 * Decodes `source` into a 16 kHz mono 16-bit WAV file at `path`; returns its length in seconds.
 * Throws the decoder's MediaError for audio it cannot read, after removing the file.
 */
export async function writeEngineWav(source: Blob, path: string, signal?: AbortSignal): Promise<number> {
  const decoding = await openAudioDecoding(blobSource(source), signal ? { signal } : {});
  const resample = monoResampler();
  const fh = await open(path, 'w');
  let frames = 0;
  let done = false;
  try {
    await fh.write(wavHeader(ENGINE_SAMPLE_RATE, 1, 0), 0, 44, 0);
    let offset = 44;
    for await (const block of decoding.blocks) {
      const mono = resample(block);
      if (mono.length === 0) continue;
      const bytes = pcm16({ sampleRate: ENGINE_SAMPLE_RATE, channels: [mono] });
      await fh.write(bytes, 0, bytes.length, offset);
      offset += bytes.length;
      frames += mono.length;
    }
    await fh.write(wavHeader(ENGINE_SAMPLE_RATE, 1, frames), 0, 44, 0);
    done = true;
  } finally {
    await fh.close();
    if (!done) await rm(path, { force: true });
  }
  return frames / ENGINE_SAMPLE_RATE;
}
