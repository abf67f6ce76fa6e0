// Publishing on the server: the runs of clip.publish and clip.unpublish, the jobs that do the work
// after commit, and ScheduledVisibility applied at VisibleAtUtc (specification section 4).
//
//   clip.publish ──rules (400 naming the field)──> PublishState Publishing + job, one transaction
//   clip.unpublish ─────────────────────────────> PublishState Unpublishing + job
//   job 'publishing.apply' (singleton per clip; reads what the row's PublishState asks NOW, so a
//   publish and an unpublish sent in quick succession end as the last one sent):
//     Publishing / Published ──audio there, rules hold──> Published: PublishedUtc, Slug, public URLs
//                            └─otherwise──> Unpublished + PublishProblem (the screen shows why)
//     Unpublishing ──> Unpublished, the public audio URLs cleared
//   clip saved with ScheduledVisibility and VisibleAtUtc ──> job 'publishing.schedule' at
//     VisibleAtUtc: the row still holds that schedule ──> Visibility set, schedule cleared, and
//     Publishing (or Unpublishing, for a Private schedule) + 'publishing.apply'; a changed or
//     cleared schedule deletes the queued job, and one already running finds the row changed and
//     does nothing.
import * as z from 'zod';
import { deepEqual } from '../../src/protocol/json-equal.ts';
import { visibilityNeeds } from '../../src/domain/clip.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { editRepublishes, hasReadyAudio, publishRequirements, publishSlug, PublishProblem, scheduledOutcome } from '../../src/domain/publishing.ts';
import { clipPublish, clipUnpublish } from '../../src/mutations/publishing.ts';
import { clipCreate, clipDelete, clipUpdate } from '../../src/mutations/content.ts';
import type { ClipUrls } from '../../src/protocol/entities.ts';
import { now, type AppDeps } from '../app.ts';
import type { BlobStore } from '../audio/blob-store.ts';
import { assertValid } from '../errors.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, plainTransaction, type JobHandlers } from '../jobs/runner.ts';
import { serverMutation, type ServerMutation } from '../mutations/run.ts';
import { lockContent } from '../mutations/store.ts';
import { loadRow, updateRow, type WireRow } from '../rows.ts';
import { clipPublicUrls } from '../routes/content-rules.ts';
import type { Queryable } from '../store/store.ts';
import { publishedAudio } from '../audio/published-media.ts';
import { applyAutoAdd } from '../mutations/playlists.ts';

export const APPLY_JOB = 'publishing.apply';
export const SCHEDULE_JOB = 'publishing.schedule';

const ApplyPayload = z.object({ organizationId: z.string(), clipId: z.string() });
const SchedulePayload = z.object({ organizationId: z.string(), clipId: z.string(), visibility: z.string(), at: z.string() });

const scheduleKeyPrefix = (clipId: string) => `${SCHEDULE_JOB}:${clipId}:`;

/** Queues the job that does what the clip's PublishState asks (in the caller's transaction). */
export function enqueuePublishing(q: Queryable, organizationId: string, clipId: string) {
  return enqueueJob(q, APPLY_JOB, { organizationId, clipId }, { singletonKey: `${APPLY_JOB}:${clipId}`, rerunIfRunning: true });
}

/** Slugs of the program's other live clips that start like `base` (what slugFromTitle may try). */
async function slugsLike(q: Queryable, programId: string, clipId: string, base: string): Promise<Set<string>> {
  const rows = await q.query<{ slug: string }>(`SELECT slug FROM clips WHERE program_id = $1 AND id <> $2 AND NOT deleted AND slug LIKE $3`, [
    programId,
    clipId,
    `${base.replace(/[\\%_]/g, (m) => `\\${m}`)}%`,
  ]);
  return new Set(rows.map((r) => r.slug));
}

/** The slug the clip would be published with, checked against its program's clips. */
async function slugInProgram(q: Queryable, row: WireRow): Promise<{ slug: string | null; taken: (slug: string) => boolean }> {
  const base = publishSlug(row);
  if (base === null || row['Slug']) return { slug: base, taken: () => false };
  const taken = await slugsLike(q, row['ProgramId'] as string, row.Id, base.replace(/-\d+$/, ''));
  const has = (slug: string) => taken.has(slug);
  return { slug: publishSlug(row, has), taken: has };
}

/** The 400 of a publish refused by the rules of src/domain/publishing.ts, naming each field. */
function assertPublishable(row: WireRow, taken: (slug: string) => boolean): void {
  assertValid(Object.entries(publishRequirements(row, taken)));
}

