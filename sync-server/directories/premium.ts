// A playlist's premium delivery as the server keeps it (playlist_premium, 0580): the row, and the
// Apple Podcasts Subscriptions settings in effect for its program (apple-premium.ts), read by the
// directories calls (sync-server/api/directories.ts) and the linking report's job
// (sync-server/reports/report-job.ts).
import { effectiveApplePremium, type ApplePremiumValues } from '../../src/domain/apple-premium.ts';
import { loadRow, type WireRow } from '../rows.ts';
import type { FeedClipFields } from '../../src/domain/feed.ts';
import type { Queryable } from '../store/store.ts';

export type PremiumRow = {
  playlist_id: string;
  apple_linked: boolean;
  apple_linked_at_utc: Date | string | null;
  apple_linked_by_id: string | null;
  apple_checked_at_utc: Date | string | null;
  apple_state: string | null;
  spotify_member_id: string | null;
};

export const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export async function premiumOf(q: Queryable, playlistId: string): Promise<PremiumRow | null> {
  const [row] = await q.query<PremiumRow>(`SELECT * FROM playlist_premium WHERE playlist_id = $1`, [playlistId]);
  return row ?? null;
}

/** Writes some of a playlist's premium columns (the row made when it is the first). */
export async function savePremium(q: Queryable, organizationId: string, playlistId: string, at: Date, set: Partial<Omit<PremiumRow, 'playlist_id'>>): Promise<void> {
  const columns = Object.keys(set) as (keyof typeof set)[];
  const values = columns.map((k) => set[k] ?? null);
  await q.query(
    `INSERT INTO playlist_premium (playlist_id, organization_id, modified_at_utc${columns.map((c) => `, ${c}`).join('')})
     VALUES ($1, $2, $3${columns.map((_, i) => `, $${i + 4}`).join('')})
     ON CONFLICT (playlist_id) DO UPDATE SET modified_at_utc = excluded.modified_at_utc${columns.map((c) => `, ${c} = excluded.${c}`).join('')}`,
    [playlistId, organizationId, at.toISOString(), ...values],
  );
}

export const valuesOf = (row: WireRow | null): ApplePremiumValues | null => (row && !row.Deleted ? ((row['ApplePremium'] as ApplePremiumValues | null | undefined) ?? null) : null);

/** The Apple Podcasts Subscriptions settings in effect for a program (apple-premium.ts). */
export async function appleInEffect(q: Queryable, organizationId: string, program: WireRow): Promise<ApplePremiumValues> {
  const networkId = (program['NetworkId'] as string | null | undefined) ?? null;
  return effectiveApplePremium({
    Organization: valuesOf(await loadRow(q, 'organization', organizationId, organizationId)),
    Network: networkId ? valuesOf(await loadRow(q, 'network', organizationId, networkId)) : null,
    Program: valuesOf(program),
  }).values;
}

/** Clips by id as the feed rules read them (state, publish state and visibility are columns). */
export async function feedClips(q: Queryable, organizationId: string, ids: readonly string[]): Promise<Map<string, FeedClipFields & { Title: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<{ id: string; state: string; publish_state: string | null; visibility: string; scheduled: string | null; visible_at: string | null; deleted: boolean; title: string | null }>(
    `SELECT id::text AS id, state, publish_state, visibility, data->>'ScheduledVisibility' AS scheduled, data->>'VisibleAtUtc' AS visible_at, deleted, title
       FROM clips WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
    [organizationId, ids],
  );
  return new Map(rows.map((r) => [r.id, { State: r.state, PublishState: r.publish_state, Visibility: r.visibility, ScheduledVisibility: r.scheduled, VisibleAtUtc: r.visible_at, Deleted: r.deleted, Title: r.title }]));
}
