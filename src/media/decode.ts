// Streaming audio decoding, the same code in a Web Worker and in Node.
//
//   ByteSource ──64 KiB chunks──> decoder (mpg123 WASM | FLAC WASM | PCM parser | mediabunny+WebCodecs)
//        │                              │
//        └─ progress (bytes read)       └──> PcmBlock (planar Float32, one decoder output at a time)
//
// Only one chunk and one decoded block are alive at a time: memory does not grow with the file.
import { MPEGDecoder } from 'mpg123-decoder';
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { MediaError, MediaErrorCode, MediaWarningCode, throwIfAborted, type MediaWarning } from './errors.ts';
import { id3v2Length, parseMpegHeader, sniffFormat, type SniffedFormat } from './sniff.ts';
import { pcmToFloat, readPcmHeader } from './pcm.ts';
import { readSequential, type ByteSource } from './source.ts';
import type { Mp3Part } from './mp3-split.ts';

export const DEFAULT_CHUNK_BYTES = 64 * 1024;
/** Progress is reported at most this often (and so at least 4 times a second while decoding). */
export const PROGRESS_INTERVAL_MS = 100;

export type PcmBlock = { sampleRate: number; channels: Float32Array[] };
export type DecodeProgress = { bytesRead: number; totalBytes: number; fraction: number };
export type DecodeOptions = {
  signal?: AbortSignal;
  onProgress?: (p: DecodeProgress) => void;
  chunkBytes?: number;
  /** Milliseconds clock for progress pacing (tests pass a fake one). */
  now?: () => number;
  /**
   * Blocks may be views into buffers the decoder reuses: each is valid only until the next block
   * is asked for. A consumer that folds blocks as they come (peaks) then leaves no garbage behind,
   * so memory stays flat whatever the file's length; one that keeps blocks must copy them.
   */
  reuseBuffers?: boolean;
};

export type AudioDecoding = {
  format: SniffedFormat;
  /** Filled while decoding (e.g. a truncated file is only known at its end). */
  warnings: MediaWarning[];
  blocks: AsyncIterable<PcmBlock>;
};

type Ctx = {
  /** Lets the event loop run (a worker must see its cancel message mid-decode). */
  breathe: () => Promise<void> | void;
  src: ByteSource;
  chunk: number;
  signal: AbortSignal | undefined;
  progress: (bytesRead: number, final?: boolean) => void;
  warnings: MediaWarning[];
  reuse: boolean;
};

/** Every YIELD_INTERVAL_MS of decoding, wait one macrotask so messages (cancel) get through. */
const YIELD_INTERVAL_MS = 50;
function breather(): () => Promise<void> | void {
  let last = Date.now();
  return () => {
    const now = Date.now();
    if (now - last < YIELD_INTERVAL_MS) return;
    last = now;
    return new Promise<void>((resolve) => setTimeout(resolve, 0));
  };
}

