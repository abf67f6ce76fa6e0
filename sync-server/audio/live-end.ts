// How a live recording's stream ends (issue 34; the stream itself: live-ingest.ts). The same way
// whoever ends it, the instance whose request body ended or the sweep that found the stream lost:
//
//   claimed (live_streams.claimed_at) ──> the stored segments put together as the upload's audio
//      ├── audio that decodes ──> row: CaptureEndUtc, HasTornAudio ──> startRecordingIngest:
//      │                            Processing, then the job's waveforms and duration: Finalized
//      └── none (nothing decoded, no segment stored, or the segments cannot be read: a blob
//          folder that was not shared between instances) ──> Finalized with duration 0 and no
//          audio link (section 4's zero-duration case), HasTornAudio: it says so, never a
//          recording that pretends to be whole
//   the live_streams row goes with it; the watchers of every instance get 'end' as the row leaves Live
//
// The sweep (LIVE_SWEEP_JOB, recurring on whichever instance takes it) claims the streams whose
// seen_at is older than the lost time (src/domain/live-streams.ts): their receiving instance died,
// or their encoder's line hangs open with nothing on it. Such a stream is torn: what arrived after
// its last stored segment is gone with the instance (at most a heartbeat's worth of audio).
import * as z from 'zod';
import type { AppDeps } from '../app.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { logOf } from '../observability/log.ts';
import { loadRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import type { BlobStore } from './blob-store.ts';
import { writeAudioRow } from './clip-rows.ts';
import { liveSegmentKey, liveSegmentsKey, liveStreamSettings, removeLivePeaks, streaming } from './live-ingest.ts';
import { recordingKeys } from './media-paths.ts';
import { startRecordingIngest } from './recording-ingest.ts';

export type LiveAudioDeps = { blobs: BlobStore; maxUploadBytes: number };

/**
 * A claim older than this many lost times is a claimant that died while ending the stream (putting
 * the segments together takes seconds, not minutes), and the sweep ends it instead.
 */
const CLAIM_STALE_LOST_TIMES = 10;

/** The stored segments, in order, as the upload's audio file; its size. */
async function assembleLiveAudio(audio: LiveAudioDeps, recordingId: string, uploadId: string, segments: number): Promise<number> {
  let next = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          if (next >= segments) return controller.close();
          reader = (await audio.blobs.blob(liveSegmentKey(recordingId, uploadId, next++))).stream().getReader();
        }
        const { done, value } = await reader.read();
        if (done) {
          reader = null;
          continue;
        }
        controller.enqueue(value);
        return;
      }
    },
  });
  return (await audio.blobs.put(recordingKeys.audio(recordingId, uploadId), body, audio.maxUploadBytes)).size;
}

const forgetStream = (q: Queryable, recordingId: string) => q.query(`DELETE FROM live_streams WHERE recording_id = $1`, [recordingId]);

export type EndedStream = {
  organizationId: string;
  recordingId: string;
  uploadId: string;
  /** Segments stored (live_streams.segments when it was claimed). */
  segments: number;
  endedAt: Date;
  torn: boolean;
  /** Whether any of the stream decoded (its peaks): else there is no audio to keep. */
  decoded: boolean;
};

/** Ends a claimed stream (see the header); the size of the audio kept (0: none). */
export async function finishLiveStream(deps: AppDeps, audio: LiveAudioDeps, s: EndedStream): Promise<number> {
  const { organizationId, recordingId: id, uploadId } = s;
  let size = 0;
  if (s.decoded && s.segments > 0) {
    try {
      size = await assembleLiveAudio(audio, id, uploadId, s.segments);
    } catch (err) {
      logOf(deps).error({ err, recordingId: id }, 'the live audio could not be put together: the recording ends without audio');
    }
  }
  await audio.blobs.remove(liveSegmentsKey(id, uploadId));
  const ref = { entity: 'recording' as const, organizationId, id };
  const endFields = { CaptureEndUtc: s.endedAt.toISOString(), HasTornAudio: s.torn };
  if (size === 0) {
    await writeAudioRow(
      deps,
      ref,
      { State: 'Finalized', fields: { ...endFields, HasTornAudio: true, DurationSeconds: 0 }, urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null } },
      { userId: null },
      {
        alsoInTransaction: async (q) => {
          await removeLivePeaks(q, id);
          await forgetStream(q, id);
        },
      },
    );
    await audio.blobs.remove(recordingKeys.upload(id, uploadId));
  } else {
    await writeAudioRow(deps, ref, { State: 'Live', fields: endFields }, { userId: null });
    await startRecordingIngest(deps, audio.blobs, organizationId, null, id, { uploadId, fileName: 'live.mp3', size });
  }
  // Also when the row was deleted meanwhile (writeAudioRow then writes nothing).
  await forgetStream(deps.store, id);
  return size;
}

/** Claims the streams lost for `lostMs` (and those whose claimant died) and ends them; how many. */
export async function sweepLostLiveStreams(deps: AppDeps, audio: LiveAudioDeps, lostMs: number): Promise<number> {
  const lost = await deps.store.query<{ recording_id: string; organization_id: string; upload_id: string; segments: number; seen_at: Date | string }>(
    `UPDATE live_streams SET claimed_at = now()
      WHERE (claimed_at IS NULL AND seen_at < now() - $1::float8 * interval '1 millisecond')
         OR claimed_at < now() - $2::float8 * interval '1 millisecond'
      RETURNING recording_id, organization_id, upload_id, segments, seen_at`,
    [lostMs, lostMs * CLAIM_STALE_LOST_TIMES],
  );
  for (const s of lost) {
    const id = s.recording_id;
    const row = await loadRow(deps.store, 'recording', s.organization_id, id);
    if (!streaming(row)) {
      // Deleted, or its ending had begun (Processing, Finalized) before its claimant died.
      await audio.blobs.remove(liveSegmentsKey(id, s.upload_id));
      await forgetStream(deps.store, id);
      continue;
    }
    const [peaks] = await deps.store.query<{ decoded: boolean }>(`SELECT EXISTS (SELECT 1 FROM live_peaks WHERE recording_id = $1) AS decoded`, [id]);
    const size = await finishLiveStream(deps, audio, {
      organizationId: s.organization_id,
      recordingId: id,
      uploadId: s.upload_id,
      segments: s.segments,
      // The last moment its audio was stored: what the recording holds ends there.
      endedAt: new Date(s.seen_at),
      torn: true,
      decoded: peaks?.decoded === true,
    });
    logOf(deps).warn({ recordingId: id, segments: s.segments, keptBytes: size }, 'a live stream stored nothing for the lost time: ended with the audio stored until then');
  }
  return lost.length;
}

export const LIVE_SWEEP_JOB = 'recordings.lost-live-streams';

export function liveSweepJobs(deps: AppDeps, audio: LiveAudioDeps): JobHandlers {
  const { lostMs, sweepMs } = liveStreamSettings(deps.live);
  return {
    [LIVE_SWEEP_JOB]: defineJob({ payload: z.object({}), everyMs: sweepMs, run: async () => void (await sweepLostLiveStreams(deps, audio, lostMs)) }),
  };
}
