// Main-thread client of the decode workers: one lazily started worker (and a second one, started
// when a long MP3 can be decoded on two cores: parallel.ts), jobs cancelable with an AbortSignal,
// results cached per audio so a clip opened offline draws at once.
import * as Comlink from 'comlink';
import type { DecodeProgress } from '../../src/media/decode.ts';
import type { Region } from '../../src/media/cut.ts';
import type { Waveform } from '../../src/media/peaks.ts';
import type { AnalyzeInput, DecodeWorkerApi } from './decode-api.ts';
import { analyzeOnCores, runJob, type AnalyzeOptions } from './parallel.ts';
import { defaultWaveformCache, type WaveformCache } from './waveform-cache.ts';

let worker: Comlink.Remote<DecodeWorkerApi> | null = null;
let second: Comlink.Remote<DecodeWorkerApi> | null = null;

const startWorker = (name: string) =>
  Comlink.wrap<DecodeWorkerApi>(new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module', name }));

export function decodeWorker(): Comlink.Remote<DecodeWorkerApi> {
  worker ??= startWorker('audio-decode');
  return worker;
}

/** The second core's worker, started the first time a file is split. */
function helperWorkers(): Comlink.Remote<DecodeWorkerApi>[] {
  second ??= startWorker('audio-decode-2');
  return [second];
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
  const r = await analyzeOnCores(decodeWorker(), helperWorkers, input, options);
  const data = { durationSeconds: r.durationSeconds, sampleRate: r.sampleRate, waveforms: r.waveforms };
  await cache?.put(key, data);
  return { ...data, fromCache: false };
}

type JobOptions = AnalyzeOptions;

/** The cut preview rendered to a WAV Blob in the decode worker (works offline on a picked file). */
export async function renderPreviewWav(
  input: AnalyzeInput,
  kept: Region[],
  crossfadeMs: number,
  options: JobOptions = {},
): Promise<Blob> {
  const w = decodeWorker();
  const r = await runJob(w, options, (jobId, progress) => w.renderWav(jobId, input, kept, crossfadeMs, progress));
  return r.wav;
}
