// AAC decoding for Node, where WebCodecs' AudioDecoder does not exist. Node-only: imported by the
// server (sync-server/audio) and the Node tests and benchmarks, never by the browser bundle.
//
// It is a mediabunny custom decoder, so Node goes through exactly the worker's code path
// (decode.ts mediabunnyBlocks: mediabunny demuxes MP4/M4A/ADTS, AudioSampleSink, presentation
// window trim, peaks); only the step "AAC packet → PCM" differs: WebCodecs in the browser,
// FFmpeg's own AAC decoder compiled to WebAssembly (@ffmpeg/core) here. libav.js and its WebCodecs
// polyfill leave AAC out of every published variant, and the pure-JS AAC decoders on the registry
// are unmaintained and far too slow (aac.js: 12 s of audio took 1 s and produced NaNs).
//
//   packets ──ADTS framing──> batch of BATCH_PACKETS ──ffmpeg -f aac … -f f32le──> AudioSample
//                 ▲                                          (synchronous, ≈ 50 ms of CPU)
//                 └── the last PRIMING_PACKETS of a batch are decoded again at the start of the
//                     next one (and their output dropped), so the MDCT overlap and window state
//                     carry across the batch boundary. Within a batch the output is FFmpeg's, sample
//                     for sample; after a join only the noise-substitution bands differ (the
//                     decoder's noise generator restarts): measured ≤ 0.2 % of full scale.
//
// @ffmpeg/core is built for browsers and workers only; it runs in Node when handed its .wasm bytes
// and a script location. It runs its command synchronously, so batches keep each run short and the
// event loop breathes between them (memory per batch: a few hundred KiB in, a few MiB out).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AudioSample, CustomAudioDecoder, registerDecoder, type AudioCodec, type EncodedPacket } from 'mediabunny';

/** About 12 s of 44.1 kHz audio per synchronous decoder run. */
export const BATCH_PACKETS = 512;
const PRIMING_PACKETS = 2;
const IDLE_FLUSH_MS = 100;
const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const PCM_DEVICE = '/dev/castaway-pcm';

type FfmpegCore = {
  FS: {
    writeFile(path: string, data: Uint8Array): void;
    unlink(path: string): void;
    makedev(major: number, minor: number): number;
    registerDevice(dev: number, ops: { open?: () => void; close?: () => void; read?: () => number; write: (s: unknown, buf: Uint8Array, offset: number, length: number) => number }): void;
    mkdev(path: string, dev: number): void;
  };
  exec(...args: string[]): number;
  reset(): void;
};

/** Where the PCM the running ffmpeg command writes goes (one command at a time: exec is synchronous). */
let pcmSink: ((bytes: Uint8Array) => void) | null = null;
let ffmpegErrors: string[] = [];

/**
 * FFmpeg's WebAssembly build leaks a little memory on every command and, with its fixed 32 MiB heap,
 * fails after about 160 of them ("memory access out of bounds", or hangs). So commands run on a
 * core that is replaced by a fresh one after RECYCLE_AFTER_RUNS; the module is compiled once and
 * a new instance takes milliseconds. A spare is kept ready so the swap stays synchronous.
 */
export const RECYCLE_AFTER_RUNS = 48;

async function loadCoreFactory(): Promise<() => Promise<FfmpegCore>> {
  const require = createRequire(import.meta.url);
  const script = join(dirname(require.resolve('@ffmpeg/core')), '../esm/ffmpeg-core.js');
  const compiled = await WebAssembly.compile(await readFile(join(dirname(script), 'ffmpeg-core.wasm')));
  const mod = (await import(pathToFileURL(script).href)) as { default: (m: object) => Promise<FfmpegCore> };
  return async () => {
    // The worker build reads self.location.href once, synchronously, when the factory starts.
    const g = globalThis as { self?: unknown };
    const hadSelf = 'self' in g;
    if (!hadSelf) g.self = { location: { href: pathToFileURL(script).href } };
    let pending: Promise<FfmpegCore>;
    try {
      pending = mod.default({
        instantiateWasm: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
          void WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled));
          return {};
        },
        print: () => {},
        printErr: (line: string) => { ffmpegErrors.push(line); },
      });
    } finally {
      if (!hadSelf) delete g.self;
    }
    const core = await pending;
    const dev = core.FS.makedev(64, 0);
    core.FS.registerDevice(dev, {
      open: () => {},
      close: () => {},
      read: () => 0,
      write: (_s, buf, offset, length) => {
        pcmSink?.(buf.subarray(offset, offset + length));
        return length;
      },
    });
    core.FS.mkdev(PCM_DEVICE, dev);
    return core;
  };
}

