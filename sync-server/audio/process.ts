// Server-side audio processing of an uploaded clip file, in-process and one file at a time (so
// memory stays bounded by one streaming decode, whatever the upload sizes):
//
//   PUT audio ──> AudioUploaded ──(queue)──> Processing ──┬─> Ready     (duration + waveforms)
//                                                        ├─> Warning   (AudioProcessingProblem: file cut short,
//                                                        │             damaged frames, no decoder for the codec)
//                                                        └─> Error     (AudioProcessingProblem: not audio, empty…)
//
// The same src/media code as the decode worker makes the waveform files, so they are the same thing;
// AAC (m4a, mp4, aac) decodes through src/media/node-decoder.ts, registered below, where the
// browser has WebCodecs.
import { analyzeAudio } from '../../src/media/analyze.ts';
import { readContainerInfo, type ContainerInfo } from '../../src/media/container.ts';
import { MediaError, MediaErrorCode } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { registerNodeAudioDecoders } from '../../src/media/node-decoder.ts';
import { blobSource } from '../../src/media/source.ts';
import { waveformToDat, waveformToJson } from '../../src/media/waveform-format.ts';
import { WAVEFORM_HIGH_RES_SPP, WAVEFORM_LOW_RES_SPP } from '../../src/protocol/media.ts';
import type { AppDeps } from '../app.ts';
import type { BlobStore } from './blob-store.ts';
import { writeClipAudio, type ClipAudioPatch } from './clip-rows.ts';

registerNodeAudioDecoders();

export const clipKeys = {
  dir: (clipId: string) => `clips/${clipId}`,
  audio: (clipId: string) => `clips/${clipId}/audio`,
  meta: (clipId: string) => `clips/${clipId}/audio.json`,
  waveform: (clipId: string, res: 'high' | 'low', ext: 'dat' | 'json') => `clips/${clipId}/waveform-${res}.${ext}`,
  cut: (clipId: string) => `clips/${clipId}/cut.json`,
};

export const clipUrls = {
  audio: (clipId: string) => `/api/media/clips/${clipId}/audio`,
  waveform: (clipId: string, res: 'high' | 'low') => `/api/media/clips/${clipId}/waveform-${res}.dat`,
};

export type UploadMeta = { fileName: string; contentType: string; size: number };

export type ProcessingResult = ClipAudioPatch & { State: 'Ready' | 'Warning' | 'Error' };

/** Analyses the stored upload and writes its waveform files; never throws for bad media. */
export async function processStoredAudio(blobs: BlobStore, clipId: string): Promise<ProcessingResult> {
  const blob = await blobs.blob(clipKeys.audio(clipId));
  const src = blobSource(blob);
  const problem = (e: MediaError) => mediaProblemText({ code: e.code, details: e.details }, 'en-US');
  let info: ContainerInfo | null = null;
  try {
    info = await readContainerInfo(src);
  } catch {
    // AIFF and damaged files: mediabunny does not read them; the decoder below decides.
  }
  const mediaInfo = {
    UploadedMediaInfo: { MediaType: info?.mediaType ?? 'Audio', VideoInfo: info?.video ? { Height: info.video.height, Width: info.video.width } : null },
    MediaType: info?.mediaType ?? 'Audio',
  };
  try {
    const a = await analyzeAudio(src, { levels: [WAVEFORM_HIGH_RES_SPP, 1024, WAVEFORM_LOW_RES_SPP] });
    const high = a.waveforms.find((w) => w.samplesPerPixel === WAVEFORM_HIGH_RES_SPP)!;
    const low = a.waveforms.find((w) => w.samplesPerPixel === WAVEFORM_LOW_RES_SPP)!;
    for (const [res, w] of [['high', high], ['low', low]] as const) {
      await blobs.putBytes(clipKeys.waveform(clipId, res, 'dat'), waveformToDat(w));
      await blobs.putBytes(clipKeys.waveform(clipId, res, 'json'), JSON.stringify(waveformToJson(w)));
    }
    const warning = a.warnings[0];
    return {
      State: warning ? 'Warning' : 'Ready',
      fields: {
        ...mediaInfo,
        DurationSeconds: Math.round(a.durationSeconds * 1000) / 1000,
        AudioProcessingProblem: warning ? mediaProblemText(warning, 'en-US') : null,
        AudioProcessingProblemDismissed: false,
      },
      urls: {
        AudioPrivateUrl: clipUrls.audio(clipId),
        WaveformHighResUrl: clipUrls.waveform(clipId, 'high'),
        WaveformLowResUrl: clipUrls.waveform(clipId, 'low'),
        ...(info?.mediaType === 'AudioAndVideo' ? { VideoPrivateUrl: clipUrls.audio(clipId) } : {}),
      },
    };
  } catch (e) {
    const err = e instanceof MediaError ? e : new MediaError(MediaErrorCode.DecodeFailed, String(e));
    if (err.code === MediaErrorCode.UnsupportedInEnvironment && info?.durationSeconds != null) {
      // The container is fine and its duration known; only the waveform is missing.
      return {
        State: 'Warning',
        fields: { ...mediaInfo, DurationSeconds: Math.round(info.durationSeconds * 1000) / 1000, AudioProcessingProblem: problem(err), AudioProcessingProblemDismissed: false },
        urls: { AudioPrivateUrl: clipUrls.audio(clipId), WaveformHighResUrl: null, WaveformLowResUrl: null },
      };
    }
    return {
      State: 'Error',
      fields: { DurationSeconds: null, AudioProcessingProblem: problem(err), AudioProcessingProblemDismissed: false },
      urls: { AudioPrivateUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
    };
  }
}

type Job = { organizationId: string; clipId: string; userId: string | null };

/** One processing queue per app: jobs run one after another, in upload order. */
export function createAudioQueue(deps: AppDeps, blobs: BlobStore) {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  const run = async (job: Job) => {
    if (!(await writeClipAudio(deps, job.organizationId, job.clipId, job.userId, { State: 'Processing' }))) return;
    let result: ProcessingResult;
    try {
      result = await processStoredAudio(blobs, job.clipId);
    } catch (e) {
      result = {
        State: 'Error',
        fields: { AudioProcessingProblem: mediaProblemText({ code: MediaErrorCode.DecodeFailed }, 'en-US'), DurationSeconds: null },
      };
      console.error('audio processing failed for clip', job.clipId, e);
    }
    await writeClipAudio(deps, job.organizationId, job.clipId, job.userId, result);
  };
  return {
    enqueue(job: Job): void {
      pending++;
      tail = tail.then(() => run(job)).catch((e: unknown) => console.error('audio queue', e)).finally(() => { pending--; });
    },
    /** Resolves when every queued job has finished (tests, graceful shutdown). */
    idle: async () => { while (pending > 0) await tail; },
  };
}
