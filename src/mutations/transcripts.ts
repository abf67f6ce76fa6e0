// A clip's transcript edited on the device (issue 34: "edits offline through named mutations").
// The transcript is held by the server, not synced (it can be long and only the clip screen reads
// it), so the edit is an action on the clip: the whole cue list as the editor left it, and the
// transcript's ModifiedAtUtc it was edited from. The server run (sync-server/mutations/transcripts.ts)
// writes it only if the transcript is still that one: a transcript changed elsewhere meanwhile
// (another editor, an import, a finished automatic transcription) refuses the edit, which the
// screen shows with the edit kept as a draft, to save over the other or to discard. Never merged
// silently: two people's cue lists cannot be merged cue by cue without guessing.
import * as z from 'zod';
import { TranscriptCueSchema } from '../protocol/api/transcripts.ts';
import { TRANSCRIPT_MAX_CUES } from '../domain/transcripts.ts';
import { Uuid } from '../protocol/entities.ts';
import { defineMutation } from './define.ts';

export const clipSetTranscript = defineMutation({
  name: 'clip.setTranscript',
  entity: 'clips',
  kind: 'action',
  args: z
    .object({
      clipId: Uuid.transform((s) => s.toLowerCase()),
      Cues: z.array(TranscriptCueSchema).max(TRANSCRIPT_MAX_CUES),
      /** The transcript's ModifiedAtUtc the edit was made on; null: there was none. */
      BaseModifiedAtUtc: z.string().nullable(),
    })
    .strict(),
  rowId: (a) => a.clipId,
  // The clip row is the server's to change (TranscriptStatus, the public transcript URL).
  apply: (row) => row,
});
