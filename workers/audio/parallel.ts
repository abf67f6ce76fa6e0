// A waveform made on several cores: a long MP3 is cut into parts (src/media/mp3-split.ts), each
// decoded by its own decode worker at the same time, and the parts' peaks joined into exactly what
// one pass gives. Everything else (other formats, short or irregular files, one core) is one pass
// in the first worker; so is a split whose parts do not decode as planned.
import * as Comlink from 'comlink';
import { joinMp3Parts, type AudioAnalysis, type PartAnalysis } from '../../src/media/analyze.ts';
import type { DecodeProgress } from '../../src/media/decode.ts';
import { MediaError, MediaErrorCode } from '../../src/media/errors.ts';
import type { AnalyzeInput, DecodeWorkerApi } from './decode-api.ts';

type Remote = Comlink.Remote<DecodeWorkerApi>;
export type AnalyzeOptions = { signal?: AbortSignal; onProgress?: (p: DecodeProgress) => void };
type Failure = { ok: false; code: MediaErrorCode; message: string; details: Record<string, string | number> };

/** Runs one job: abort → cancel(jobId) in that worker; a failure result → MediaError. */
export async function runJob<T extends { ok: true }>(
  w: Remote,
  options: AnalyzeOptions,
  run: (jobId: string, progress: ((p: DecodeProgress) => void) | null) => Promise<T | Failure>,
): Promise<T> {
  if (options.signal?.aborted) throw new MediaError(MediaErrorCode.Aborted, 'Decoding was cancelled');
  const jobId = crypto.randomUUID();
  const onAbort = () => void w.cancel(jobId);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const r = await run(jobId, options.onProgress ? Comlink.proxy(options.onProgress) : null);
    if (!r.ok) throw new MediaError(r.code, r.message, r.details);
    return r;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Decodes `input` into waveform data with the first worker, and with `more()` workers beside it
 * when the file can be split. `more` is called only when a split is planned.
 */
export async function analyzeOnCores(first: Remote, more: () => Remote[], input: AnalyzeInput, options: AnalyzeOptions = {}): Promise<AudioAnalysis> {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 1 : 1;
  const plan = cores >= 2 ? await first.planSplit(input, 2) : null;
  if (plan) {
    const workers = [first, ...more()].slice(0, plan.parts.length);
    if (workers.length === plan.parts.length) {
      // Progress: bytes done in every part over the bytes of all parts.
      const done = plan.parts.map(() => 0);
      const total = plan.parts.reduce((n, p) => n + (p.byteEnd - p.byteStart), 0);
      const report = options.onProgress;
      try {
        const parts = await Promise.all(
          plan.parts.map((part, i) =>
            runJob<{ ok: true } & PartAnalysis>(
              workers[i]!,
              {
                ...(options.signal ? { signal: options.signal } : {}),
                ...(report
                  ? {
                      onProgress: (p: DecodeProgress) => {
                        done[i] = p.bytesRead;
                        const bytesRead = done.reduce((a, b) => a + b, 0);
                        report({ bytesRead, totalBytes: total, fraction: Math.min(1, bytesRead / total) });
                      },
                    }
                  : {}),
              },
              (jobId, progress) => workers[i]!.analyzePart(jobId, input, part, plan.channels, null, progress),
            ),
          ),
        );
        return joinMp3Parts(plan, parts);
      } catch (e) {
        // A cancel is a cancel; anything else is retried as one pass, which names the problem.
        if (e instanceof MediaError && e.code === MediaErrorCode.Aborted) throw e;
        if (options.signal?.aborted) throw new MediaError(MediaErrorCode.Aborted, 'Decoding was cancelled');
      }
    }
  }
  return runJob(first, options, (jobId, progress) => first.analyze(jobId, input, null, progress));
}
