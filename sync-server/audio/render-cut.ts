// Renders a cut edit of a stored upload to a WAV file on disk (bounded memory: streamed decode,
// streamed write, header patched at the end): the preview streams that file and removes it once
// read; the cut render job (cut-render.ts) stores it beside the clip's media. A failure while
// rendering (a MediaError for audio that is not audio, or any other) removes the file before it is
// thrown, so a refused render leaves nothing in the temporary folder.
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { renderCut } from '../../src/media/cut.ts';
import { openAudioDecoding } from '../../src/media/decode.ts';
import { registerNodeAudioDecoders } from '../media/node-decoder.ts';
import { blobSource } from '../../src/media/source.ts';
import { pcm16, wavHeader } from '../../src/media/wav.ts';
import type { PcmBlock } from '../../src/media/decode.ts';
import type { CutEdit } from '../../src/protocol/media.ts';

registerNodeAudioDecoders();

/** What a render wrote: its length in frames (per channel) and its format. */
export type RenderedWav = { frames: number; sampleRate: number; channels: number };

/**
 * Renders the cut of `source` (all of it when `edit` is null: a lossless upload to publish) to a
 * 16-bit WAV file at `path` (created or replaced), through `shape` when given (the loudness
 * normalization's gain and limiter). On any failure the file is removed before the error is thrown.
 */
export async function renderCutToFile(source: Blob, edit: CutEdit | null, path: string, shape?: (blocks: AsyncIterable<PcmBlock>) => AsyncIterable<PcmBlock>): Promise<RenderedWav> {
  const decoding = await openAudioDecoding(blobSource(source));
  const regions = edit?.KeptRegions.map((r) => ({ start: r.StartSeconds, end: r.EndSeconds }));
  const fh = await open(path, 'w+');
  let frames = 0;
  let sampleRate = 44100;
  let channels = 1;
  let offset = 44;
  let rendered = false;
  try {
    await fh.write(wavHeader(sampleRate, channels, 0), 0, 44, 0);
    const cut = regions ? renderCut(decoding.blocks, regions, edit!.CrossfadeMs) : decoding.blocks;
    for await (const block of shape ? shape(cut) : cut) {
      sampleRate = block.sampleRate;
      channels = block.channels.length;
      frames += block.channels[0]!.length;
      const bytes = pcm16(block);
      await fh.write(bytes, 0, bytes.length, offset);
      offset += bytes.length;
    }
    await fh.write(wavHeader(sampleRate, channels, frames), 0, 44, 0);
    rendered = true;
  } finally {
    await fh.close();
    if (!rendered) await rm(path, { force: true });
  }
  return { frames, sampleRate, channels };
}

/** A temporary file for one render, in the system's temporary folder. */
export const renderTempPath = () => join(tmpdir(), `castaway-cut-${randomUUID()}.wav`);

/** The cut rendered to a temporary file, streamed, and the file removed once read (the preview). */
export async function renderCutWav(source: Blob, edit: CutEdit): Promise<ReadableStream<Uint8Array>> {
  const path = renderTempPath();
  await renderCutToFile(source, edit, path);
  const stream = createReadStream(path);
  stream.on('close', () => void rm(path, { force: true }));
  return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
}
