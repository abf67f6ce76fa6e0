// The audit trail's calls (section 7): the organization's events, and one clip's, network's,
// playlist's or program's. Who may read what: src/domain/audit.ts (section 6: audit needs content
// access). Served by sync-server/api/audit.ts; what is recorded: sync-server/audit.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { AUDIT_EVENT_TYPES, AUDIT_OBJECT_TYPES } from '../../domain/audit.ts';
import { validateGuid } from '../../domain/validators.ts';
import { BoolQuery, PagedOf, PagingQuery, checkDates, checkedString, enumListQuery, errors, idParams, jsonContent } from './common.ts';

const tags = ['Audit'];

export const AuditEvent = z
  .object({
    Id: z.uuid(),
    DateUtc: z.string().meta({ description: 'When it happened (the change’s own time for content writes)' }),
    EventType: z.enum(AUDIT_EVENT_TYPES),
    ObjectType: z.enum(AUDIT_OBJECT_TYPES),
    ObjectId: z.uuid(),
    ObjectName: z.string().nullable().meta({ description: 'The object’s title, name or e-mail address as it is now (null when it has none or is gone)' }),
    NetworkId: z.uuid().nullable(),
    ProgramId: z.uuid().nullable(),
    ProgramName: z.string().nullable(),
    UserId: z.uuid().nullable().meta({ description: 'Who did it (null: the system, e.g. a scheduled job)' }),
    UserName: z.string().nullable(),
    ApiKeyId: z.uuid().nullable().meta({ description: 'The API key the change was made with, if any' }),
    Detail: z.string().meta({ description: 'What changed: field names of an update, the scopes and flags of a permission change (never values or secrets)' }),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEvent>;

const DateFields = {
  startDate: z.string().max(40).meta({ description: 'First UTC date, YYYY-MM-DD (required)', example: '2026-11-01' }),
  endDate: z.string().max(40).meta({ description: 'Last UTC date, YYYY-MM-DD, included (required)', example: '2026-11-30' }),
};
const EventTypeFilter = enumListQuery(AUDIT_EVENT_TYPES);

export const AuditEventsQuery = z
  .object({
    ...PagingQuery,
    ...DateFields,
    eventType: EventTypeFilter,
    objectType: enumListQuery(AUDIT_OBJECT_TYPES),
    objectId: checkedString((v) => validateGuid(v, { required: true }))
      .transform((v) => v.toLowerCase())
      .optional()
      .meta({ description: 'Only the events of this object' }),
  })
  .superRefine(checkDates);

export const ObjectAuditEventsQuery = z
  .object({
    ...PagingQuery,
    ...DateFields,
    eventType: EventTypeFilter,
    includeRelated: BoolQuery.meta({
      description: 'Also the events of what the object holds: a program’s playlists, clips and recordings; a network’s programs and theirs (clips and playlists hold nothing)',
    }),
  })
  .superRefine(checkDates);

const page = jsonContent(PagedOf(AuditEvent).meta({ id: 'AuditEventPage' }), 'A page of events, newest first');

export const listAuditEvents = {
  method: 'get',
  path: '/v1/audit-events',
  tags,
  summary: 'The organization’s audit events: all with HasAuditAccess and HasContentAccess at Organization scope, else those of the networks and programs where the caller holds both',
  request: { query: AuditEventsQuery },
  responses: { 200: page, ...errors },
} as const satisfies RouteConfig;

const objectEvents = <P extends string, N extends string>(path: P, param: N, what: string) =>
  ({
    method: 'get',
    path,
    tags,
    summary: `One ${what}’s audit events (HasAuditAccess and HasContentAccess on it)`,
    request: { params: idParams(param), query: ObjectAuditEventsQuery },
    responses: { 200: page, ...errors },
  }) as const satisfies RouteConfig;

export const listClipAuditEvents = objectEvents('/v1/clips/{clipId}/audit-events', 'clipId', 'clip');
export const listNetworkAuditEvents = objectEvents('/v1/networks/{networkId}/audit-events', 'networkId', 'network');
export const listPlaylistAuditEvents = objectEvents('/v1/playlists/{playlistId}/audit-events', 'playlistId', 'playlist');
export const listProgramAuditEvents = objectEvents('/v1/programs/{programId}/audit-events', 'programId', 'program');