function progressReporter(total: number, onProgress: DecodeOptions['onProgress'], clock: () => number = Date.now) {
  let last = -Infinity;
  return (bytesRead: number, final = false) => {
    if (!onProgress) return;
    const now = clock();
    if (!final && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    onProgress({ bytesRead, totalBytes: total, fraction: total > 0 ? Math.min(1, bytesRead / total) : 1 });
  };
}

/** Opens a streaming decoder for `src`; throws MediaError for empty or unrecognised files. */
export async function openAudioDecoding(src: ByteSource, opts: DecodeOptions = {}): Promise<AudioDecoding> {
  throwIfAborted(opts.signal);
  if (src.size === 0) throw new MediaError(MediaErrorCode.EmptyFile, 'The file is empty');
  const head = await src.read(0, 64 * 1024);
  const format = sniffFormat(head);
  if (!format) throw new MediaError(MediaErrorCode.NotAudio, 'The file is not audio in a format we accept');
  const warnings: MediaWarning[] = [];
  const ctx: Ctx = {
    breathe: breather(),
    src,
    chunk: opts.chunkBytes ?? DEFAULT_CHUNK_BYTES,
    signal: opts.signal,
    progress: progressReporter(src.size, opts.onProgress, opts.now),
    warnings,
    reuse: opts.reuseBuffers ?? false,
  };
  const gen =
    format === 'mp3' ? mp3Blocks(ctx, head)
    : format === 'flac' ? flacBlocks(ctx, head)
    : format === 'wav' || format === 'aiff' ? pcmBlocks(ctx, format)
    : mediabunnyBlocks(ctx);
  return { format, warnings, blocks: gen };
}

// ---- MP3 -------------------------------------------------------------------------------------

/** Total audio frames announced by a Xing/Info header in the first frame, or null. */
function xingFrames(b: Uint8Array, at: number): number | null {
  const h = parseMpegHeader(b, at);
  if (!h) return null;
  for (const off of [4 + 32, 4 + 17, 4 + 9]) {
    const p = at + off;
    if (p + 12 > b.length) continue;
    const tag = String.fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!);
    if (tag === 'Xing' || tag === 'Info') {
      const flags = (b[p + 4]! << 24) | (b[p + 5]! << 16) | (b[p + 6]! << 8) | b[p + 7]!;
      if (flags & 1) return ((b[p + 8]! << 24) | (b[p + 9]! << 16) | (b[p + 10]! << 8) | b[p + 11]!) >>> 0;
    }
  }
  return null;
}

/** Follows MPEG frame headers across chunks to learn whether the last frame is complete. */
class MpegFrameWalker {
  next: number;
  frames = 0;
  // The last bytes of the previous chunk (a header may straddle two chunks) then the new chunk,
  // in one buffer reused from chunk to chunk.
  private win = new Uint8Array(0);
  private tailLength = 0;
  constructor(start: number) {
    this.next = start;
  }
  feed(chunk: Uint8Array, chunkStart: number): void {
    const size = this.tailLength + chunk.length;
    if (this.win.length < size) {
      const grown = new Uint8Array(size);
      grown.set(this.win.subarray(0, this.tailLength));
      this.win = grown;
    }
    this.win.set(chunk, this.tailLength);
    const win = this.win.subarray(0, size);
    const winStart = chunkStart - this.tailLength;
    while (this.next + 4 <= winStart + win.length) {
      const rel = this.next - winStart;
      const h = parseMpegHeader(win, rel);
      if (h && h.frameLength > 4) {
        this.frames++;
        this.next += h.frameLength;
        continue;
      }
      // Lost sync (damage or a tag): search for the next header within this window.
      let found = -1;
      for (let i = rel + 1; i + 4 <= win.length; i++) {
        if (win[i] === 0xff && parseMpegHeader(win, i)) { found = i; break; }
      }
      if (found < 0) { this.next = winStart + win.length - 3; break; }
      this.next = winStart + found;
    }
    const keep = Math.min(8192, Math.max(0, Math.min(win.length, winStart + win.length - this.next)));
    this.win.copyWithin(0, win.length - keep, win.length);
    this.tailLength = keep;
  }
}

/** mpg123-decoder's instance fields that its own decode() uses (version 1.x). */
type Mpg123Internals = {
  _common?: { wasm: {
    mpeg_decoder_feed(decoder: number, input: number, length: number): number;
    mpeg_decoder_read(decoder: number, output: number, outputLength: number, samples: number, sampleRate: number, error: number): number;
  } };
  _decoder: number;
  _input: { ptr: number; len: number; buf: Uint8Array };
  _output: { ptr: number; len: number; buf: Float32Array };
  _samplesDecodedPtr: { ptr: number; buf: Uint32Array };
  _sampleRatePtr: { ptr: number; buf: Uint32Array };
  _errorStringPtr: { ptr: number };
};

const MPG123_NEED_MORE = -10;
const MPG123_NEW_FORMAT = -11;

/**
 * Decodes `bytes` with mpg123 and yields each decoder read as views into the decoder's own output
 * buffer in WebAssembly memory (no copies, no garbage): mpg123-decoder's decode() loop, minus the
 * copies it makes of every read and again to join them. Falls back to decode() when the library's
 * fields are not there (another major version).
 */
