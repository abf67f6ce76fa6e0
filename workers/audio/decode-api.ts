// The decode worker's API (comlink), shared by the worker and its main-thread client.
// Waveform data crosses the boundary as transferred ArrayBuffers, never copied.
import type { DecodeProgress } from '../../src/media/decode.ts';
import type { MediaErrorCode } from '../../src/media/errors.ts';
import type { AudioAnalysis } from '../../src/media/analyze.ts';

export type AnalyzeInput = { kind: 'blob'; blob: Blob } | { kind: 'url'; url: string; credentials?: RequestCredentials };

export type AnalyzeResult =
  | ({ ok: true } & AudioAnalysis)
  | { ok: false; code: MediaErrorCode; message: string; details: Record<string, string | number> };

export interface DecodeWorkerApi {
  /** Decodes and makes peaks; `jobId` lets cancel() stop it (memory is released at once). */
  analyze(jobId: string, input: AnalyzeInput, levels: number[] | null, onProgress: ((p: DecodeProgress) => void) | null): Promise<AnalyzeResult>;
  cancel(jobId: string): void;
  /** Bytes of JS heap in use in the worker, where the browser tells (benchmarks). */
  memory(): number | null;
}