class CorePool {
  private runs = 0;
  private refilling = false;
  constructor(private readonly create: () => Promise<FfmpegCore>, private active: FfmpegCore, private spare: FfmpegCore | null) {}

  /** The core for the next command. */
  take(): FfmpegCore {
    if (this.runs >= RECYCLE_AFTER_RUNS) {
      if (this.spare) {
        this.active = this.spare;
        this.spare = null;
        this.runs = 0;
      }
      if (!this.spare && !this.refilling) {
        this.refilling = true;
        void this.create().then((c) => { this.spare = c; }, () => {}).finally(() => { this.refilling = false; });
      }
    }
    this.runs++;
    return this.active;
  }
}

let poolPromise: Promise<CorePool> | null = null;

function ffmpegCores(): Promise<CorePool> {
  poolPromise ??= (async () => {
    const create = await loadCoreFactory();
    const [active, spare] = await Promise.all([create(), create()]);
    return new CorePool(create, active, spare);
  })().catch((e: unknown) => { poolPromise = null; throw e; });
  return poolPromise;
}

type AacConfig = { objectType: number; rateIndex: number; channelConfig: number };

/** The fields ADTS needs, from the AudioSpecificConfig (MP4 esds) or the codec string (raw ADTS). */
export function aacConfigOf(codec: string, sampleRate: number, channels: number, description?: AllowSharedBufferSource): AacConfig | null {
  if (description && description.byteLength >= 2) {
    const b = description instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && description instanceof SharedArrayBuffer)
      ? new Uint8Array(description)
      : new Uint8Array((description as ArrayBufferView).buffer, (description as ArrayBufferView).byteOffset, (description as ArrayBufferView).byteLength);
    let bit = 0;
    const read = (n: number) => {
      let v = 0;
      for (let i = 0; i < n; i++, bit++) v = (v << 1) | (((b[bit >> 3] ?? 0) >> (7 - (bit & 7))) & 1);
      return v;
    };
    let objectType = read(5);
    if (objectType === 31) objectType = 32 + read(6);
    let rateIndex = read(4);
    const explicitRate = rateIndex === 15 ? read(24) : null;
    const channelConfig = read(4);
    if (objectType === 5 || objectType === 29) {
      // Explicit SBR/PS: ADTS carries the core (AAC-LC) stream; the decoder finds SBR in-band.
      const ext = read(4);
      if (ext === 15) read(24);
      objectType = read(5);
    }
    if (explicitRate !== null) rateIndex = AAC_RATES.indexOf(explicitRate);
    if (objectType < 1 || objectType > 4 || rateIndex < 0 || channelConfig < 1 || channelConfig > 7) return null;
    return { objectType, rateIndex, channelConfig };
  }
  const objectType = Number(/^mp4a\.40\.(\d+)$/.exec(codec)?.[1] ?? 2);
  const rateIndex = AAC_RATES.indexOf(sampleRate);
  const channelConfig = channels === 8 ? 7 : channels;
  if (objectType < 1 || objectType > 4 || rateIndex < 0 || channelConfig < 1 || channelConfig > 7) return null;
  return { objectType, rateIndex, channelConfig };
}

/** A 7-byte ADTS header (MPEG-4, no CRC) followed by one raw AAC frame. */
export function adtsFrame(cfg: AacConfig, raw: Uint8Array): Uint8Array {
  const len = raw.length + 7;
  const out = new Uint8Array(len);
  out[0] = 0xff;
  out[1] = 0xf1;
  out[2] = ((cfg.objectType - 1) << 6) | (cfg.rateIndex << 2) | ((cfg.channelConfig >> 2) & 1);
  out[3] = ((cfg.channelConfig & 3) << 6) | ((len >> 11) & 3);
  out[4] = (len >> 3) & 0xff;
  out[5] = ((len & 7) << 5) | 0x1f;
  out[6] = 0xfc;
  out.set(raw, 7);
  return out;
}

let nextInputId = 0;

export class FfmpegAacDecoder extends CustomAudioDecoder {
  static override supports(codec: AudioCodec, config: AudioDecoderConfig): boolean {
    return codec === 'aac' && aacConfigOf(config.codec, config.sampleRate, config.numberOfChannels, config.description) !== null;
  }

  private cores: CorePool | null = null;
  private adts: AacConfig | null = null;
  private frames: Uint8Array[] = [];
  private timestamps: number[] = [];
  /** Packets at the head of `frames` that were already output by the previous batch. */
  private priming = 0;
  private readonly inputPath = `/castaway-aac-${nextInputId++}.adts`;
  private decodes = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  async init(): Promise<void> {
    this.cores = await ffmpegCores();
    this.adts = aacConfigOf(this.config.codec, this.config.sampleRate, this.config.numberOfChannels, this.config.description);
  }

