// The server runs of clip.setTranscript and recording.setTranscript (src/mutations/transcripts.ts),
// one rule for both owners, whether the edit came in a sync push or as the REST PUT (runRest):
// content access on the row's program (section 6, as the routes), the cues checked by the rule the
// editor ran (src/domain/transcripts.ts: refused at Cues.<n>), then written only if the transcript
// is still the one the edit was made on (409 at Cues otherwise, with nothing written). Not
// batchable: the transcript's own table is written beside the content row.
import { checkCues } from '../../src/domain/transcripts.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { clipSetTranscript, recordingSetTranscript } from '../../src/mutations/transcripts.ts';
import { cueFromWire, type TranscriptCueWire } from '../../src/protocol/api/transcripts.ts';
import { loadOwnerTranscript, putTranscriptIn, refusedCues, type Owner } from '../api/transcripts.ts';
import { AppError, fieldError } from '../errors.ts';
import type { WireRow } from '../rows.ts';
import { serverMutation } from './run.ts';
import { lockContent, requireFlags, type OpStore } from './store.ts';

type Edit = { Cues: TranscriptCueWire[]; BaseModifiedAtUtc: string | null; Language?: string | null | undefined; Published?: boolean | undefined };

async function setTranscript(s: OpStore, entity: Owner['entity'], id: string, a: Edit): Promise<WireRow> {
  const { current, flags } = await lockContent(s, entity, id);
  requireFlags(flags, 'HasContentAccess');
  const checked = checkCues(a.Cues.map(cueFromWire));
  if (!checked.ok) refusedCues(checked.error, checked.cue, 'Cues');
  const existing = await loadOwnerTranscript(s.q, entity, id, true);
  const at = existing ? new Date(existing.modified_at_utc).toISOString() : null;
  if (at !== a.BaseModifiedAtUtc) throw new AppError(409, { Errors: [fieldError('Cues', formError('invalid', 'domain_transcript_changed_elsewhere'))] });
  const written = { cues: checked.cues, language: a.Language, published: a.Published };
  const { content } = await putTranscriptIn(s.q, { organizationId: s.auth.organizationId, userId: s.write.userId }, entity, id, written, s.write.now, (cur, next) => s.update(entity, cur, next));
  return content ?? current;
}

export const TRANSCRIPT_RUNS = [
  serverMutation(clipSetTranscript, (s, a) => setTranscript(s, 'clip', a.clipId, a), { batchable: false }),
  serverMutation(recordingSetTranscript, (s, a) => setTranscript(s, 'recording', a.recordingId, a), { batchable: false }),
];
