// Reading the audit trail (src/protocol/api/audit.ts): a page of events, newest first, with the
// names the screen shows. The page is chosen on audit_events alone (its indexes: organization and
// time, object, program, network) and only its rows are joined to names, so a long trail is read
// a page at a time whatever its length.
import type { AuditEvent } from '../../src/protocol/api/audit.ts';
import type { AuditEventType, AuditObjectType } from '../../src/domain/audit.ts';
import { paged, type Page } from '../api/lists.ts';
import type { Queryable } from '../store/store.ts';

export type AuditFilter = {
  organizationId: string;
  /** UTC dates, both included. */
  startDate: string;
  endDate: string;
  eventTypes: readonly AuditEventType[];
  objectTypes?: readonly AuditObjectType[];
  /** Which events: all of the organization, an object's (and what it holds), or those of the
   * programs and networks the caller may audit (section 6 below Organization scope). */
  scope: { kind: 'organization' } | { kind: 'object'; objectId: string } | { kind: 'program'; programId: string } | { kind: 'network'; networkId: string } | { kind: 'places'; programIds: string[]; networkIds: string[] };
  objectId?: string;
};

type Row = {
  id: string;
  date_utc: Date;
  event_type: AuditEventType;
  object_type: AuditObjectType;
  object_id: string;
  object_name: string | null;
  network_id: string | null;
  program_id: string | null;
  program_name: string | null;
  user_id: string | null;
  user_name: string | null;
  api_key_id: string | null;
  detail: string;
};

export async function listAuditEvents(q: Queryable, f: AuditFilter, page: Page): Promise<{ Items: AuditEvent[]; HasNext: boolean; Page: number }> {
  const params: unknown[] = [f.organizationId, `${f.startDate}T00:00:00Z`, `${f.endDate}T00:00:00Z`];
  const add = (value: unknown) => `$${params.push(value)}`;
  // endDate is included: events before the start of the next UTC day.
  const where = ['e.organization_id = $1', 'e.date_utc >= $2::timestamptz', `e.date_utc < $3::timestamptz + interval '1 day'`];
  if (f.eventTypes.length > 0) where.push(`e.event_type = ANY(${add(f.eventTypes)}::text[])`);
  if (f.objectTypes && f.objectTypes.length > 0) where.push(`e.object_type = ANY(${add(f.objectTypes)}::text[])`);
  if (f.objectId) where.push(`e.object_id = ${add(f.objectId)}::uuid`);
  const s = f.scope;
  if (s.kind === 'object') where.push(`e.object_id = ${add(s.objectId)}::uuid`);
  if (s.kind === 'program') where.push(`(e.program_id = ${add(s.programId)}::uuid)`);
  if (s.kind === 'network') where.push(`(e.network_id = ${add(s.networkId)}::uuid)`);
  if (s.kind === 'places') where.push(`(e.program_id = ANY(${add(s.programIds)}::uuid[]) OR (e.program_id IS NULL AND e.network_id = ANY(${add(s.networkIds)}::uuid[])))`);
  const rows = await q.query<Row>(
    `WITH pg AS (SELECT e.* FROM audit_events e WHERE ${where.join(' AND ')} ORDER BY e.date_utc DESC, e.id DESC LIMIT ${page.pageSize + 1} OFFSET ${page.offset})
     SELECT pg.id, pg.date_utc, pg.event_type, pg.object_type, pg.object_id, pg.network_id, pg.program_id, pg.user_id, pg.api_key_id, pg.detail,
            u.name AS user_name, pr.name AS program_name,
            CASE pg.object_type
              WHEN 'Clip' THEN (SELECT title FROM clips WHERE id = pg.object_id)
              WHEN 'Playlist' THEN (SELECT title FROM playlists WHERE id = pg.object_id)
              WHEN 'Recording' THEN (SELECT title FROM recordings WHERE id = pg.object_id)
              WHEN 'Program' THEN (SELECT name FROM programs WHERE id = pg.object_id)
              WHEN 'Network' THEN (SELECT name FROM networks WHERE id = pg.object_id)
              WHEN 'Organization' THEN (SELECT name FROM organizations WHERE id = pg.object_id)
              WHEN 'User' THEN (SELECT coalesce(nullif(name, ''), email) FROM users WHERE id = pg.object_id)
              WHEN 'ApiKey' THEN (SELECT name FROM api_keys WHERE id = pg.object_id)
            END AS object_name
     FROM pg LEFT JOIN users u ON u.id = pg.user_id LEFT JOIN programs pr ON pr.id = pg.program_id
     ORDER BY pg.date_utc DESC, pg.id DESC`,
    params,
  );
  return paged(rows.map(toWire), page);
}

function toWire(r: Row): AuditEvent {
  return {
    Id: r.id,
    DateUtc: new Date(r.date_utc).toISOString(),
    EventType: r.event_type,
    ObjectType: r.object_type,
    ObjectId: r.object_id,
    ObjectName: r.object_name,
    NetworkId: r.network_id,
    ProgramId: r.program_id,
    ProgramName: r.program_name,
    UserId: r.user_id,
    UserName: r.user_name,
    ApiKeyId: r.api_key_id,
    Detail: r.detail,
  };
}
