// A program's monetization, video-monetization and headliner-video settings and the organization's
// defaults of them (src/domain/monetization.ts), changed offline like any edit. Each setting is
// one field of the row (the program's Monetization, VideoMonetization, HeadlinerVideos; the
// organization's MonetizationDefaults, VideoMonetizationDefaults, HeadlinerVideoDefaults) holding
// the level's own values whole (null: nothing set, all inherited), so a change made elsewhere
// meanwhile to another setting merges and one to the same setting is a conflict on it. A REST
// merge patch is merged with the row's values before it becomes one of these. Their server runs,
// with section 6 and the rules, are sync-server/mutations/program-settings.ts.
import * as z from 'zod';
import { ROW_FIELD, normalizeOwn, type ProgramSettingKind, type SettingsLevel } from '../domain/monetization.ts';
import { HeadlinerVideoOwn, MonetizationOwn, VideoMonetizationOwn } from '../protocol/api/program-settings.ts';
import { Uuid } from '../protocol/entities.ts';
import { defineMutation, type Row } from './define.ts';

const IdArg = Uuid.transform((id) => id.toLowerCase());

const settingArgs = {
  Monetization: MonetizationOwn.nullable().optional(),
  VideoMonetization: VideoMonetizationOwn.nullable().optional(),
  HeadlinerVideos: HeadlinerVideoOwn.nullable().optional(),
};
type SettingArgs = { [K in ProgramSettingKind]?: unknown };
const KINDS = ['Monetization', 'VideoMonetization', 'HeadlinerVideos'] as const;

/** The row fields a change sets: the settings it names, as kept (normalizeOwn). */
function rowFields(level: SettingsLevel, a: SettingArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kind of KINDS) {
    const v = a[kind];
    if (v === undefined) continue;
    out[ROW_FIELD[level][kind]] = v === null ? null : normalizeOwn(kind, v as never);
  }
  return out;
}

function withRowFields<A extends SettingArgs>(level: SettingsLevel, a: A, fields: Record<string, unknown>): A {
  const out = { ...a } as Record<string, unknown>;
  for (const kind of KINDS) {
    const field = ROW_FIELD[level][kind];
    if (field in fields) out[kind] = fields[field];
  }
  return out as A;
}

const applyTo = (level: SettingsLevel) => (row: Row | null, a: SettingArgs) => (row ? { ...row, ...rowFields(level, a), Id: row.Id } : null);

/** The program's own values of the settings it names (null: none, all inherited from the organization). */
export const programSetSettings = defineMutation({
  name: 'program.setSettings',
  entity: 'programs',
  kind: 'update',
  args: z.object({ programId: IdArg, ...settingArgs }).strict(),
  rowId: (a) => a.programId,
  fields: (a) => rowFields('Program', a),
  withFields: (a, fields) => withRowFields('Program', a, fields),
  apply: applyTo('Program'),
});

/** The organization's defaults of the settings it names, what its programs inherit (null: the studio's). */
export const organizationSetProgramDefaults = defineMutation({
  name: 'organization.setProgramDefaults',
  entity: 'organizations',
  kind: 'update',
  args: z.object({ organizationId: IdArg, ...settingArgs }).strict(),
  rowId: (a) => a.organizationId,
  fields: (a) => rowFields('Organization', a),
  withFields: (a, fields) => withRowFields('Organization', a, fields),
  apply: applyTo('Organization'),
});
