// The server runs of the clip's audio mutations (src/mutations/content.ts): its cut, and new audio
// from audio the studio already serves. Both run alone (not batchable): they write files.
//
//   clip.saveCut          the edit list (clip_cuts, cut-render.ts) and the job that renders it into
//                         a new published version, one transaction (versions.ts); the row stays
//   clip.setAudioFromUrl  the source's file copied into a new upload folder of the clip (pending),
//                         the processing job queued; a clip without good audio becomes AudioUploaded,
//                         one with good audio keeps serving it until the copy is processed
//   clip.normalizeLoudness the loudness normalization queued again for the preset in effect (loudness-record.ts)
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
import { saveClipCut } from './cut-render.ts';
import { loudnessMutationRuns } from './loudness-record.ts';
import { readPublishedVersion } from './published-media.ts';
import { DEFAULT_MEDIA_GRACE_MS, enqueueClipAudio, enqueueMediaSweep, hasGoodAudio, ownFilesOf } from './versions.ts';
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
    // What the URL serves: the clip's published version (its cut), else its upload.
    const [meta, published] = await Promise.all([readJsonBlob<UploadMeta>(blobs, clipKeys.meta(source.id)), readPublishedVersion(blobs, source.id)]);
    if (!meta) return invalid('noAudio');
    const served = published ? { folder: published.folder, contentType: published.contentType } : { folder: clipMediaFolder(source.id, meta), contentType: meta.contentType };
    return sized({ ...served, fileName: meta.fileName, recordingId: null });
  }
  const current = await readJsonBlob<CurrentAudio>(blobs, recordingKeys.current(source.id));
  if (!current) return invalid('noAudio');
  return sized({ folder: recordingMediaFolder(source.id, current), fileName: current.fileName ?? 'recording', contentType: current.contentType, recordingId: source.id });
}

/**
 * New audio is stored in its own upload folder (by now): in the caller's transaction it becomes
 * the clip's pending upload, an earlier pending one that never processed is swept, and the
 * processing job is queued.
 */
export async function acceptClipUpload(
  q: Queryable, blobs: BlobStore, clip: { organizationId: string; id: string; userId: string | null }, meta: UploadMeta, graceMs: number,
): Promise<void> {
  const before = await readJsonBlob<UploadMeta>(blobs, clipKeys.pending(clip.id));
  await blobs.putBytes(clipKeys.pending(clip.id), JSON.stringify(meta));
  if (before) await enqueueMediaSweep(q, clip.id, ownFilesOf(clip.id, before), graceMs);
  await enqueueClipAudio(q, { organizationId: clip.organizationId, clipId: clip.id, userId: clip.userId });
}

/** What the row becomes when new audio is accepted: AudioUploaded, or (null) nothing for a clip
 * that serves good audio, which it keeps serving until the new file has processed. */
export function uploadRowPatch(row: Record<string, unknown>, fileName: string, fields: Record<string, unknown> = {}): AudioRowPatch | null {
  if (!hasGoodAudio(row)) return uploadedPatch(fileName, fields);
  return Object.keys(fields).length > 0 ? { State: String(row['State']), fields } : null;
}

/** A new upload's id and its own media folder. */
export function newClipUpload(clipId: string) {
  const uploadId = randomUUID();
  return { uploadId, folder: clipKeys.uploadFolder(clipId, uploadId) };
}

export function audioMutationRuns(blobs: BlobStore, maxUploadBytes: number, graceMs = DEFAULT_MEDIA_GRACE_MS): ServerMutation[] {
  return [
    serverMutation(
      clipSaveCut,
      async (s, a) => {
        const { current } = await lockContent(s, 'clip', a.clipId);
        // The cut and its render commit together (a cut is never saved without its render queued).
        await saveClipCut(s.q, s.auth.organizationId, a.clipId, a.cut, new Date());
        await enqueueClipAudio(s.q, { organizationId: s.auth.organizationId, clipId: a.clipId, userId: s.auth.user.Id });
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
        const { uploadId, folder } = newClipUpload(a.clipId);
        const { size } = await blobs.copy(mediaFiles.audio(source.folder), mediaFiles.audio(folder));
        const meta: UploadMeta = { fileName, contentType: source.contentType || audioContentType(fileName), size, uploadId, media: folder };
        const fields = source.recordingId ? { RecordingMetadata: { RecordingId: source.recordingId } } : {};
        await acceptClipUpload(s.q, blobs, { organizationId: s.auth.organizationId, id: a.clipId, userId: s.auth.user.Id }, meta, graceMs);
        const patch = uploadRowPatch(current, fileName, fields);
        return patch ? s.update('clip', current, audioPatched(current, patch)) : current;
      },
      { batchable: false },
    ),
    ...loudnessMutationRuns(),
  ];
}
