// Whose transcript the shared editor (TranscriptEditor.tsx) and its automatic transcription
// (Transcription.tsx) work on: a clip's or a recording's. What differs is only here: the routes, the
// named mutation and the device write, and the few words that name the owner. A recording's
// transcript is never public, so it has no "publish".
import { clipSetTranscript, recordingSetTranscript } from '../../mutations/transcripts.ts';
import {
  deleteClipTranscript,
  deleteRecordingTranscript,
  getClipTranscript,
  putClipTranscript,
  getRecordingTranscript,
  resetClipTranscript,
  resetRecordingTranscript,
  type Transcript,
  type TranscriptCueWire,
} from '../../protocol/api/transcripts.ts';
import { getClipTranscription, getRecordingTranscription, startClipTranscription, startRecordingTranscription, type Transcription } from '../../protocol/api/transcription.ts';
import type * as z from 'zod';
import type { MutationDef } from '../../mutations/define.ts';
import type { SyncEntity } from '../../protocol/entity-kinds.ts';
import { saveClipTranscript, saveRecordingTranscript } from '../../db/writes.ts';
import { call, type ApiResult, type ApiRoute } from '../../lib/api.ts';
import { m } from '../../paraglide/messages.js';

export type TranscriptOwnerKind = 'clip' | 'recording';

type Answer<T> = Promise<ApiResult<T>>;

export type TranscriptOwner = {
  kind: TranscriptOwnerKind;
  /** The device table its row is in (the queued edit is on it). */
  entity: SyncEntity;
  /** The named mutation an edit is queued as. */
  mutationName: string;
  save: (id: string, cues: TranscriptCueWire[], base: string | null) => Promise<void>;
  get: (id: string) => Answer<Transcript>;
  remove: (id: string) => Answer<unknown>;
  reset: (id: string) => Answer<Transcript>;
  getTranscription: (id: string) => Answer<Transcription>;
  startTranscription: (id: string, language: string, publish: boolean) => Answer<unknown>;
  /** Publishes or withdraws the transcript with its owner (a clip's, in its feed items); absent: never public. */
  setPublished?: (id: string, cues: TranscriptCueWire[], published: boolean) => Answer<Transcript>;
  words: {
    none: () => string;
    player: () => string;
    offlineEditing: () => string;
    deleteText: () => string;
    transcriptionHint: () => string;
    transcriptionCompleted: (engine: string) => string;
  };
};

/** A route the editor calls with the owner's id as its one path parameter (P: clipId or recordingId). */
type ByIdRoute<P extends string> = ApiRoute & { request: { params: z.ZodType<Record<P, string>> } };
/** …whose 200 answer is T (a transcript, or where its transcription is). */
type Answering<T> = { responses: { 200: { content: { 'application/json': { schema: z.ZodType<T> } } } } };

/** An owner's entry from its routes, its named mutation and device write, and its words: the calls
 * are the same for both but for the path parameter that names the owner, and "publish", which only
 * a clip has (its PUT publishes or withdraws; its transcription may be asked to publish). */
function transcriptOwner<P extends string>(owner: {
  kind: TranscriptOwnerKind;
  mutation: Pick<MutationDef, 'name' | 'entity'>;
  save: TranscriptOwner['save'];
  idParam: P;
  routes: {
    get: ByIdRoute<P> & Answering<Transcript>;
    remove: ByIdRoute<P>;
    reset: ByIdRoute<P> & Answering<Transcript>;
    getTranscription: ByIdRoute<P> & Answering<Transcription>;
    startTranscription: ByIdRoute<P>;
    /** The PUT that publishes (absent: never public). */
    publish?: ByIdRoute<P> & Answering<Transcript>;
  };
  words: TranscriptOwner['words'];
}): TranscriptOwner {
  const { routes, idParam } = owner;
  // The one place the typed input of call() is given up: it cannot see that { [idParam]: id } is the
  // params object of every route above (ByIdRoute says so), nor their answers (Answering says so).
  const byId = <T>(route: ApiRoute, id: string, rest: { query?: object; json?: unknown } = {}) =>
    call(route, { params: { [idParam]: id }, ...rest } as never) as Answer<T>;
  const publish = routes.publish;
  return {
    kind: owner.kind,
    entity: owner.mutation.entity,
    mutationName: owner.mutation.name,
    save: owner.save,
    get: (id) => byId<Transcript>(routes.get, id),
    remove: (id) => byId<unknown>(routes.remove, id),
    reset: (id) => byId<Transcript>(routes.reset, id),
    getTranscription: (id) => byId<Transcription>(routes.getTranscription, id),
    startTranscription: (id, language, publishIt) =>
      byId<unknown>(routes.startTranscription, id, { query: publish ? { language, publish: publishIt ? 'true' : 'false' } : { language } }),
    ...(publish && { setPublished: (id: string, Cues: TranscriptCueWire[], Published: boolean) => byId<Transcript>(publish, id, { json: { Cues, Published } }) }),
    words: owner.words,
  };
}

export const CLIP_TRANSCRIPT = transcriptOwner({
  kind: 'clip',
  mutation: clipSetTranscript,
  save: saveClipTranscript,
  idParam: 'clipId',
  routes: {
    get: getClipTranscript,
    remove: deleteClipTranscript,
    reset: resetClipTranscript,
    getTranscription: getClipTranscription,
    startTranscription: startClipTranscription,
    publish: putClipTranscript,
  },
  words: {
    none: () => m.clips_transcript_none(),
    player: () => m.clips_transcript_player(),
    offlineEditing: () => m.clips_transcript_offline_editing(),
    deleteText: () => m.clips_transcript_delete_text(),
    transcriptionHint: () => m.clips_transcription_hint(),
    transcriptionCompleted: (engine) => m.clips_transcription_completed({ engine }),
  },
});

export const RECORDING_TRANSCRIPT = transcriptOwner({
  kind: 'recording',
  mutation: recordingSetTranscript,
  save: saveRecordingTranscript,
  idParam: 'recordingId',
  routes: {
    get: getRecordingTranscript,
    remove: deleteRecordingTranscript,
    reset: resetRecordingTranscript,
    getTranscription: getRecordingTranscription,
    startTranscription: startRecordingTranscription,
  },
  words: {
    none: () => m.transcripts_recording_none(),
    player: () => m.transcripts_recording_player(),
    offlineEditing: () => m.transcripts_recording_offline_editing(),
    deleteText: () => m.transcripts_recording_delete_text(),
    transcriptionHint: () => m.transcripts_recording_transcription_hint(),
    transcriptionCompleted: (engine) => m.transcripts_recording_transcription_completed({ engine }),
  },
});