// ── The named mutations' runs ────────────────────────────────────────────────────────────────
export const publishingRuns: ServerMutation[] = [
  serverMutation(
    clipPublish,
    async (s, a) => {
      const { current } = await lockContent(s, 'clip', a.clipId);
      const { taken } = await slugInProgram(s.q, current);
      assertPublishable(current, taken);
      // Published already: nothing to do (publishing again would take its audio down meanwhile).
      if (current['PublishState'] === 'Published' || current['PublishState'] === 'Publishing') return current;
      const row = await s.update('clip', current, { ...current, PublishState: 'Publishing', PublishProblem: null });
      await enqueuePublishing(s.q, s.auth.organizationId, a.clipId);
      return row;
    },
    { batchable: false },
  ),
  serverMutation(
    clipUnpublish,
    async (s, a) => {
      const { current } = await lockContent(s, 'clip', a.clipId);
      if (current['PublishState'] === 'Unpublished' || current['PublishState'] === 'Unpublishing') return current;
      const row = await s.update('clip', current, { ...current, PublishState: 'Unpublishing', PublishProblem: null });
      await enqueuePublishing(s.q, s.auth.organizationId, a.clipId);
      return row;
    },
    { batchable: false },
  ),
];

/**
 * clip.create and clip.update with a schedule: the job that applies it is queued (and the one of
 * an earlier schedule deleted) in the same transaction. clip.update and clip.delete of a published
 * clip whose public URLs the edit changes (editRepublishes) queue its publishing job again. Edits
 * that leave both alone cost nothing more.
 */
export function withScheduledVisibility(runs: readonly ServerMutation[]): ServerMutation[] {
  return runs.map((r) => {
    if (r.def.name !== clipUpdate.name && r.def.name !== clipCreate.name && r.def.name !== clipDelete.name) return r;
    return {
      ...r,
      run: async (s, args, expected, ctx) => {
        const row = await r.run(s, args, expected, ctx);
        const fields = (args as { fields?: Record<string, unknown> }).fields ?? {};
        if ('ScheduledVisibility' in fields || 'VisibleAtUtc' in fields) await schedule(s.q, s.auth.organizationId, row);
        if (editRepublishes(fields, row)) await enqueuePublishing(s.q, s.auth.organizationId, row.Id);
        return row;
      },
    };
  });
}

/** Supersedes the clip's queued schedule job with one for the row's schedule, if it has one. */
async function schedule(q: Queryable, organizationId: string, row: WireRow): Promise<void> {
  await q.query(`DELETE FROM jobs WHERE kind = $1 AND state = 'queued' AND singleton_key LIKE $2`, [SCHEDULE_JOB, `${scheduleKeyPrefix(row.Id)}%`]);
  const visibility = row['ScheduledVisibility'] as string | null;
  const at = row['VisibleAtUtc'] as string | null;
  if (!visibility || !at) return;
  const when = new Date(at);
  // The time is in the key so that a job of the earlier schedule that is running right now
  // (and will find the row changed) does not keep this one from being queued.
  await enqueueJob(q, SCHEDULE_JOB, { organizationId, clipId: row.Id, visibility, at: when.toISOString() }, { runAt: when, singletonKey: `${scheduleKeyPrefix(row.Id)}${when.toISOString()}` });
}

