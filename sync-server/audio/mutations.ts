// The server runs of the clip's audio mutations (src/mutations/content.ts): its cut, and new audio
// from audio the studio already serves. Both run alone (not batchable): they write files.
//
//   clip.saveCut          the edit list, kept beside the clip (clips/{id}/cut.json), and the job
//                         that renders it queued in the same transaction (cut-render.ts); the row stays
//   clip.setAudioFromUrl  the source's file copied into the clip, the row AudioUploaded and the
//                         processing job queued in the same transaction (process.ts)
import { randomUUID } from 'node:crypto';
import { formError } from '../../src/domain/form-errors.ts';
import { mayRead } from '../../src/domain/access.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { clipSaveCut, clipSetAudioFromUrl } from '../../src/mutations/content.ts';
import type { Auth } from '../auth.ts';
import { assertValid, badRequest, fieldError } from '../errors.ts';
import { serverMutation, type ServerMutation } from '../mutations/run.ts';
import { flagsForProgram, lockContent } from '../mutations/store.ts';
import type { Queryable } from '../store/store.ts';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import { audioPatched, loadAudioOwner, type AudioRowPatch } from './clip-rows.ts';
import { clipKeys, clipMediaFolder, mediaFiles, parseMediaAudioPath, recordingKeys, recordingMediaFolder, type CurrentAudio, type UploadMeta } from './media-paths.ts';
import { enqueueCutRender } from './cut-render.ts';
import { enqueueClipAudio } from './process.ts';
import { audioContentType, audioUploadErrors } from './upload-rules.ts';

/** What a clip is once a new file is stored for it: AudioUploaded, no duration, no audio links
 * until it is processed. `fields`: more of the row to set with it. */
export function uploadedPatch(fileName: string, fields: Record<string, unknown> = {}): AudioRowPatch {
  return {
    State: 'AudioUploaded',
    fields: { ...fields, UploadedAudioFileName: fileName, DurationSeconds: null, AudioProcessingProblem: null },
    urls: { AudioPrivateUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
  };
}

export type AudioSource = { folder: string; fileName: string; contentType: string; size: number; recordingId: string | null };

/**
 * The audio an audioUrl names, if it is the studio's own (a clip's or recording's media URL on
 * this origin) and the caller may read it (content access on its program); a 400 naming audioUrl
 * otherwise, the same for audio that is not there as for audio the caller may not see.
 */
export async function audioSource(q: Queryable, blobs: BlobStore, auth: Auth, origin: string, audioUrl: string): Promise<AudioSource> {
  const invalid = (why: 'notStudioAudio' | 'noAudio'): never => {
    throw badRequest([fieldError('audioUrl', formError(why === 'noAudio' ? 'invalid' : 'urlInvalid', undefined, undefined, why))]);
  };
  let url: URL | null = null;
  try {
    url = new URL(audioUrl, origin);
  } catch {
    url = null;
  }
  const source = url && url.origin === origin ? parseMediaAudioPath(url.pathname) : null;
  if (!source) return invalid('notStudioAudio');
  const owner = await loadAudioOwner(q, source.kind, auth.organizationId, source.id);
  const readable = owner && mayRead(ENTITY_KINDS.clips.read, flagsForProgram(auth, { id: owner.program_id, network_id: owner.network_id }));
  if (!readable) return invalid('noAudio');
  const sized = async (found: Omit<AudioSource, 'size'>) => {
    const size = await blobs.size(mediaFiles.audio(found.folder));
    return size === null ? invalid('noAudio') : { ...found, size };
  };
  if (source.kind === 'clip') {
    const meta = await readJsonBlob<UploadMeta>(blobs, clipKeys.meta(source.id));
    if (!meta) return invalid('noAudio');
    return sized({ folder: clipMediaFolder(source.id, meta), fileName: meta.fileName, contentType: meta.contentType, recordingId: null });
  }
  const current = await readJsonBlob<CurrentAudio>(blobs, recordingKeys.current(source.id));
  if (!current) return invalid('noAudio');
  return sized({ folder: recordingMediaFolder(source.id, current), fileName: current.fileName ?? 'recording', contentType: current.contentType, recordingId: source.id });
}

export function audioMutationRuns(blobs: BlobStore, maxUploadBytes: number): ServerMutation[] {
  return [
    serverMutation(
      clipSaveCut,
      async (s, a) => {
        const { current } = await lockContent(s, 'clip', a.clipId);
        await blobs.putBytes(clipKeys.cut(a.clipId), JSON.stringify(a.cut));
        await enqueueCutRender(s.q, { organizationId: s.auth.organizationId, clipId: a.clipId });
        return current;
      },
      { batchable: false },
    ),
    serverMutation(
      clipSetAudioFromUrl,
      async (s, a, _expected, ctx) => {
        const { current } = await lockContent(s, 'clip', a.clipId);
        const source = await audioSource(s.q, blobs, s.auth, ctx.origin, a.audioUrl);
        const fileName = a.fileName?.trim() || source.fileName;
        // The rules first: a refused request leaves the clip's audio, metadata and waveforms as they were.
        assertValid(audioUploadErrors(fileName, source.size, maxUploadBytes));
        const { size } = await blobs.copy(mediaFiles.audio(source.folder), clipKeys.audio(a.clipId));
        const meta: UploadMeta = { fileName, contentType: source.contentType || audioContentType(fileName), size, uploadId: randomUUID() };
        await blobs.putBytes(clipKeys.meta(a.clipId), JSON.stringify(meta));
        const fields = source.recordingId ? { RecordingMetadata: { RecordingId: source.recordingId } } : {};
        const row = await s.update('clip', current, audioPatched(current, uploadedPatch(fileName, fields)));
        await enqueueClipAudio(s.q, { organizationId: s.auth.organizationId, clipId: a.clipId, userId: s.auth.user.Id });
        return row;
      },
      { batchable: false },
    ),
  ];
}
