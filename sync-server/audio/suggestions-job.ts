// The job that makes a clip's suggested mid-rolls and chapters (issue 34; clip.suggest), queued by
// GET …/suggested/{kind} when nothing is stored for the clip's current audio. It decodes the
// published audio once (src/media, as the processing job does), finds its silences
// (src/media/silences.ts), reads the transcript if the clip has one, and fills the kinds waiting
// for it with src/domain/suggestions.ts's picks: mid-rolls within the rules the clip is held to,
// chapters at long silences and the transcript's pauses and changes of words.
//
//   GET (none for this audio) ──row Pending + job, one transaction──> job: decode ─ silences ─ pick
//                                                                       └──> rows Ready (or Failed)
import * as z from 'zod';
import { effectiveAdMarkerRules, type AdMarker, type AdMarkerRules } from '../../src/domain/ad-markers.ts';
import type { Chapter } from '../../src/domain/chapters.ts';
import { suggestChapters, suggestMidRolls } from '../../src/domain/suggestions.ts';
import { openAudioDecoding } from '../../src/media/decode.ts';
import { findSilences, type Silence } from '../../src/media/silences.ts';
import { blobSource } from '../../src/media/source.ts';
import type { TranscriptCueWire } from '../../src/protocol/api/transcripts.ts';
import type { AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { registerNodeAudioDecoders } from '../media/node-decoder.ts';
import { loadRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import type { BlobStore } from './blob-store.ts';
import { publishedAudio } from './published-media.ts';

registerNodeAudioDecoders();

export const CLIP_SUGGEST_JOB = 'clip.suggest';
const Payload = z.object({ clipId: z.string(), organizationId: z.string() });
type Payload = z.infer<typeof Payload>;

export type SuggestionKind = 'ad-markers' | 'chapters';

/**
 * Marks the kind asked for as being made for this audio, and the other kind too unless it is
 * stored by a PUT or made for this audio already (one decode serves both), and queues the job, in
 * the caller's transaction.
 */
export async function requestSuggestions(q: Queryable, p: Payload, kind: SuggestionKind, audioEtag: string): Promise<void> {
  for (const k of ['ad-markers', 'chapters'] as const) {
    await q.query(
      `INSERT INTO clip_suggestions AS s (clip_id, kind, organization_id, status, items, made_by, audio_etag, modified_at_utc)
       VALUES ($1, $2, $3, 'Pending', '[]', 'Studio', $4, now())
       ON CONFLICT (clip_id, kind) DO UPDATE SET status = 'Pending', items = '[]', made_by = 'Studio', audio_etag = $4, modified_at_utc = now()
       WHERE $5::boolean OR (s.made_by <> 'Api' AND s.audio_etag IS DISTINCT FROM $4)`,
      [p.clipId, k, p.organizationId, audioEtag, k === kind],
    );
  }
  await enqueueJob(q, CLIP_SUGGEST_JOB, p, { singletonKey: `${CLIP_SUGGEST_JOB}:${p.clipId}`, rerunIfRunning: true, maxAttempts: 3 });
}

/**
 * Settles the clip's pending suggestions. `audioEtag`: those of the audio the job decoded only; a
 * version that landed while it decoded has its own request pending (the studio's next GET, or the
 * job's rerun), which the older audio's results must not answer. Null settles every pending one
 * (the clip has no audio, or the job gave up).
 */
async function settle(q: Queryable, clipId: string, status: 'Ready' | 'Failed', items: Partial<Record<SuggestionKind, unknown[]>>, audioEtag: string | null): Promise<void> {
  for (const kind of ['ad-markers', 'chapters'] as const) {
    await q.query(
      `UPDATE clip_suggestions SET status = $3, items = $4::jsonb, modified_at_utc = now() WHERE clip_id = $1 AND kind = $2 AND status = 'Pending' AND ($5::text IS NULL OR audio_etag = $5)`,
      [clipId, kind, status, JSON.stringify(items[kind] ?? []), audioEtag],
    );
  }
}

const finish = (deps: AppDeps, clipId: string, status: 'Ready' | 'Failed', items: Partial<Record<SuggestionKind, unknown[]>>, audioEtag: string | null) =>
  deps.store.tx((q) => settle(q, clipId, status, items, audioEtag));

async function makeSuggestions(deps: AppDeps, blobs: BlobStore, p: Payload): Promise<void> {
  const clip = await loadRow(deps.store, 'clip', p.organizationId, p.clipId);
  const audio = await publishedAudio(blobs, p.clipId);
  if (!clip || clip.Deleted || !audio) return finish(deps, p.clipId, 'Failed', {}, null);
  let silences: Silence[];
  try {
    const decoding = await openAudioDecoding(blobSource(await blobs.blob(audio.key)), { reuseBuffers: true });
    silences = await findSilences(decoding.blocks);
  } catch {
    return finish(deps, p.clipId, 'Failed', {}, audio.etag);
  }
  const program = await loadRow(deps.store, 'program', p.organizationId, String(clip['ProgramId']));
  const { Rules } = effectiveAdMarkerRules(program?.['AdMarkerRules'] as AdMarkerRules | null | undefined, clip['AdMarkerRulesOverride'] as AdMarkerRules | null | undefined);
  const [transcript] = await deps.store.query<{ cues: TranscriptCueWire[] }>(`SELECT cues FROM clip_transcripts WHERE clip_id = $1`, [p.clipId]);
  const cues = (transcript?.cues ?? []).map((c) => ({ start: c.StartSeconds, end: c.EndSeconds, text: c.Text }));
  const chapters = (clip['Chapters'] as Chapter[] | undefined) ?? [];
  await finish(deps, p.clipId, 'Ready', {
    'ad-markers': suggestMidRolls(silences, Rules, audio.durationSeconds, (clip['AdMarkers'] as AdMarker[] | undefined) ?? []),
    chapters: suggestChapters(silences, cues, audio.durationSeconds, chapters.map((c) => c.StartSeconds)),
  }, audio.etag);
}

export function suggestionJobs(deps: AppDeps, blobs: BlobStore): JobHandlers {
  return {
    [CLIP_SUGGEST_JOB]: defineJob({
      pool: 'audio',
      payload: Payload,
      run: (p) => makeSuggestions(deps, blobs, p),
      // New audio's request asked while the last attempt ran has its run next, which settles those
      // rows (unlessRerun locks them first, the order requestSuggestions writes them in).
      giveUp: (p, _error, ctx) =>
        ctx.unlessRerun(
          (q) => q.query(`SELECT kind FROM clip_suggestions WHERE clip_id = $1 ORDER BY kind FOR UPDATE`, [p.clipId]),
          (q) => settle(q, p.clipId, 'Failed', {}, null),
        ),
    }),
  };
}
