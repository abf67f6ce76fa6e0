// The server run of clip.setTranscript (src/mutations/transcripts.ts): content access on the clip's
// program (section 6, as the PUT route), the cues checked by the rule the editor ran
// (src/domain/transcripts.ts: refused at Cues.<n>), then written only if the transcript is still
// the one the edit was made on (409 at Cues otherwise, with nothing written). Not batchable: the
// transcript's own table is written beside the clip row.
import { checkCues } from '../../src/domain/transcripts.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { clipSetTranscript } from '../../src/mutations/transcripts.ts';
import { cueFromWire } from '../../src/protocol/api/transcripts.ts';
import { loadClipTranscript, putTranscriptIn, refusedCues } from '../api/transcripts.ts';
import { AppError, fieldError } from '../errors.ts';
import { serverMutation } from './run.ts';
import { lockContent, requireFlags } from './store.ts';

export const TRANSCRIPT_RUNS = [
  serverMutation(
    clipSetTranscript,
    async (s, a) => {
      const { current, flags } = await lockContent(s, 'clip', a.clipId);
      requireFlags(flags, 'HasContentAccess');
      const checked = checkCues(a.Cues.map(cueFromWire));
      if (!checked.ok) refusedCues(checked.error, checked.cue, 'Cues');
      const existing = await loadClipTranscript(s.q, a.clipId, true);
      const at = existing ? new Date(existing.modified_at_utc).toISOString() : null;
      if (at !== a.BaseModifiedAtUtc) throw new AppError(409, { Errors: [fieldError('Cues', formError('invalid', 'domain_transcript_changed_elsewhere'))] });
      const { content } = await putTranscriptIn(s.q, { organizationId: s.auth.organizationId, userId: s.write.userId }, 'clip', a.clipId, { cues: checked.cues }, s.write.now, (cur, next) => s.update('clip', cur, next));
      return content ?? current;
    },
    { batchable: false },
  ),
];
