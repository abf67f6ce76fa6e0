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
import type { SyncEntity } from '../../protocol/entity-kinds.ts';
import { saveClipTranscript, saveRecordingTranscript } from '../../db/writes.ts';
import { call, type ApiResult } from '../../lib/api.ts';
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

export const CLIP_TRANSCRIPT: TranscriptOwner = {
  kind: 'clip',
  entity: 'clips',
  mutationName: clipSetTranscript.name,
  save: saveClipTranscript,
  get: (clipId) => call(getClipTranscript, { params: { clipId } }),
  remove: (clipId) => call(deleteClipTranscript, { params: { clipId } }),
  reset: (clipId) => call(resetClipTranscript, { params: { clipId } }),
  getTranscription: (clipId) => call(getClipTranscription, { params: { clipId } }),
  startTranscription: (clipId, language, publish) => call(startClipTranscription, { params: { clipId }, query: { language, publish: publish ? 'true' : 'false' } }),
  setPublished: (clipId, Cues, Published) => call(putClipTranscript, { params: { clipId }, json: { Cues, Published } }),
  words: {
    none: () => m.clips_transcript_none(),
    player: () => m.clips_transcript_player(),
    offlineEditing: () => m.clips_transcript_offline_editing(),
    deleteText: () => m.clips_transcript_delete_text(),
    transcriptionHint: () => m.clips_transcription_hint(),
    transcriptionCompleted: (engine) => m.clips_transcription_completed({ engine }),
  },
};

export const RECORDING_TRANSCRIPT: TranscriptOwner = {
  kind: 'recording',
  entity: 'recordings',
  mutationName: recordingSetTranscript.name,
  save: saveRecordingTranscript,
  get: (recordingId) => call(getRecordingTranscript, { params: { recordingId } }),
  remove: (recordingId) => call(deleteRecordingTranscript, { params: { recordingId } }),
  reset: (recordingId) => call(resetRecordingTranscript, { params: { recordingId } }),
  getTranscription: (recordingId) => call(getRecordingTranscription, { params: { recordingId } }),
  startTranscription: (recordingId, language) => call(startRecordingTranscription, { params: { recordingId }, query: { language } }),
  words: {
    none: () => m.transcripts_recording_none(),
    player: () => m.transcripts_recording_player(),
    offlineEditing: () => m.transcripts_recording_offline_editing(),
    deleteText: () => m.transcripts_recording_delete_text(),
    transcriptionHint: () => m.transcripts_recording_transcription_hint(),
    transcriptionCompleted: (engine) => m.transcripts_recording_transcription_completed({ engine }),
  },
};
