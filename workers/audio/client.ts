// Main-thread client of the decode worker: one lazily started worker, jobs cancelable with an
// AbortSignal, results cached per audio so a clip opened offline draws at once.
import * as Comlink from 'comlink';
import type { DecodeProgress } from '../../src/media/decode.ts';
import { MediaError, MediaErrorCode } from '../../src/media/errors.ts';
import type { Region } from '../../src/media/cut.ts';
import type { Waveform } from '../../src/media/peaks.ts';
import type { AnalyzeInput, DecodeWorkerApi } from './decode-api.ts';
import { defaultWaveformCache, type WaveformCache } from './waveform-cache.ts';

let worker: Comlink.Remote<DecodeWorkerApi> | null = null;

export function decodeWorker(): Comlink.Remote<DecodeWorkerApi> {
  worker ??= Comlink.wrap<DecodeWorkerApi>(new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module', name: 'audio-decode' }));
  return worker;
}

export type WaveformData = { durationSeconds: number; sampleRate: number; waveforms: Waveform[]; fromCache: boolean };

/** A stable cache key for a picked file (name, size, last modified) or a server URL. */
export function audioCacheKey(input: AnalyzeInput): string {
  if (input.kind === 'url') return `url:${input.url}`;
  const f = input.blob as Blob & { name?: string; lastModified?: number };
  return `file:${f.name ?? ''}:${f.size}:${f.lastModified ?? 0}`;
}

export async function waveformFor(
  input: AnalyzeInput,
  options: { signal?: AbortSignal; onProgress?: (p: DecodeProgress) => void; cache?: WaveformCache | null; cacheKey?: string } = {},
): Promise<WaveformData> {
  const cache = options.cache === undefined ? await defaultWaveformCache() : options.cache;
  const key = options.cacheKey ?? audioCacheKey(input);
  const cached = await cache?.get(key);
  if (cached) return { ...cached, fromCache: true };
  const r = await workerJob(options, (w, jobId, progress) => w.analyze(jobId, input, null, progress));
  const data = { durationSeconds: r.durationSeconds, sampleRate: r.sampleRate, waveforms: r.waveforms };
  await cache?.put(key, data);
  return { ...data, fromCache: false };
}

type JobOptions = { signal?: AbortSignal; onProgress?: (p: DecodeProgress) => void };
type Failure = { ok: false; code: MediaErrorCode; message: string; details: Record<string, string | number> };

/** Runs one job in the decode worker: abort → cancel(jobId); a failure result → MediaError. */
async function workerJob<T extends { ok: true }>(
  options: JobOptions,
  run: (w: Comlink.Remote<DecodeWorkerApi>, jobId: string, progress: ((p: DecodeProgress) => void) | null) => Promise<T | Failure>,
): Promise<T> {
  if (options.signal?.aborted) throw new MediaError(MediaErrorCode.Aborted, 'Decoding was cancelled');
  const w = decodeWorker();
  const jobId = crypto.randomUUID();
  const onAbort = () => void w.cancel(jobId);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const r = await run(w, jobId, options.onProgress ? Comlink.proxy(options.onProgress) : null);
    if (!r.ok) throw new MediaError(r.code, r.message, r.details);
    return r;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The cut preview rendered to a WAV Blob in the decode worker (works offline on a picked file). */
export async function renderPreviewWav(
  input: AnalyzeInput,
  kept: Region[],
  crossfadeMs: number,
  options: JobOptions = {},
): Promise<Blob> {
  const r = await workerJob(options, (w, jobId, progress) => w.renderWav(jobId, input, kept, crossfadeMs, progress));
  return r.wav;
}