function* mpg123Reads(decoder: MPEGDecoder, bytes: Uint8Array, reuse: boolean, errors: { n: number }): Generator<{ sampleRate: number; left: Float32Array; right: Float32Array }> {
  const d = decoder as unknown as Mpg123Internals;
  const wasm = d._common?.wasm;
  if (!reuse || !wasm || typeof wasm.mpeg_decoder_read !== 'function' || !d._output?.buf) {
    const out = decoder.decode(bytes);
    errors.n += out.errors.length;
    if (out.samplesDecoded > 0) {
      yield { sampleRate: out.sampleRate, left: out.channelData[0]!.subarray(0, out.samplesDecoded), right: (out.channelData[1] ?? out.channelData[0]!).subarray(0, out.samplesDecoded) };
    }
    return;
  }
  for (let at = 0; at < bytes.length;) {
    const piece = bytes.subarray(at, at + d._input.len);
    at += piece.length;
    d._input.buf.set(piece);
    let code = wasm.mpeg_decoder_feed(d._decoder, d._input.ptr, piece.length);
    if (code === MPG123_NEED_MORE) continue;
    for (;;) {
      d._samplesDecodedPtr.buf[0] = 0;
      code = wasm.mpeg_decoder_read(d._decoder, d._output.ptr, d._output.len, d._samplesDecodedPtr.ptr, d._sampleRatePtr.ptr, d._errorStringPtr.ptr);
      const n = d._samplesDecodedPtr.buf[0]!;
      if (n > 0) yield { sampleRate: d._sampleRatePtr.buf[0]!, left: d._output.buf.subarray(0, n), right: d._output.buf.subarray(n, 2 * n) };
      if (code === MPG123_NEW_FORMAT) continue;
      if (code === MPG123_NEED_MORE) break;
      if (code) errors.n++;
    }
  }
}

async function* mp3Blocks(ctx: Ctx, head: Uint8Array): AsyncGenerator<PcmBlock> {
  const { src } = ctx;
  const start = id3v2Length(head);
  let firstFrame = start;
  while (firstFrame < head.length - 4 && !parseMpegHeader(head, firstFrame)) firstFrame++;
  const announced = xingFrames(head, firstFrame);
  // mpg123-decoder always returns two planes; a mono stream's second is a copy of the first.
  const channelCount = parseMpegHeader(head, firstFrame)?.channels ?? 2;
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const walker = new MpegFrameWalker(firstFrame);
  let decodedFrames = 0;
  const errors = { n: 0 };
  try {
    let off = 0;
    for await (const bytes of readSequential(src, 0, src.size, ctx.chunk)) {
      await ctx.breathe();
      throwIfAborted(ctx.signal);
      walker.feed(bytes, off);
      off += bytes.length;
      ctx.progress(off);
      for (const r of mpg123Reads(decoder, bytes, ctx.reuse, errors)) {
        decodedFrames += r.left.length;
        yield { sampleRate: r.sampleRate, channels: channelCount === 1 ? [r.left] : [r.left, r.right] };
      }
    }
    ctx.progress(src.size, true);
  } finally {
    decoder.free();
  }
  const audioFrames = announced !== null ? walker.frames - 1 : walker.frames;
  if (decodedFrames === 0) {
    throw new MediaError(walker.frames > 0 ? MediaErrorCode.Truncated : MediaErrorCode.DecodeFailed,
      walker.frames > 0 ? 'The file ends before any audio could be decoded' : 'The MP3 data could not be decoded');
  }
  if (walker.next > src.size || (announced !== null && audioFrames < announced)) {
    ctx.warnings.push({ code: MediaWarningCode.TruncatedFile, details: { framesAnnounced: announced ?? -1, framesFound: audioFrames } });
  } else if (errors.n > 0) {
    ctx.warnings.push({ code: MediaWarningCode.DamagedFrames, details: { errors: errors.n } });
  }
}

