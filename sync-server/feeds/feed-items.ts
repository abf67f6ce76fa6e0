// Feed items rendered on write (feed_items, migrations/0413_feed_items.sql): after every change of
// an organization announced on the bus, a durable job renders the <item> XML of each of its clips
// whose stored item is missing or stale, and stores it, so that the first build of a feed after an
// edit has settled joins stored items instead of rendering every episode (bench:publish).
//
//   a write ──commit──> bus {organizationId} ──enqueue (one per organization)──> 'feeds.items' job
//        job: programs with a public feed ──> their clips whose item is missing, of an older
//             Version or another context ──> rows ──renderFragment──> feed_items (+ this
//             instance's memory)
//
// Nothing depends on the job having run: a build renders from the row whatever item is missing
// or stale (feed-data.ts), and asks for the job again. A lost enqueue (a crash between commit and
// enqueue) only leaves items to render at build time until the next write or build.
import * as z from 'zod';
import type { AppDeps } from '../app.ts';
import { onOrganizationsChanged } from '../bus.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable } from '../store/store.ts';
import { clipRowsByIds, FEED_ITEMS_JOB, feedItemsJobOptions, keepRendered, programItems, renderFragment } from './feed-data.ts';

/** Clips rendered and written per statement. */
const BATCH = 500;

/**
 * Renders and stores the items of the organization's clips (null: of every organization) in
 * programs with a public feed (a Public or Unlisted playlist) whose stored item is missing or
 * stale. Returns how many were rendered. Idempotent; a clip written meanwhile is stored at the
 * Version read, which its next build sees as stale, and the write's own job renders it again.
 */
export async function refreshFeedItems(q: Queryable, organizationId: string | null): Promise<number> {
  const programs = await q.query<{ id: string; program: Record<string, unknown>; organization: Record<string, unknown> }>(
    `SELECT g.id, g.data || jsonb_build_object('Name', g.name) AS program, o.data AS organization FROM programs g JOIN organizations o ON o.id = g.organization_id
     WHERE ($1::uuid IS NULL OR g.organization_id = $1) AND NOT g.deleted
       AND EXISTS (SELECT 1 FROM playlists p WHERE p.program_id = g.id AND NOT p.deleted AND p.visibility IN ('Public', 'Unlisted'))`,
    [organizationId],
  );
  if (programs.length === 0) return 0;
  const settings = new Map(programs.map((g) => [g.id, programItems(g.program, g.organization)]));
  const stale = await q.query<{ id: string; program_id: string }>(
    `SELECT c.id, c.program_id FROM clips c JOIN unnest($1::uuid[], $2::text[]) AS g(id, context) ON g.id = c.program_id
     LEFT JOIN feed_items f ON f.clip_id = c.id
     WHERE f.clip_id IS NULL OR f.clip_version <> c.version OR f.context <> g.context`,
    [[...settings.keys()], [...settings.values()].map((s) => s.context)],
  );
  let rendered = 0;
  for (let i = 0; i < stale.length; i += BATCH) {
    const rows = await clipRowsByIds(q, stale.slice(i, i + BATCH).map((c) => c.id));
    const ids: string[] = [];
    const versions: string[] = [];
    const contextsOf: string[] = [];
    const listings: string[] = [];
    const xmls: Array<string | null> = [];
    const kept: Array<() => void> = [];
    const programOf = new Map(stale.slice(i, i + BATCH).map((c) => [c.id, c.program_id]));
    for (const row of rows) {
      // Rendered with the flag (and the organization's prefixes) of the program it was in when
      // found stale, and stored under that program's context: right for its row, whichever program a build reads it for.
      const program = settings.get(programOf.get(row.id) ?? '');
      if (program === undefined) continue;
      const { context } = program;
      const fragment = renderFragment(row, program);
      ids.push(row.id);
      versions.push(row.version);
      contextsOf.push(context);
      listings.push(fragment.listing);
      xmls.push(fragment.xml);
      kept.push(() => keepRendered(q, row, context, fragment.xml));
    }
    if (ids.length === 0) continue;
    await q.query(
      `INSERT INTO feed_items (clip_id, clip_version, context, listing, xml)
       SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[], $5::text[])
       ON CONFLICT (clip_id) DO UPDATE SET clip_version = excluded.clip_version, context = excluded.context, listing = excluded.listing,
         xml = excluded.xml, rendered_at_utc = now()`,
      [ids, versions, contextsOf, listings, xmls],
    );
    // Stored: this instance's next build needs neither the store's copy nor the row again.
    for (const keep of kept) keep();
    rendered += ids.length;
  }
  return rendered;
}

/** Asks for the organization's items to be rendered (null: every organization's). */
export function enqueueFeedItems(q: Queryable, organizationId: string | null): Promise<number | null> {
  return enqueueJob(q, FEED_ITEMS_JOB, { organizationId }, feedItemsJobOptions(organizationId));
}

/**
 * The job, and its trigger: every change announced on the bus (after its commit) asks for its
 * organization's items, once per organization per turn of the event loop (a push of many
 * mutations is one enqueue). An enqueue that fails (the store closing) is dropped: builds render
 * what is not stored.
 */
export function feedItemJobs(deps: AppDeps): JobHandlers {
  onOrganizationsChanged(deps.bus, async (changed) => {
    const organizations = changed.has(null) ? [null] : [...changed];
    await Promise.all(organizations.map((organizationId) => enqueueFeedItems(deps.store, organizationId).catch(() => {})));
  });
  return {
    [FEED_ITEMS_JOB]: defineJob({
      payload: z.object({ organizationId: z.string().uuid().nullable() }),
      // Its own pool: a long render (a first job over thousands of clips) never holds up the
      // default pool's jobs, and one at a time per instance.
      pool: 'feeds',
      run: async ({ organizationId }) => void (await refreshFeedItems(deps.store, organizationId)),
    }),
  };
}
