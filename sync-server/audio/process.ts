// Server-side audio processing of an uploaded clip file: a durable job (sync-server/jobs) queued in
// the transaction that makes the clip AudioUploaded, run in the runner's 'audio' pool, one file at
// a time per instance (so memory stays bounded by one streaming decode, whatever the upload sizes):
//
//   PUT audio ──> AudioUploaded ──(job)──> Processing ──┬─> Ready     (duration + waveforms)
//                       ▲                     │         ├─> Warning   (AudioProcessingProblem: file cut short,
//                       │                     │         │             damaged frames, no decoder for the codec)
//                       │                     │         └─> Error     (AudioProcessingProblem: not audio, empty…;
//                       │                     │                        or the job gave up: its attempts threw, or
//                       │                     │                        took the server down)
//                       └── server stopped ───┘ the job runs again (it is idempotent: Processing, then the result)
//
// One job per clip (singleton key): audio uploaded again while the job runs makes it run once more.
// The same src/media code as the decode worker makes the waveform files, so they are the same thing;
// AAC (m4a, mp4, aac) decodes through sync-server/media/node-decoder.ts, registered below, where the
// browser has WebCodecs.
import { analyzeAudio } from '../../src/media/analyze.ts';
import { readContainerInfo, type ContainerInfo } from '../../src/media/container.ts';
import { MediaError, MediaErrorCode } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { registerNodeAudioDecoders } from '../media/node-decoder.ts';
import { blobSource } from '../../src/media/source.ts';
import { waveformToDat, waveformToJson } from '../../src/media/waveform-format.ts';
import { WAVEFORM_HIGH_RES_SPP, WAVEFORM_LOW_RES_SPP } from '../../src/protocol/media.ts';
import * as z from 'zod';
import type { AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable } from '../store/store.ts';
import type { BlobStore } from './blob-store.ts';
import { writeAudioRow, type AudioRowPatch } from './clip-rows.ts';
import { clipKeys, clipUrls } from './media-paths.ts';

registerNodeAudioDecoders();

export type ProcessingResult = AudioRowPatch & { State: 'Ready' | 'Warning' | 'Error' };

type WaveformKey = (res: 'high' | 'low', ext: 'dat' | 'json') => string;

/** What one stored upload turned out to be; the clip and recording pipelines map it to their rows. */
export type StoredAudioAnalysis = {
  info: ContainerInfo | null;
  /** Waveform files were written at waveformKey. */
  waveforms: boolean;
  /** Seconds (ms precision): decoded length, or the container's when no decoder exists here; null on failure. */
  durationSeconds: number | null;
  /** The AudioProcessingProblem text (a warning when waveforms is true), or null. */
  problem: string | null;
  /** The upload is unusable (not audio, empty, nothing decodable). */
  failed: boolean;
};

/** Analyses a stored upload and writes its waveform files (.dat and .json); never throws for bad media. */
export async function analyzeStoredAudio(blobs: BlobStore, audioKey: string, waveformKey: WaveformKey): Promise<StoredAudioAnalysis> {
  const src = blobSource(await blobs.blob(audioKey));
  const problem = (e: MediaError) => mediaProblemText({ code: e.code, details: e.details }, 'en-US');
  let info: ContainerInfo | null = null;
  try {
    info = await readContainerInfo(src);
  } catch {
    // AIFF and damaged files: mediabunny does not read them; the decoder below decides.
  }
  const seconds = (s: number) => Math.round(s * 1000) / 1000;
  try {
    const a = await analyzeAudio(src, { levels: [WAVEFORM_HIGH_RES_SPP, 1024, WAVEFORM_LOW_RES_SPP] });
    const high = a.waveforms.find((w) => w.samplesPerPixel === WAVEFORM_HIGH_RES_SPP)!;
    const low = a.waveforms.find((w) => w.samplesPerPixel === WAVEFORM_LOW_RES_SPP)!;
    for (const [res, w] of [['high', high], ['low', low]] as const) {
      await blobs.putBytes(waveformKey(res, 'dat'), waveformToDat(w));
      await blobs.putBytes(waveformKey(res, 'json'), JSON.stringify(waveformToJson(w)));
    }
    const warning = a.warnings[0];
    return { info, waveforms: true, durationSeconds: seconds(a.durationSeconds), problem: warning ? mediaProblemText(warning, 'en-US') : null, failed: false };
  } catch (e) {
    const err = e instanceof MediaError ? e : new MediaError(MediaErrorCode.DecodeFailed, String(e));
    if (err.code === MediaErrorCode.UnsupportedInEnvironment && info?.durationSeconds != null) {
      // The container is fine and its duration known; only the waveform is missing.
      return { info, waveforms: false, durationSeconds: seconds(info.durationSeconds), problem: problem(err), failed: false };
    }
    return { info, waveforms: false, durationSeconds: null, problem: problem(err), failed: true };
  }
}

