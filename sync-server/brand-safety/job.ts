// A clip's brand-safety analysis as a durable job (GET /v1/clips/{clipId}/brand-safety and the
// staff retry; rules: src/domain/brand-safety.ts). The analysis reads the clip's title,
// description and transcript cues, so it is made again when those change: each read compares the
// fingerprint of the texts now with the stored one and, when they differ, queues the job in the
// same transaction that records the request.
//
//   read (texts changed, or never analyzed) ──tx: row Queued (requested fingerprint) + job──> job
//   staff retry ───────────────────────────────────────────────────────────────────────────────> job
//   job: read the texts again ─ analyze ─ store result + the fingerprint of what it read ─> Completed
//        the database failing: tried again (backoff); the last attempt failing ─> Failed + why
//
// The job reads the texts when it runs, not when it was asked, so an edit made meanwhile is in the
// result; the row's fingerprint is what the result was made from, and a later read finds it stale
// only if the texts changed again.
import * as z from 'zod';
import { analyzeBrandSafety, brandSafetyFingerprint, type BrandSafetyAnalysis, type BrandSafetyText } from '../../src/domain/brand-safety.ts';
import type { BrandSafety } from '../../src/protocol/api/brand-safety.ts';
import type { TranscriptCueWire } from '../../src/protocol/api/transcripts.ts';
import type { AppDeps } from '../app.ts';
import { now } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { WireRow } from '../rows.ts';
import { loadRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';

export const BRAND_SAFETY_JOB = 'clip.brandSafety';
const ATTEMPTS = 3;
/**
 * A failed analysis's Problem, as the API answers it (the screen says it in the reader's language).
 * Its cause (the database's error, an instance that stopped) is in the server's log and on the
 * failed job (jobs.last_error) for operators: an integrator or a producer has no use for it, and an
 * exposed service does not tell them its internals.
 */
export const BRAND_SAFETY_GAVE_UP = `The analysis did not complete after ${ATTEMPTS} attempts.`;

const Payload = z.object({ clipId: z.string(), organizationId: z.string() });
type Payload = z.infer<typeof Payload>;

type Row = {
  status: 'Queued' | 'Completed' | 'Failed';
  requested_fingerprint: string | null;
  requested_at_utc: Date | null;
  fingerprint: string | null;
  result: BrandSafetyAnalysis | null;
  read_transcript: boolean;
  problem: string | null;
  attempts: number;
  analyzed_at_utc: Date | null;
};

/** What the analysis reads of a clip: its title, description and transcript cues, in that order. */
export async function brandSafetyTexts(q: Queryable, clip: WireRow): Promise<{ texts: BrandSafetyText[]; readTranscript: boolean }> {
  const texts: BrandSafetyText[] = [];
  if (typeof clip['Title'] === 'string' && clip['Title'] !== '') texts.push({ source: 'Title', text: clip['Title'] });
  if (typeof clip['Description'] === 'string' && clip['Description'] !== '') texts.push({ source: 'Description', text: clip['Description'] });
  const [transcript] = await q.query<{ cues: TranscriptCueWire[] }>(`SELECT cues FROM clip_transcripts WHERE clip_id = $1`, [clip.Id]);
  for (const cue of transcript?.cues ?? []) texts.push({ source: 'Transcript', text: cue.Text, startSeconds: cue.StartSeconds });
  return { texts, readTranscript: transcript !== undefined };
}

/** Records a request for the clip's analysis (made from `fingerprint`) and queues the job, in the caller's transaction. */
export async function requestBrandSafety(q: Queryable, p: Payload, fingerprint: string | null, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO clip_brand_safety (clip_id, organization_id, status, requested_fingerprint, requested_at_utc)
     VALUES ($1, $2, 'Queued', $3, $4)
     ON CONFLICT (clip_id) DO UPDATE SET status = 'Queued', requested_fingerprint = $3, requested_at_utc = $4, problem = NULL, attempts = 0`,
    [p.clipId, p.organizationId, fingerprint, at],
  );
  await enqueueJob(q, BRAND_SAFETY_JOB, p, { singletonKey: `${BRAND_SAFETY_JOB}:${p.clipId}`, rerunIfRunning: true, maxAttempts: ATTEMPTS });
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/**
 * The clip's analysis as GET answers it; when its texts changed since the last one (or there never
 * was one) a new one is requested first. Runs in the caller's transaction.
 */
export async function readBrandSafety(q: Queryable, clip: WireRow, at: Date): Promise<BrandSafety> {
  const { texts, readTranscript } = await brandSafetyTexts(q, clip);
  const current = brandSafetyFingerprint(texts);
  let [row] = await q.query<Row>(`SELECT * FROM clip_brand_safety WHERE clip_id = $1 FOR UPDATE`, [clip.Id]);
  const asked = row?.status === 'Queued' && row.requested_fingerprint === current;
  // A failed analysis is not asked again by reading it (staff retry it): reading would loop on it.
  const failedForThis = row?.status === 'Failed' && row.requested_fingerprint === current;
  if (row?.fingerprint !== current && !asked && !failedForThis) {
    await requestBrandSafety(q, { clipId: clip.Id, organizationId: String(clip['OrganizationId']) }, current, at);
    [row] = await q.query<Row>(`SELECT * FROM clip_brand_safety WHERE clip_id = $1`, [clip.Id]);
  }
  const result = row?.result ?? null;
  return {
    ClipId: clip.Id,
    Status: row ? row.status : 'NotAnalyzed',
    Stale: result !== null && row?.fingerprint !== current,
    Risk: result?.Risk ?? null,
    Categories: result?.Categories ?? [],
    ReadTranscript: result !== null ? (row?.read_transcript ?? false) : readTranscript,
    WordsRead: result?.WordsRead ?? 0,
    Problem: row?.problem ?? null,
    Attempts: row?.attempts ?? 0,
    AnalyzedAtUtc: iso(row?.analyzed_at_utc ?? null),
    RequestedAtUtc: iso(row?.requested_at_utc ?? null),
  };
}

async function analyze(deps: AppDeps, p: Payload, attempt: number): Promise<void> {
  await deps.store.tx(async (q) => {
    await q.query(`UPDATE clip_brand_safety SET attempts = $2 WHERE clip_id = $1`, [p.clipId, attempt]);
    const clip = await loadRow(q, 'clip', p.organizationId, p.clipId);
    // A clip deleted meanwhile: its row goes with it (ON DELETE CASCADE) or stays as the last one made.
    if (!clip || clip.Deleted) return;
    const { texts, readTranscript } = await brandSafetyTexts(q, clip);
    const result = analyzeBrandSafety(texts);
    await q.query(
      `UPDATE clip_brand_safety SET status = 'Completed', result = $2::jsonb, fingerprint = $3, read_transcript = $4, analyzed_at_utc = $5, problem = NULL
       WHERE clip_id = $1`,
      [p.clipId, JSON.stringify(result), brandSafetyFingerprint(texts), readTranscript, now(deps)],
    );
  });
}

export function brandSafetyJobs(deps: AppDeps): JobHandlers {
  return {
    [BRAND_SAFETY_JOB]: defineJob({
      payload: Payload,
      run: (p, job) => analyze(deps, p, job.attempt),
      // A request made while the last attempt ran (a change to the texts, a staff retry) keeps its
      // Queued for the run it asked for (unlessRerun: its row is locked first, the order
      // requestBrandSafety writes them in), instead of showing Failed until that run ends.
      giveUp: (p, _error, ctx) =>
        ctx.unlessRerun(
          (q) => q.query(`SELECT status FROM clip_brand_safety WHERE clip_id = $1 FOR UPDATE`, [p.clipId]),
          (q) => q.query(`UPDATE clip_brand_safety SET status = 'Failed', problem = $2 WHERE clip_id = $1`, [p.clipId, BRAND_SAFETY_GAVE_UP]),
        ),
    }),
  };
}
