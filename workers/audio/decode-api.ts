// The decode worker's API (comlink), shared by the worker and its main-thread client.
// Waveform data crosses the boundary as transferred ArrayBuffers, never copied.
import type { DecodeProgress } from '../../src/media/decode.ts';
import type { MediaErrorCode } from '../../src/media/errors.ts';
import type { AudioAnalysis, PartAnalysis } from '../../src/media/analyze.ts';
import type { Mp3Part, Mp3SplitPlan } from '../../src/media/mp3-split.ts';
import type { Region } from '../../src/media/cut.ts';

export type AnalyzeInput = { kind: 'blob'; blob: Blob } | { kind: 'url'; url: string; credentials?: RequestCredentials };

export type AnalyzeResult =
  | ({ ok: true } & AudioAnalysis)
  | { ok: false; code: MediaErrorCode; message: string; details: Record<string, string | number> };

export type PartResult =
  | ({ ok: true } & PartAnalysis)
  | { ok: false; code: MediaErrorCode; message: string; details: Record<string, string | number> };

export type RenderWavResult =
  | { ok: true; wav: Blob; frames: number; sampleRate: number; channels: number }
  | { ok: false; code: MediaErrorCode; message: string; details: Record<string, string | number> };

export interface DecodeWorkerApi {
  /** Decodes and makes peaks; `jobId` lets cancel() stop it (memory is released at once). */
  analyze(jobId: string, input: AnalyzeInput, levels: number[] | null, onProgress: ((p: DecodeProgress) => void) | null): Promise<AnalyzeResult>;
  /**
   * The cut preview as a 16-bit WAV (the same renderer as the server's audio-preview): one
   * streaming pass, written into the Blob store a few MiB at a time; cancel() stops it too.
   */
  renderWav(jobId: string, input: AnalyzeInput, kept: Region[], crossfadeMs: number, onProgress: ((p: DecodeProgress) => void) | null): Promise<RenderWavResult>;
  /** Where to cut a long MP3 into `count` parts decoded side by side, or null (one pass). */
  planSplit(input: AnalyzeInput, count: number): Promise<Mp3SplitPlan | null>;
  /** One part of a split MP3: its peaks placed in the whole file (src/media/mp3-split.ts). */
  analyzePart(jobId: string, input: AnalyzeInput, part: Mp3Part, channels: number, levels: number[] | null, onProgress: ((p: DecodeProgress) => void) | null): Promise<PartResult>;
  cancel(jobId: string): void;
  /** Bytes of JS heap in use in the worker, where the browser tells (benchmarks). */
  memory(): number | null;
}