/**
 * One part of a split MP3 (src/media/mp3-split.ts): its bytes through mpg123, less the warm-up,
 * cut at the part's sample count. Throws when mpg123 gives fewer samples than the plan: the caller
 * then decodes the file in one pass.
 */
export async function* mp3PartBlocks(src: ByteSource, part: Mp3Part, channels: number, opts: DecodeOptions = {}): AsyncGenerator<PcmBlock> {
  const breathe = breather();
  const progress = progressReporter(part.byteEnd - part.byteStart, opts.onProgress, opts.now);
  const decoder = new MPEGDecoder();
  await decoder.ready;
  let skip = part.discard;
  let left = part.keep;
  const errors = { n: 0 };
  try {
    let off = 0;
    for await (const bytes of readSequential(src, part.byteStart, part.byteEnd, opts.chunkBytes ?? DEFAULT_CHUNK_BYTES)) {
      await breathe();
      throwIfAborted(opts.signal);
      off += bytes.length;
      progress(off);
      for (const r of mpg123Reads(decoder, bytes, opts.reuseBuffers ?? false, errors)) {
        let from = 0;
        let to = r.left.length;
        if (skip > 0) {
          from = Math.min(skip, to);
          skip -= from;
        }
        to = Math.min(to, from + left);
        if (to <= from) continue;
        left -= to - from;
        const l = r.left.subarray(from, to);
        yield { sampleRate: r.sampleRate, channels: channels === 1 ? [l] : [l, r.right.subarray(from, to)] };
      }
      if (left === 0) break;
    }
    progress(part.byteEnd - part.byteStart, true);
  } finally {
    decoder.free();
  }
  if (left !== 0 || errors.n > 0) throw new MediaError(MediaErrorCode.DecodeFailed, 'The part did not decode as planned');
}

// ---- FLAC ------------------------------------------------------------------------------------

function flacTotalSamples(head: Uint8Array): number | null {
  const at = id3v2Length(head) + 4; // after 'fLaC'
  if (at + 4 + 34 > head.length || (head[at]! & 0x7f) !== 0) return null;
  const s = at + 4;
  const hi = head[s + 13]! & 0x0f;
  const lo = ((head[s + 14]! << 24) | (head[s + 15]! << 16) | (head[s + 16]! << 8) | head[s + 17]!) >>> 0;
  const total = hi * 2 ** 32 + lo;
  return total > 0 ? total : null;
}

async function* flacBlocks(ctx: Ctx, head: Uint8Array): AsyncGenerator<PcmBlock> {
  const { src } = ctx;
  const announced = flacTotalSamples(head);
  const decoder = new FLACDecoder();
  await decoder.ready;
  let decoded = 0;
  const emit = (out: { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number }): PcmBlock | null => {
    if (out.samplesDecoded <= 0) return null;
    decoded += out.samplesDecoded;
    return { sampleRate: out.sampleRate, channels: out.channelData.map((c) => c.subarray(0, out.samplesDecoded)) };
  };
  try {
    let off = 0;
    for await (const bytes of readSequential(src, 0, src.size, ctx.chunk)) {
      await ctx.breathe();
      throwIfAborted(ctx.signal);
      const block = emit(await decoder.decode(bytes));
      off += bytes.length;
      ctx.progress(off);
      if (block) yield block;
    }
    const last = emit(await decoder.flush());
    if (last) yield last;
    ctx.progress(src.size, true);
  } finally {
    decoder.free();
  }
  if (decoded === 0) throw new MediaError(MediaErrorCode.Truncated, 'The file ends before any audio could be decoded');
  if (announced !== null && decoded < announced) {
    ctx.warnings.push({ code: MediaWarningCode.TruncatedFile, details: { framesAnnounced: announced, framesFound: decoded } });
  }
}

// ---- WAV / AIFF --------------------------------------------------------------------------------

