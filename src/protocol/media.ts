// Wire schemas of the audio endpoints (sync-server/audio) and of the decode worker's messages.
//   PUT  /api/v1/clips/{clipId}/audio?fileName=…        file body → 202 AudioUploadAccepted
//   PUT  /api/v1/clips/{clipId}/audio?audioUrl=…&fileName=…   audio this server already serves (a
//        recording's, another clip's) → 202; the outbox sends the same as an AudioFromUrl JSON body
//   GET  /api/v1/recordings/{recordingId}/clips          the clips made from a recording
//   GET  /api/media/clips/{clipId}/audio                 the uploaded file, HTTP Range supported
//   GET  /api/media/clips/{clipId}/waveform-{high|low}.{dat|json}   audiowaveform data
//   PUT  /api/internal/clips/{clipId}/cut                CutEdit → 200 CutEdit
//   GET  /api/internal/clips/{clipId}/cut                → 200 CutEdit (204 when none saved)
//   POST /api/internal/clips/{clipId}/cut/audio-preview  CutEdit → audio/wav of the kept segments
//   PUT  /api/internal/recordings/{recordingId}/audio?fileName=…   file body → 202 RecordingAudioAccepted
//        (the recording agents' ingest: same file rules and 400 bodies as clip audio; the recording
//        goes Processing → Finalized with DurationSeconds and Urls, or back to what it was)
//   GET  /api/internal/recordings/{recordingId}/audio/ingest      → 200 RecordingAudioIngest (204 before any)
//   GET  /api/media/recordings/{recordingId}/audio                 the ingested file, HTTP Range supported
//   GET  /api/media/recordings/{recordingId}/waveform-{high|low}.{dat|json}   audiowaveform data
import * as z from 'zod';

/** The outbox's form of `PUT /v1/clips/{clipId}/audio?audioUrl=…&fileName=…` (a queued mutation's
 *  path carries no query string). */
export const AudioFromUrlSchema = z.object({ audioUrl: z.string().min(1).max(2000), fileName: z.string().max(500).optional() }).strict();
export type AudioFromUrl = z.infer<typeof AudioFromUrlSchema>;

/** Samples per pixel of the two waveform files a clip's Urls point at. */
export const WAVEFORM_HIGH_RES_SPP = 256;
export const WAVEFORM_LOW_RES_SPP = 4096;

export const CROSSFADE_MS_MIN = 5;
export const CROSSFADE_MS_MAX = 30;
export const CROSSFADE_MS_DEFAULT = 10;

export const KeptRegionSchema = z
  .object({ StartSeconds: z.number().min(0), EndSeconds: z.number().min(0) })
  .strict()
  .refine((r) => r.EndSeconds > r.StartSeconds, { message: 'EndSeconds must be after StartSeconds', path: ['EndSeconds'] });
export type KeptRegion = z.infer<typeof KeptRegionSchema>;

/** An edit list: the regions of the source that are kept, in play order, and the crossfade at each cut. */
export const CutEditSchema = z
  .object({
    KeptRegions: z.array(KeptRegionSchema).min(1).max(1000),
    CrossfadeMs: z.number().int().min(CROSSFADE_MS_MIN).max(CROSSFADE_MS_MAX).default(CROSSFADE_MS_DEFAULT),
  })
  .strict();
export type CutEdit = z.infer<typeof CutEditSchema>;

export const AudioUploadAcceptedSchema = z.object({
  ClipId: z.uuid(),
  State: z.literal('AudioUploaded'),
  UploadedAudioFileName: z.string(),
  SizeInBytes: z.number().int(),
});
export type AudioUploadAccepted = z.infer<typeof AudioUploadAcceptedSchema>;

/** Codes the decode worker and the server report (src/media/errors.ts MediaErrorCode). */
export const MediaProblemCode = z.enum([
  'emptyFile', 'notAudio', 'noAudioTrack', 'truncated', 'unsupportedEncoding', 'unsupportedInEnvironment', 'decodeFailed', 'aborted',
  'truncatedFile', 'damagedFrames',
]);

/** Recordings: audio arrives from recording agents through an internal ingest route. */
export const RecordingAudioAcceptedSchema = z.object({
  RecordingId: z.uuid(),
  State: z.literal('Processing'),
  UploadedAudioFileName: z.string(),
  SizeInBytes: z.number().int(),
});
export type RecordingAudioAccepted = z.infer<typeof RecordingAudioAcceptedSchema>;

/**
 * The last ingest of a recording's audio. Processing while queued or decoding; Finalized when the
 * recording now serves it (AudioProcessingProblem may still carry a warning, e.g. a file cut
 * short); Failed when the file could not be used: the recording keeps what it had before.
 */
export const RecordingAudioIngestSchema = z.object({
  RecordingId: z.uuid(),
  State: z.enum(['Processing', 'Finalized', 'Failed']),
  UploadedAudioFileName: z.string(),
  SizeInBytes: z.number().int(),
  AudioProcessingProblem: z.string().nullable(),
});
export type RecordingAudioIngest = z.infer<typeof RecordingAudioIngestSchema>;
