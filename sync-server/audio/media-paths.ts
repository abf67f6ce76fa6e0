// Where audio lives in the blob store and the URLs it is served at. Every audio is one "media
// folder" with the same files:
//
//   <folder>/audio                            the file as uploaded (served with HTTP Range)
//   <folder>/waveform-{high|low}.{dat|json}   audiowaveform data made by the processing pipeline
//
//   clips/{clipId}/uploads/{uploadId}  one upload of a clip, the original, never written again
//                                   (clips/{clipId}/audio.json: UploadMeta of the one published,
//                                    pending.json: a newer one still processing; cut.json: the cut)
//   clips/{clipId}/versions/{version}  the published version made of the original and the cut
//                                   (MP3 or M4A; clips/{clipId}/published.json: published-media.ts)
//   clips/{clipId}                  a clip's own upload before uploads had folders (audio.json
//                                   without media)
//   recordings/{id}/{uploadId}      one ingest of a recording      (+ recordings/{id}/current.json names the one served)
//   demo/{mediaId}                  demo media shared by many seeded clips and recordings, named by
//                                   a hash of its bytes; their audio.json / current.json point at it
//
// No imports: the demo seed reads these without loading the decoders.
type Res = 'high' | 'low';
type Ext = 'dat' | 'json';

export const mediaFiles = {
  audio: (folder: string) => `${folder}/audio`,
  waveform: (folder: string, res: Res, ext: Ext) => `${folder}/waveform-${res}.${ext}`,
};

export const clipKeys = {
  dir: (clipId: string) => `clips/${clipId}`,
  audio: (clipId: string) => mediaFiles.audio(clipKeys.dir(clipId)),
  meta: (clipId: string) => `clips/${clipId}/audio.json`,
  waveform: (clipId: string, res: Res, ext: Ext) => mediaFiles.waveform(clipKeys.dir(clipId), res, ext),
  cut: (clipId: string) => `clips/${clipId}/cut.json`,
  /** An upload received while the clip serves an earlier one (UploadMeta), until it is processed. */
  pending: (clipId: string) => `clips/${clipId}/pending.json`,
  /** The version the clip serves publicly (PublishedVersion, published-media.ts). */
  published: (clipId: string) => `clips/${clipId}/published.json`,
  versionFolder: (clipId: string, version: string) => `clips/${clipId}/versions/${version}`,
  /** A version's own PublishedVersion, so an earlier version is still served right until it is swept. */
  versionMeta: (clipId: string, version: string) => `clips/${clipId}/versions/${version}/version.json`,
  /** One upload's own media folder (the original, never overwritten). */
  uploadFolder: (clipId: string, uploadId: string) => `clips/${clipId}/uploads/${uploadId}`,
};

/** A clip's media URLs; `version` (v) names the published version, so a cache never mixes two. */
export const clipUrls = {
  audio: (clipId: string, version?: string) => `/api/media/clips/${clipId}/audio${version ? `?v=${version}` : ''}`,
  waveform: (clipId: string, res: Res, version?: string) => `/api/media/clips/${clipId}/waveform-${res}.dat${version ? `?v=${version}` : ''}`,
  original: (clipId: string) => `/api/internal/clips/${clipId}/original-audio`,
};

export const recordingKeys = {
  dir: (id: string) => `recordings/${id}`,
  upload: (id: string, uploadId: string) => `recordings/${id}/${uploadId}`,
  audio: (id: string, uploadId: string) => mediaFiles.audio(recordingKeys.upload(id, uploadId)),
  waveform: (id: string, uploadId: string, res: Res, ext: Ext) => mediaFiles.waveform(recordingKeys.upload(id, uploadId), res, ext),
  current: (id: string) => `recordings/${id}/current.json`,
  ingest: (id: string) => `recordings/${id}/ingest.json`,
};

export const recordingUrls = {
  audio: (id: string) => `/api/media/recordings/${id}/audio`,
  waveform: (id: string, res: Res) => `/api/media/recordings/${id}/waveform-${res}.dat`,
};

export const demoKeys = {
  dir: (mediaId: string) => `demo/${mediaId}`,
  info: (mediaId: string) => `demo/${mediaId}/info.json`,
};

/** A clip's audio.json: its upload, and the shared media folder serving it when it is not the clip's
 * own. uploadId is new for every stored file, so what was made from an earlier file (a cut render)
 * is known to be stale even when the new file has the same name and size. */
export type UploadMeta = { fileName: string; contentType: string; size: number; media?: string; uploadId?: string };

/** A recording's current.json: the ingest its media URLs serve (in `media` when that is a shared folder). */
export type CurrentAudio = { uploadId: string; contentType: string; durationSeconds: number; fileName?: string; media?: string };

/** Which media folder serves the clip described by `meta`. */
export const clipMediaFolder = (clipId: string, meta: UploadMeta) => meta.media ?? clipKeys.dir(clipId);

/** Which media folder serves the recording described by `current`. */
export const recordingMediaFolder = (id: string, current: CurrentAudio) => current.media ?? recordingKeys.upload(id, current.uploadId);

/** The clip or recording a media URL of this server names (`/api/media/{clips|recordings}/{id}/audio`), or null. */
export function parseMediaAudioPath(path: string): { kind: 'clip' | 'recording'; id: string } | null {
  const m = /^\/api\/media\/(clips|recordings)\/([0-9a-fA-F-]{36})\/audio$/.exec(path);
  if (!m) return null;
  return { kind: m[1] === 'clips' ? 'clip' : 'recording', id: m[2]!.toLowerCase() };
}
