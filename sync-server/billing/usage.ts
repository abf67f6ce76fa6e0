// Usage measured from the studio's own rows for one billing month [start, end) (src/domain/billing.ts):
//
//   storedAudioHours      clips' and recordings' DurationSeconds, of rows made before the end and
//                         not deleted (a deleted row's audio is gone; when it was deleted is not
//                         kept, so a row deleted since counts for no month), in hours
//   storedAudioBytes      the clips' published audio sizes, the same rows (shown, not billed)
//   downloads             downloads counted by the IAB rules (counted_downloads) in the month
//   seats                 people with a membership holding any permission entry, made before the
//                         end, whose account is not deleted; admin and support staff, who get in
//                         through Grant access, are not the organization's seats
//   transcriptionMinutes  audio minutes of the automatic transcriptions finished (Completed) in
//                         the month (transcriptions keeps each clip's and recording's latest
//                         request, so a transcription asked for again counts once, in its month)
import { MEASURES, type Measure, type Period, type Usage } from '../../src/domain/billing.ts';
import type { Queryable } from '../store/store.ts';

export type MeasuredUsage = Usage & { storedAudioBytes: number };

type Row = Record<Measure | 'storedAudioBytes', string | number | null>;

/** One query, so the numbers of one answer are of one moment. */
export async function measureUsage(q: Queryable, organizationId: string, period: Pick<Period, 'start' | 'end'>): Promise<MeasuredUsage> {
  const [row] = await q.query<Row>(
    `SELECT
       (SELECT coalesce(sum((c.data->>'DurationSeconds')::double precision), 0) FROM clips c
         WHERE c.organization_id = $1 AND NOT c.deleted AND c.created_at_utc < $3 AND jsonb_typeof(c.data->'DurationSeconds') = 'number')
       + (SELECT coalesce(sum((r.data->>'DurationSeconds')::double precision), 0) FROM recordings r
         WHERE r.organization_id = $1 AND NOT r.deleted AND r.created_at_utc < $3 AND jsonb_typeof(r.data->'DurationSeconds') = 'number') AS "storedAudioHours",
       (SELECT coalesce(sum((c.data->>'PublishedAudioSizeInBytes')::double precision), 0) FROM clips c
         WHERE c.organization_id = $1 AND NOT c.deleted AND c.created_at_utc < $3 AND jsonb_typeof(c.data->'PublishedAudioSizeInBytes') = 'number') AS "storedAudioBytes",
       (SELECT count(*) FROM counted_downloads d WHERE d.organization_id = $1 AND d.counted_at_utc >= $2 AND d.counted_at_utc < $3) AS downloads,
       (SELECT count(*) FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.organization_id = $1 AND m.created_at_utc < $3 AND NOT u.deleted AND NOT u.is_admin_or_support
           AND jsonb_typeof(m.permissions) = 'array' AND jsonb_array_length(m.permissions) > 0) AS seats,
       (SELECT coalesce(sum(t.audio_seconds), 0) FROM transcriptions t
         WHERE t.organization_id = $1 AND t.status = 'Completed' AND t.finished_at_utc >= $2 AND t.finished_at_utc < $3) AS "transcriptionMinutes"`,
    [organizationId, period.start, period.end],
  );
  const n = (v: string | number | null | undefined) => Number(v ?? 0);
  const usage = Object.fromEntries(MEASURES.map((m) => [m, n(row?.[m])])) as Usage;
  // Seconds as kept, to the units billed: hours and minutes to two places.
  usage.storedAudioHours = Math.round((usage.storedAudioHours / 3600) * 100) / 100;
  usage.transcriptionMinutes = Math.round((usage.transcriptionMinutes / 60) * 100) / 100;
  return { ...usage, storedAudioBytes: n(row?.storedAudioBytes) };
}
