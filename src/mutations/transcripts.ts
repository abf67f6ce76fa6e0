// A clip's or a recording's transcript edited on the device (issue 34: "edits offline through named
// mutations"). The transcript is held by the server, not synced (it can be long and only its own
// screen reads it), so the edit is an action on its clip or recording: the whole cue list as the
// editor left it, and the transcript's ModifiedAtUtc it was edited from. The server run
// (sync-server/mutations/transcripts.ts, one for both owners) writes it only if the transcript is
// still that one: a transcript changed elsewhere meanwhile (another editor, an import, a finished
// automatic transcription) refuses the edit, which the screen shows with the edit kept as a draft,
// to save over the other or to discard. Never merged silently: two people's cue lists cannot be
// merged cue by cue without guessing. The REST PUT of a transcript is the same mutation (runRest),
// with the body's Language (and a clip's Published) beside the cues.
import * as z from 'zod';
import { Language, TranscriptCueSchema } from '../protocol/api/transcripts.ts';
import { TRANSCRIPT_MAX_CUES } from '../domain/transcripts.ts';
import { Uuid } from '../protocol/entities.ts';
import { defineMutation } from './define.ts';

/** What an edit of either owner's transcript carries. */
const edit = {
  Cues: z.array(TranscriptCueSchema).max(TRANSCRIPT_MAX_CUES),
  /** The transcript's ModifiedAtUtc the edit was made on; null: there was none. */
  BaseModifiedAtUtc: z.string().nullable(),
  /** The language it is in (REST's body); kept as it was when absent. */
  Language: Language.nullable().optional(),
};
const LowerUuid = Uuid.transform((s) => s.toLowerCase());

export const clipSetTranscript = defineMutation({
  name: 'clip.setTranscript',
  entity: 'clips',
  kind: 'action',
  args: z
    .object({
      clipId: LowerUuid,
      ...edit,
      /** Published at the clip's public transcript URL (REST's body); kept as it was when absent. */
      Published: z.boolean().optional(),
    })
    .strict(),
  rowId: (a) => a.clipId,
  // The clip row is the server's to change (TranscriptStatus, the public transcript URL).
  apply: (row) => row,
});

/** A recording's: as a clip's, never published (a recording has no listeners). */
export const recordingSetTranscript = defineMutation({
  name: 'recording.setTranscript',
  entity: 'recordings',
  kind: 'action',
  args: z.object({ recordingId: LowerUuid, ...edit }).strict(),
  rowId: (a) => a.recordingId,
  // The recording row is the server's to change (TranscriptStatus).
  apply: (row) => row,
});

/** The set-transcript mutation of each owner (the editor and the server pick theirs by owner). */
export const SET_TRANSCRIPT = { clip: clipSetTranscript, recording: recordingSetTranscript } as const;