// ── The jobs ─────────────────────────────────────────────────────────────────────────────────
export function publishingJobs(deps: AppDeps, blobs: BlobStore): JobHandlers {
  /** One write of the job's clip in a transaction (a plain one, or a job's unlessRerun, which writes
   *  nothing when a run was asked for meanwhile); the change poked after commit. */
  async function write(organizationId: string, clipId: string, change: (q: Queryable, row: WireRow) => Promise<Record<string, unknown> | null>, inTransaction = plainTransaction(deps.store)): Promise<void> {
    const at = now(deps);
    const written = await inTransaction(
      (q) => loadRow(q, 'clip', organizationId, clipId, { forUpdate: true }),
      async (q, row) => {
        if (!row) return null;
        const next = await change(q, row);
        if (next === null || deepEqual(next, row)) return null;
        const ctx = { organizationId, userId: null, now: at, clientId: null };
        const clip = await updateRow(q, 'clip', row, ctx, next);
        // A clip that has just been published joins the playlists whose auto-add rule takes it
        // (section 7 settings/auto-add), in the same transaction.
        const playlists = clip['PublishState'] === 'Published' && row['PublishState'] !== 'Published' ? await applyAutoAdd(q, clip, ctx) : [];
        return Math.max(clip.Version, ...playlists.map((p) => p.Version));
      },
    );
    if (written !== null) deps.bus.publish({ organizationId, version: written });
  }

  const unpublished = (row: WireRow, problem: PublishProblem | null): Record<string, unknown> => ({
    ...row,
    PublishState: 'Unpublished',
    PublishProblem: problem,
    Urls: { ...(row['Urls'] as ClipUrls), AudioPublicUrl: null, AudioPublicAdFreeUrl: null },
  });

  async function apply(payload: z.infer<typeof ApplyPayload>): Promise<void> {
    await write(payload.organizationId, payload.clipId, async (q, row) => {
      const state = row['PublishState'];
      if (state === 'Unpublished') return null;
      if (row.Deleted) return unpublished(row, state === 'Unpublishing' ? null : PublishProblem.Deleted);
      if (state === 'Unpublishing') return unpublished(row, null);
      // Read under the row's lock: a new version (a cut's render) is switched to in the transaction
      // that writes the row's figures, so this is the audio the row says. Read before the lock, a
      // version that landed in between had its duration and size overwritten by the old one's.
      const audio = await publishedAudio(blobs, payload.clipId);
      const { slug, taken } = await slugInProgram(q, row);
      const errors = publishRequirements(row, taken);
      const problem = errors.Visibility ? PublishProblem.Private : errors.State ? PublishProblem.NotReady : !audio ? PublishProblem.AudioMissing : errors.Slug ? PublishProblem.NoSlug : null;
      if (problem !== null || !audio) return unpublished(row, problem ?? PublishProblem.AudioMissing);
      const visibility = row['Visibility'] as string;
      const publicAudio = visibility === 'Public' || visibility === 'Unlisted';
      return {
        ...row,
        PublishState: 'Published',
        PublishProblem: null,
        // A clip published again keeps the date it was first published (its feed's pubDate).
        PublishedUtc: row['PublishedUtc'] ?? now(deps).toISOString(),
        Slug: slug,
        PublishedAudioSizeInBytes: audio.size,
        PublishedDurationSeconds: audio.durationSeconds,
        Urls: {
          ...(row['Urls'] as ClipUrls),
          ...clipPublicUrls(row.Id, row['ProgramId'] as string, slug, visibility),
          // Restricted audio is for member feeds, through signed URLs: no public URL.
          AudioPublicUrl: publicAudio ? publicPaths.audio(row.Id, audio.ext) : null,
          AudioPublicAdFreeUrl: publicAudio ? publicPaths.audioAdFree(row.Id, audio.ext) : null,
        },
      };
    });
  }

  async function applySchedule(payload: z.infer<typeof SchedulePayload>): Promise<void> {
    await write(payload.organizationId, payload.clipId, async (q, row) => {
      const at = row['VisibleAtUtc'] as string | null;
      // Changed or cleared since (its own job was queued for it), or deleted: nothing to do.
      if (row.Deleted || row['ScheduledVisibility'] !== payload.visibility || at === null || new Date(at).toISOString() !== payload.at) return null;
      const visibility = payload.visibility;
      const next: Record<string, unknown> = { ...row, ScheduledVisibility: null, VisibleAtUtc: null };
      const { slug } = await slugInProgram(q, { ...row, Visibility: visibility });
      if (visibilityNeeds(visibility, 'Slug') && slug === null) return { ...next, PublishProblem: PublishProblem.NoSlug };
      Object.assign(next, { Visibility: visibility, Slug: slug ?? row['Slug'] ?? null });
      if (visibilityNeeds(visibility, 'PublishedUtc') && next['PublishedUtc'] == null) next['PublishedUtc'] = now(deps).toISOString();
      next['Urls'] = { ...(row['Urls'] as ClipUrls), ...clipPublicUrls(row.Id, row['ProgramId'] as string, (next['Slug'] as string | null) ?? null, visibility) };
      const outcome = scheduledOutcome(visibility, row['PublishState'] as string);
      if (outcome === 'publish' && !hasReadyAudio(row)) return { ...next, PublishProblem: PublishProblem.NotReady };
      // Published and still visible: its public URLs follow the new visibility (the job refreshes them).
      if (outcome === 'none' && row['PublishState'] !== 'Published') return next;
      await enqueuePublishing(q, payload.organizationId, payload.clipId);
      if (outcome === 'none') return next;
      return { ...next, PublishState: outcome === 'publish' ? 'Publishing' : 'Unpublishing', PublishProblem: null };
    });
  }

  return {
    [APPLY_JOB]: defineJob({
      payload: ApplyPayload,
      run: apply,
      // Every attempt failed: the clip is not left pending for ever. Unless a publish or unpublish
      // asked for it again meanwhile: that run does what the row says now, and a row written
      // Unpublished here would make a publish's run do nothing (unlessRerun: the row is locked
      // first, the order the mutations write it in).
      giveUp: ({ organizationId, clipId }, _error, ctx) =>
        write(
          organizationId,
          clipId,
          async (_q, row) => (row['PublishState'] === 'Publishing' ? unpublished(row, PublishProblem.Failed) : row['PublishState'] === 'Unpublishing' ? unpublished(row, null) : null),
          ctx.unlessRerun,
        ),
    }),
    [SCHEDULE_JOB]: defineJob({ payload: SchedulePayload, run: applySchedule }),
  };
}

