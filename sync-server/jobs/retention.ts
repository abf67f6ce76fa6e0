// Recording retention (section 7 settings/recording): a program's DeleteRecordingsAfterDays makes
// its recordings older than that many days go. This recurring job, hourly on one instance, finds
// the live recordings past their program's retention and deletes each through the named mutation
// recording.delete, the same run a user's DELETE /v1/recordings/{id} takes: a soft delete written
// with a row revision, pulled by every device, announced on the change bus (webhooks) after commit.
//
//   hourly ──> programs with a retention ──> their live recordings created before the cutoff
//                                                 │ a batch at a time, one transaction per organization
//                                                 ▼
//                                  recording.delete as the studio itself ──> poke after commit
//
// Idempotent: a deleted recording is no longer live, so a second run (or a run after a crash in the
// middle) finds only what is still left.
import * as z from 'zod';
import { allPermissions } from '../../src/domain/permissions.ts';
import { retentionCutoff, validateRetentionDays } from '../../src/domain/settings.ts';
import { recordingDelete } from '../../src/mutations/content.ts';
import { now, type AppDeps } from '../app.ts';
import type { Auth } from '../auth.ts';
import { directStore } from '../mutations/store.ts';
import type { ServerMutation } from '../mutations/run.ts';
import { defineJob, type JobHandlers } from './runner.ts';

export const RECORDING_RETENTION_JOB = 'recordings.retention';

/** Recordings deleted per transaction: a long backlog (a retention just shortened) in bounded steps. */
const BATCH = 200;

/**
 * The studio acting on an organization's rows by its own rule, not for a user: every flag at
 * organization scope, so the mutation's access checks pass; it writes no user id (ModifiedById null).
 */
function retentionActor(organizationId: string): Auth {
  return {
    user: { Id: '00000000-0000-0000-0000-000000000000', Name: 'Recording retention', FirstName: '', Email: '', ImageUrl: null, IsAdmin: false, IsAdminOrSupport: false, HasResellerAccess: false, InterfaceLanguage: 'en-US', Activated: true },
    organizationId,
    permissions: [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: allPermissions() }],
    via: 'session',
  };
}

type Due = { id: string; organization_id: string };

/** Deletes the live recordings past their program's retention at `at`; returns how many. */
export async function applyRecordingRetention(deps: AppDeps, mutations: ReadonlyMap<string, ServerMutation>, at = now(deps)): Promise<number> {
  const run = mutations.get(recordingDelete.name);
  if (!run) throw new Error(`no server run for ${recordingDelete.name}`);
  let deleted = 0;
  for (;;) {
    // Per program its cutoff (the domain's rule); a retention the rule would refuse is left alone.
    const programs = await deps.store.query<{ id: string; days: number }>(
      `SELECT id, (data->>'DeleteRecordingsAfterDays')::float8 AS days FROM programs
        WHERE NOT deleted AND jsonb_typeof(data->'DeleteRecordingsAfterDays') = 'number'`,
    );
    const cutoffs = programs.filter((p) => validateRetentionDays(p.days) === null).map((p) => ({ id: p.id, cutoff: retentionCutoff(at, p.days).toISOString() }));
    if (cutoffs.length === 0) return deleted;
    const due = await deps.store.query<Due>(
      `SELECT r.id, r.organization_id FROM recordings r
         JOIN jsonb_to_recordset($1::jsonb) AS p(id uuid, cutoff timestamptz) ON p.id = r.program_id
        WHERE NOT r.deleted AND r.created_at_utc < p.cutoff
        ORDER BY r.organization_id, r.created_at_utc LIMIT ${BATCH}`,
      [JSON.stringify(cutoffs)],
    );
    if (due.length === 0) return deleted;
    const byOrganization = new Map<string, Due[]>();
    for (const r of due) byOrganization.set(r.organization_id, [...(byOrganization.get(r.organization_id) ?? []), r]);
    for (const [organizationId, rows] of byOrganization) {
      const auth = retentionActor(organizationId);
      const version = await deps.store.tx(async (q) => {
        const s = directStore(q, auth, { organizationId, userId: null, now: at, clientId: null });
        let top = 0;
        for (const r of rows) top = Math.max(top, (await run.run(s, recordingDelete.args.parse({ recordingId: r.id }), null, { origin: process.env.PUBLIC_URL ?? 'http://localhost' })).Version);
        return top;
      });
      deleted += rows.length;
      deps.bus.publish({ organizationId, version });
    }
    if (due.length < BATCH) return deleted;
  }
}

export function retentionJobs(deps: AppDeps, mutations: ReadonlyMap<string, ServerMutation>): JobHandlers {
  return {
    [RECORDING_RETENTION_JOB]: defineJob({ payload: z.object({}), everyMs: 60 * 60 * 1000, run: async () => void (await applyRecordingRetention(deps, mutations)) }),
  };
}
