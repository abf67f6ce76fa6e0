// The audio decode worker's implementation: streaming decode + peaks off the main thread (AudioContext does not
// exist in workers; we do not need it). One AbortController per job; cancel aborts the read loop
// and the decoders free their WASM memory in their finally blocks.
import * as Comlink from 'comlink';
import { analyzeAudio } from '../../src/media/analyze.ts';
import { isMediaError, MediaErrorCode } from '../../src/media/errors.ts';
import { blobSource, urlSource } from '../../src/media/source.ts';
import type { AnalyzeResult, DecodeWorkerApi } from './decode-api.ts';

const jobs = new Map<string, AbortController>();

export const decodeWorkerApi: DecodeWorkerApi = {
  async analyze(jobId, input, levels, onProgress) {
    const controller = new AbortController();
    jobs.set(jobId, controller);
    try {
      const src = input.kind === 'blob' ? blobSource(input.blob) : await urlSource(input.url, { credentials: input.credentials ?? 'same-origin' });
      const a = await analyzeAudio(src, {
        signal: controller.signal,
        ...(onProgress ? { onProgress: (p) => void onProgress(p) } : {}),
        ...(levels ? { levels } : {}),
      });
      const result: AnalyzeResult = { ok: true, ...a };
      return Comlink.transfer(result, a.waveforms.map((w) => w.data.buffer as ArrayBuffer));
    } catch (e) {
      if (isMediaError(e)) return { ok: false, code: e.code, message: e.message, details: e.details };
      return { ok: false, code: MediaErrorCode.DecodeFailed, message: e instanceof Error ? e.message : String(e), details: {} };
    } finally {
      jobs.delete(jobId);
    }
  },
  cancel(jobId) {
    jobs.get(jobId)?.abort();
  },
  memory() {
    const perf = performance as Performance & { memory?: { usedJSHeapSize: number } };
    return perf.memory?.usedJSHeapSize ?? null;
  },
};