  decode(packet: EncodedPacket): void {
    // MP4 holds raw frames (described by the esds); mediabunny's ADTS demuxer hands over whole ADTS frames.
    this.frames.push(this.config.description ? adtsFrame(this.adts!, packet.data) : packet.data);
    this.timestamps.push(packet.timestamp);
    this.decodes++;
    if (this.frames.length >= BATCH_PACKETS + this.priming) this.runBatch();
    else this.armIdleFlush();
  }

  /**
   * mediabunny's sample sink stops feeding packets (up to 40 queued) until a sample comes out; a
   * batch that is not full yet would then never come out. When no packet arrived for IDLE_FLUSH_MS,
   * the packets so far are decoded (the priming overlap keeps the output identical).
   */
  private armIdleFlush(): void {
    if (this.idleTimer) return;
    const armedAt = this.decodes;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.frames.length <= this.priming) return;
      if (this.decodes !== armedAt) { this.armIdleFlush(); return; }
      try {
        this.runBatch();
      } catch (e) {
        this.onError(e);
      }
    }, IDLE_FLUSH_MS);
  }

  flush(): void {
    this.stopIdleFlush();
    if (this.frames.length > this.priming) this.runBatch();
    this.frames = [];
    this.timestamps = [];
    this.priming = 0;
  }

  close(): void {
    this.stopIdleFlush();
    this.frames = [];
    this.timestamps = [];
  }

  private stopIdleFlush(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private runBatch(): void {
    const core = this.cores!.take();
    const { sampleRate, numberOfChannels } = this.config;
    let size = 0;
    for (const f of this.frames) size += f.length;
    const input = new Uint8Array(size);
    let at = 0;
    for (const f of this.frames) { input.set(f, at); at += f.length; }
    // 1024 frames per packet (AAC-LC); doubled when SBR (HE-AAC) makes more.
    let out = new Uint8Array(this.frames.length * 1024 * numberOfChannels * 4);
    let outLength = 0;
    pcmSink = (bytes) => {
      if (outLength + bytes.length > out.length) {
        const bigger = new Uint8Array(Math.max(out.length * 2, outLength + bytes.length));
        bigger.set(out.subarray(0, outLength));
        out = bigger;
      }
      out.set(bytes, outLength);
      outLength += bytes.length;
    };
    ffmpegErrors = [];
    let rc: number;
    try {
      core.FS.writeFile(this.inputPath, input);
      rc = core.exec('-nostdin', '-hide_banner', '-v', 'error', '-f', 'aac', '-i', this.inputPath,
        '-f', 'f32le', '-ac', String(numberOfChannels), '-ar', String(sampleRate), '-y', PCM_DEVICE);
    } finally {
      pcmSink = null;
      core.reset();
      try { core.FS.unlink(this.inputPath); } catch { /* not written */ }
    }
    if (rc !== 0) throw new Error(`AAC decoding failed (${ffmpegErrors.join(' ').trim() || `ffmpeg exit ${rc}`})`);
    const packets = this.frames.length;
    const totalFrames = outLength / 4 / numberOfChannels;
    const perPacket = totalFrames / packets;
    const skip = Math.min(totalFrames, Math.round(this.priming * perPacket));
    const timestamp = this.timestamps[this.priming]!;
    // Keep the tail for the next batch's priming.
    this.frames = this.frames.slice(-PRIMING_PACKETS);
    this.timestamps = this.timestamps.slice(-PRIMING_PACKETS);
    this.priming = this.frames.length;
    const frames = totalFrames - skip;
    if (frames <= 0) return;
    const pcm = new Float32Array(out.buffer, skip * numberOfChannels * 4, frames * numberOfChannels);
    this.onSample(new AudioSample({ data: pcm, format: 'f32', numberOfChannels, sampleRate, timestamp }));
  }
}

let registered = false;

/**
 * Registers the Node AAC decoder with mediabunny once (nothing where WebCodecs' AudioDecoder
 * exists). The 30 MB module is compiled on the first AAC decode (≈ 0.4 s), not at start-up.
 */
export function registerNodeAudioDecoders(): void {
  if (registered || typeof (globalThis as { AudioDecoder?: unknown }).AudioDecoder !== 'undefined') return;
  registered = true;
  registerDecoder(FfmpegAacDecoder);
}

/** Compiles the decoder now (tests and benchmarks, so no decode includes the start-up). */
export async function preloadNodeAacDecoder(): Promise<void> {
  registerNodeAudioDecoders();
  await ffmpegCores();
}