/** Analyses a clip's stored upload: the clip's State, fields and Urls afterwards. */
export async function processStoredAudio(blobs: BlobStore, clipId: string): Promise<ProcessingResult> {
  const a = await analyzeStoredAudio(blobs, clipKeys.audio(clipId), (res, ext) => clipKeys.waveform(clipId, res, ext));
  const mediaType = a.info?.mediaType ?? 'Audio';
  const mediaInfo = {
    UploadedMediaInfo: { MediaType: mediaType, VideoInfo: a.info?.video ? { Height: a.info.video.height, Width: a.info.video.width } : null },
    MediaType: mediaType,
  };
  if (a.failed) {
    return {
      State: 'Error',
      fields: { DurationSeconds: null, AudioProcessingProblem: a.problem, AudioProcessingProblemDismissed: false },
      urls: { AudioPrivateUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
    };
  }
  return {
    State: a.problem ? 'Warning' : 'Ready',
    fields: { ...mediaInfo, DurationSeconds: a.durationSeconds, AudioProcessingProblem: a.problem, AudioProcessingProblemDismissed: false },
    urls: {
      AudioPrivateUrl: clipUrls.audio(clipId),
      WaveformHighResUrl: a.waveforms ? clipUrls.waveform(clipId, 'high') : null,
      WaveformLowResUrl: a.waveforms ? clipUrls.waveform(clipId, 'low') : null,
      ...(mediaType === 'AudioAndVideo' ? { VideoPrivateUrl: clipUrls.audio(clipId) } : {}),
    },
  };
}

export const CLIP_AUDIO_JOB = 'clip.processAudio';

const ClipAudioJobSchema = z.object({ organizationId: z.string(), clipId: z.string(), userId: z.string().nullable() });
export type ClipAudioJob = z.infer<typeof ClipAudioJobSchema>;

/** Queues the processing of a clip's stored upload, in the transaction that makes it AudioUploaded. */
export function enqueueClipAudio(q: Queryable, job: ClipAudioJob): Promise<number | null> {
  return enqueueJob(q, CLIP_AUDIO_JOB, job, { singletonKey: `${CLIP_AUDIO_JOB}:${job.clipId}`, rerunIfRunning: true, maxAttempts: 3 });
}

/** The clip processing job. An attempt that throws (the disk, the database: bad media is a result,
 *  not a throw) is tried again; after the last one the clip goes to Error. */
export function clipAudioJobs(deps: AppDeps, blobs: BlobStore): JobHandlers {
  const rowOf = (job: ClipAudioJob) => ({ entity: 'clip', organizationId: job.organizationId, id: job.clipId }) as const;
  return {
    [CLIP_AUDIO_JOB]: defineJob({
      pool: 'audio',
      payload: ClipAudioJobSchema,
      async run(job) {
        if (!(await writeAudioRow(deps, rowOf(job), { State: 'Processing' }, { userId: job.userId }))) return;
        await writeAudioRow(deps, rowOf(job), await processStoredAudio(blobs, job.clipId), { userId: job.userId });
      },
      async giveUp(job) {
        const problem = mediaProblemText({ code: MediaErrorCode.DecodeFailed }, 'en-US');
        await writeAudioRow(deps, rowOf(job), { State: 'Error', fields: { AudioProcessingProblem: problem, DurationSeconds: null } }, { userId: job.userId });
      },
    }),
  };
}
