// Ad markers (issue 34) kept on synced rows, changed offline like any edit: a clip's markers and a
// program's ad-marker rules. Their rules are src/domain/ad-markers.ts, checked by the screen before
// it queues and by the server runs (sync-server/mutations/ad-markers.ts), not here, so that a
// refusal names the marker's own field (AdMarkers.<i>.<Field>, AdMarkerRules.<Field>).
import * as z from 'zod';
import { normaliseAdMarkers } from '../domain/ad-markers.ts';
import { AdMarkerRulesSchema, AdMarkerSchema, Uuid } from '../protocol/entities.ts';
import { defineMutation } from './define.ts';

const IdArg = Uuid.transform((id) => id.toLowerCase());

/** The clip's whole list of ad markers ([]: none), on the clip row's base: markers changed elsewhere
 * meanwhile are a conflict on the field AdMarkers, as any field of the clip. */
export const clipSetAdMarkers = defineMutation({
  name: 'clip.setAdMarkers',
  entity: 'clips',
  kind: 'update',
  args: z.object({ clipId: IdArg, AdMarkers: z.array(AdMarkerSchema) }).strict(),
  rowId: (a) => a.clipId,
  fields: (a) => ({ AdMarkers: a.AdMarkers }),
  withFields: (a, fields) => ({ ...a, AdMarkers: 'AdMarkers' in fields ? (fields['AdMarkers'] as typeof a.AdMarkers) : a.AdMarkers }),
  apply: (row, a) => (row ? { ...row, AdMarkers: normaliseAdMarkers(a.AdMarkers), Id: row.Id } : null),
});

/** The program's ad-marker rules; null: none (every rule off). */
export const programSetAdMarkerRules = defineMutation({
  name: 'program.setAdMarkerRules',
  entity: 'programs',
  kind: 'update',
  args: z.object({ programId: IdArg, AdMarkerRules: AdMarkerRulesSchema.nullable() }).strict(),
  rowId: (a) => a.programId,
  fields: (a) => ({ AdMarkerRules: a.AdMarkerRules }),
  withFields: (a, fields) => ({ ...a, AdMarkerRules: 'AdMarkerRules' in fields ? (fields['AdMarkerRules'] as typeof a.AdMarkerRules) : a.AdMarkerRules }),
  apply: (row, a) => (row ? { ...row, AdMarkerRules: a.AdMarkerRules === null ? null : { ...a.AdMarkerRules }, Id: row.Id } : null),
});

/** The clip's own ad-marker rules in place of its program's; null: its program's again. The server
 * calls it for POST /internal/clips/{clipId}/ad-marker-rules/override. */
export const clipOverrideAdMarkerRules = defineMutation({
  name: 'clip.overrideAdMarkerRules',
  entity: 'clips',
  kind: 'update',
  args: z.object({ clipId: IdArg, Rules: AdMarkerRulesSchema.nullable() }).strict(),
  rowId: (a) => a.clipId,
  fields: (a) => ({ AdMarkerRulesOverride: a.Rules }),
  withFields: (a, fields) => ({ ...a, Rules: 'AdMarkerRulesOverride' in fields ? (fields['AdMarkerRulesOverride'] as typeof a.Rules) : a.Rules }),
  apply: (row, a) => (row ? { ...row, AdMarkerRulesOverride: a.Rules === null ? null : { ...a.Rules }, Id: row.Id } : null),
});
