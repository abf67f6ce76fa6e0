// The audio decode worker's implementation: streaming decode + peaks off the main thread (AudioContext does not
// exist in workers; we do not need it). One AbortController per job; cancel aborts the read loop
// and the decoders free their WASM memory in their finally blocks.
import * as Comlink from 'comlink';
import { analyzeAudio, analyzeMp3Part } from '../../src/media/analyze.ts';
import { planMp3Split } from '../../src/media/mp3-split.ts';
import { sniffFormat } from '../../src/media/sniff.ts';
import { renderCut } from '../../src/media/cut.ts';
import { openAudioDecoding, type DecodeOptions, type DecodeProgress } from '../../src/media/decode.ts';
import { isMediaError, MediaError, MediaErrorCode } from '../../src/media/errors.ts';
import { blobSource, urlSource, type ByteSource } from '../../src/media/source.ts';
import { pcm16, wavHeader } from '../../src/media/wav.ts';
import type { AnalyzeInput, DecodeWorkerApi } from './decode-api.ts';

const jobs = new Map<string, AbortController>();

/** Bytes of rendered WAV gathered before they go into the Blob (the browser may keep it on disk). */
const WAV_FLUSH_BYTES = 4 * 1024 * 1024;

function sourceOf(input: AnalyzeInput): Promise<ByteSource> | ByteSource {
  return input.kind === 'blob' ? blobSource(input.blob) : urlSource(input.url, { credentials: input.credentials ?? 'same-origin' });
}

function failure(e: unknown): { ok: false; code: MediaErrorCode; message: string; details: Record<string, string | number> } {
  if (isMediaError(e)) return { ok: false, code: e.code, message: e.message, details: e.details };
  return { ok: false, code: MediaErrorCode.DecodeFailed, message: e instanceof Error ? e.message : String(e), details: {} };
}

/**
 * A cancelable job that makes peaks: its AbortController under jobId, progress passed on, the
 * result with its waveform buffers transferred (never copied), a failure as a result.
 */
async function peaksJob<T extends { waveforms: Array<{ data: { buffer: ArrayBufferLike } }> }>(
  jobId: string,
  onProgress: ((p: DecodeProgress) => void) | null,
  work: (options: DecodeOptions) => Promise<T>,
): Promise<({ ok: true } & T) | ReturnType<typeof failure>> {
  const controller = new AbortController();
  jobs.set(jobId, controller);
  try {
    const a = await work({ signal: controller.signal, ...(onProgress ? { onProgress: (p) => void onProgress(p) } : {}) });
    return Comlink.transfer({ ok: true as const, ...a }, a.waveforms.map((w) => w.data.buffer as ArrayBuffer));
  } catch (e) {
    return failure(e);
  } finally {
    jobs.delete(jobId);
  }
}

export const decodeWorkerApi: DecodeWorkerApi = {
  analyze(jobId, input, levels, onProgress) {
    return peaksJob(jobId, onProgress, async (options) => analyzeAudio(await sourceOf(input), { ...options, ...(levels ? { levels } : {}) }));
  },
  async planSplit(input, count) {
    try {
      const src = await sourceOf(input);
      if (src.size === 0) return null;
      const head = await src.read(0, Math.min(src.size, 64 * 1024));
      return sniffFormat(head) === 'mp3' ? await planMp3Split(src, head, count) : null;
    } catch {
      return null; // the one pass says what is wrong with the file
    }
  },
  analyzePart(jobId, input, part, channels, levels, onProgress) {
    return peaksJob(jobId, onProgress, async (options) => analyzeMp3Part(await sourceOf(input), part, channels, { ...options, ...(levels ? { levels } : {}) }));
  },
  async renderWav(jobId, input, kept, crossfadeMs, onProgress) {
    const controller = new AbortController();
    jobs.set(jobId, controller);
    try {
      // renderCut copies what it keeps, so the decoder may reuse its buffers.
      const decoding = await openAudioDecoding(await sourceOf(input), {
        signal: controller.signal,
        reuseBuffers: true,
        ...(onProgress ? { onProgress: (p) => void onProgress(p) } : {}),
      });
      let body = new Blob([]);
      let pending: Uint8Array<ArrayBuffer>[] = [];
      let pendingBytes = 0;
      let frames = 0;
      let sampleRate = 0;
      let channels = 1;
      for await (const block of renderCut(decoding.blocks, kept, crossfadeMs)) {
        sampleRate = block.sampleRate;
        channels = block.channels.length;
        frames += block.channels[0]?.length ?? 0;
        const bytes = pcm16(block) as Uint8Array<ArrayBuffer>;
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= WAV_FLUSH_BYTES) {
          body = new Blob([body, ...pending]);
          pending = [];
          pendingBytes = 0;
        }
      }
      if (frames === 0) throw new MediaError(MediaErrorCode.DecodeFailed, 'The cut keeps no audio');
      const wav = new Blob([wavHeader(sampleRate, channels, frames) as Uint8Array<ArrayBuffer>, body, ...pending], { type: 'audio/wav' });
      return { ok: true, wav, frames, sampleRate, channels };
    } catch (e) {
      return failure(e);
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