async function* pcmBlocks(ctx: Ctx, container: 'wav' | 'aiff'): AsyncGenerator<PcmBlock> {
  const { src } = ctx;
  const enc = await readPcmHeader(src, container);
  const frameBytes = (enc.bitsPerSample / 8) * enc.channels;
  const chunk = Math.max(frameBytes, ctx.chunk - (ctx.chunk % frameBytes));
  const end = enc.dataOffset + enc.dataLength - (enc.dataLength % frameBytes);
  if (end <= enc.dataOffset) throw new MediaError(MediaErrorCode.Truncated, 'The file ends before any audio could be decoded');
  // With reuseBuffers, every block is converted into the same planes.
  const planes = ctx.reuse ? Array.from({ length: enc.channels }, () => new Float32Array(chunk / frameBytes)) : undefined;
  let off = enc.dataOffset;
  for await (const bytes of readSequential(src, enc.dataOffset, end, chunk)) {
    await ctx.breathe();
    throwIfAborted(ctx.signal);
    off += bytes.length;
    ctx.progress(off);
    yield { sampleRate: enc.sampleRate, channels: pcmToFloat(bytes, enc, planes) };
  }
  ctx.progress(src.size, true);
  const frames = (end - enc.dataOffset) / frameBytes;
  if (frames < enc.declaredFrames) {
    ctx.warnings.push({ code: MediaWarningCode.TruncatedFile, details: { framesAnnounced: enc.declaredFrames, framesFound: frames } });
  }
}

// ---- AAC in MP4/M4A and raw ADTS (mediabunny demuxer, WebCodecs or a registered decoder) -------

async function* mediabunnyBlocks(ctx: Ctx): AsyncGenerator<PcmBlock> {
  const { openMediabunnyInput } = await import('./container.ts');
  const input = await openMediabunnyInput(ctx.src);
  try {
    const track = await input.getPrimaryAudioTrack();
    if (!track) throw new MediaError(MediaErrorCode.NoAudioTrack, 'The file has no audio track');
    if (!(await track.canDecode())) {
      throw new MediaError(MediaErrorCode.UnsupportedInEnvironment,
        `No decoder for ${track.codec ?? 'this codec'} audio is available in this environment`, { codec: track.codec ?? 'unknown' });
    }
    const { AudioSampleSink } = await import('mediabunny');
    const duration = await input.computeDuration();
    const sink = new AudioSampleSink(track);
    const planes: Float32Array[] = [];
    const planeFor = (c: number, frames: number): Float32Array => {
      if (!ctx.reuse) return new Float32Array(frames);
      if ((planes[c]?.length ?? 0) < frames) planes[c] = new Float32Array(frames);
      return planes[c]!.subarray(0, frames);
    };
    for await (const sample of sink.samples()) {
      try {
        await ctx.breathe();
        throwIfAborted(ctx.signal);
        // Presentation window of the container (edit lists): drop priming before 0 and padding
        // after the duration, so the length matches what the file says it plays.
        const sr = sample.sampleRate;
        const from = Math.max(0, Math.round(-sample.timestamp * sr));
        const to = Math.min(sample.numberOfFrames, duration > 0 ? Math.round((duration - sample.timestamp) * sr) : sample.numberOfFrames);
        if (to <= from) continue;
        const channels: Float32Array[] = [];
        for (let c = 0; c < sample.numberOfChannels; c++) {
          const plane = planeFor(c, sample.numberOfFrames);
          sample.copyTo(plane, { planeIndex: c, format: 'f32-planar' });
          channels.push(from === 0 && to === sample.numberOfFrames ? plane : plane.subarray(from, to));
        }
        const t = sample.timestamp + sample.duration;
        ctx.progress(duration > 0 ? Math.min(ctx.src.size, Math.round((t / duration) * ctx.src.size)) : 0);
        yield { sampleRate: sample.sampleRate, channels };
      } finally {
        sample.close();
      }
    }
    ctx.progress(ctx.src.size, true);
  } catch (e) {
    if (e instanceof MediaError) throw e;
    throw new MediaError(MediaErrorCode.DecodeFailed, `The audio could not be decoded: ${(e as Error).message}`);
  } finally {
    input.dispose();
  }
}
