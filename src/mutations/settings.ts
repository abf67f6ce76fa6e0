// Settings kept on synced rows, changed offline like any edit: the loudness normalization of the
// organization and of a program, a program's recording retention (src/domain/settings.ts) and the
// organization's measurement URL prefixes (src/domain/measurement.ts). Their server runs, with section 6
// (manage-organization-settings access; content and manage-settings access on the program), are
// sync-server/mutations/settings.ts.
import * as z from 'zod';
import { ApplePremiumSchema, NormalizationChoiceSchema, Uuid } from '../protocol/entities.ts';
import { defineMutation } from './define.ts';

const IdArg = Uuid.transform((id) => id.toLowerCase());

/** The organization's normalization, on the organization row's base: changed elsewhere meanwhile,
 * it is a conflict on the field Normalization. */
export const organizationSetNormalization = defineMutation({
  name: 'organization.setNormalization',
  entity: 'organizations',
  kind: 'update',
  args: z.object({ organizationId: IdArg, Normalization: NormalizationChoiceSchema }).strict(),
  rowId: (a) => a.organizationId,
  fields: (a) => ({ Normalization: a.Normalization }),
  withFields: (a, fields) => ({ ...a, Normalization: 'Normalization' in fields ? (fields['Normalization'] as typeof a.Normalization) : a.Normalization }),
  apply: (row, a) => (row ? { ...row, Normalization: { PresetId: a.Normalization.PresetId }, Id: row.Id } : null),
});

/** The organization's measurement URL prefixes, in the order a listener's request passes them ([]:
 * none), on the organization row's base. Each is checked by the server run and the screen
 * (measurementPrefixErrors), not here, so that a refusal names the prefix's own field. */
export const organizationSetMeasurementPrefixes = defineMutation({
  name: 'organization.setMeasurementPrefixes',
  entity: 'organizations',
  kind: 'update',
  args: z.object({ organizationId: IdArg, MeasurementPrefixes: z.array(z.string()) }).strict(),
  rowId: (a) => a.organizationId,
  fields: (a) => ({ MeasurementPrefixes: a.MeasurementPrefixes }),
  withFields: (a, fields) => ({ ...a, MeasurementPrefixes: 'MeasurementPrefixes' in fields ? (fields['MeasurementPrefixes'] as string[]) : a.MeasurementPrefixes }),
  apply: (row, a) => (row ? { ...row, MeasurementPrefixes: [...a.MeasurementPrefixes], Id: row.Id } : null),
});

/** The program's own normalization; null: none, the program inherits the organization's. */
export const programSetNormalization = defineMutation({
  name: 'program.setNormalization',
  entity: 'programs',
  kind: 'update',
  args: z.object({ programId: IdArg, Normalization: NormalizationChoiceSchema.nullable() }).strict(),
  rowId: (a) => a.programId,
  fields: (a) => ({ Normalization: a.Normalization }),
  withFields: (a, fields) => ({ ...a, Normalization: 'Normalization' in fields ? (fields['Normalization'] as typeof a.Normalization) : a.Normalization }),
  apply: (row, a) => (row ? { ...row, Normalization: a.Normalization === null ? null : { PresetId: a.Normalization.PresetId }, Id: row.Id } : null),
});

/** The program's recording settings: how many days its recordings are kept (null: for ever). The
 * range is checked by the server run and the screen (validateRetentionDays), not here, so that a
 * refusal names the field as the domain says. */
export const programSetRecordingSettings = defineMutation({
  name: 'program.setRecordingSettings',
  entity: 'programs',
  kind: 'update',
  args: z.object({ programId: IdArg, DeleteRecordingsAfterDays: z.number().nullable() }).strict(),
  rowId: (a) => a.programId,
  fields: (a) => ({ DeleteRecordingsAfterDays: a.DeleteRecordingsAfterDays }),
  withFields: (a, fields) => ({
    ...a,
    DeleteRecordingsAfterDays: 'DeleteRecordingsAfterDays' in fields ? (fields['DeleteRecordingsAfterDays'] as number | null) : a.DeleteRecordingsAfterDays,
  }),
  apply: (row, a) => (row ? { ...row, DeleteRecordingsAfterDays: a.DeleteRecordingsAfterDays, Id: row.Id } : null),
});

/**
 * One level's Apple Podcasts Subscriptions settings (src/domain/apple-premium.ts), null: none set
 * here (every field inherited). The whole record is the one field ApplePremium, so a change made
 * elsewhere meanwhile is a conflict on it. Each field is checked by the server run and the screen
 * (applePremiumErrors), not here, so that a refusal names the field.
 */
const ApplePremiumArg = ApplePremiumSchema.nullable();
type ApplePremiumArgs = { ApplePremium: z.infer<typeof ApplePremiumArg> };
const applePremium = {
  kind: 'update' as const,
  fields: (a: ApplePremiumArgs) => ({ ApplePremium: a.ApplePremium }),
  withFields: <A extends ApplePremiumArgs>(a: A, fields: Record<string, unknown>): A => ({ ...a, ApplePremium: 'ApplePremium' in fields ? (fields['ApplePremium'] as A['ApplePremium']) : a.ApplePremium }),
  apply: <R extends { Id: string }>(row: R | null, a: ApplePremiumArgs) => (row ? { ...row, ApplePremium: a.ApplePremium === null ? null : { ...a.ApplePremium }, Id: row.Id } : null),
};

export const organizationSetApplePremium = defineMutation({
  name: 'organization.setApplePremium',
  entity: 'organizations',
  args: z.object({ organizationId: IdArg, ApplePremium: ApplePremiumArg }).strict(),
  rowId: (a) => a.organizationId,
  ...applePremium,
});

export const networkSetApplePremium = defineMutation({
  name: 'network.setApplePremium',
  entity: 'networks',
  args: z.object({ networkId: IdArg, ApplePremium: ApplePremiumArg }).strict(),
  rowId: (a) => a.networkId,
  ...applePremium,
});

export const programSetApplePremium = defineMutation({
  name: 'program.setApplePremium',
  entity: 'programs',
  args: z.object({ programId: IdArg, ApplePremium: ApplePremiumArg }).strict(),
  rowId: (a) => a.programId,
  ...applePremium,
});
