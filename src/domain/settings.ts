// Settings at every level (issue 33; specification section 7 "settings/{name}" and
// "settings/normalization"), the rules the server and the studio share:
//
//   - named settings: a JSON value under a name, kept per organization, network, program, playlist
//     or clip (/internal/…/settings/{name}); the name and the value's size are checked here;
//   - who may read and change them (section 6): at organization level those the Organization
//     settings page shows to (audit or manage-organization-settings access at organization scope),
//     changed with manage-organization-settings access; below it, manage-settings access on the
//     object's program or network (which needs content access), audit access reading;
//   - loudness normalization, chosen for the organization and overridden per program:
//
//       program's own choice ──set──> { PresetId } (a preset, or null: off)  ─┐
//             │                                                               ├─> effective
//             └──none (reset)──> the organization's choice (none set: off) ──┘
import { formError, type FormError } from './form-errors.ts';
import type { PermissionFlags } from './permissions.ts';

// ── Named settings ────────────────────────────────────────────────────────────────────────────

export const SETTING_LEVELS = ['Organization', 'Network', 'Program', 'Playlist', 'Clip'] as const;
export type SettingLevel = (typeof SETTING_LEVELS)[number];

export const SETTING_NAME_MAX_LENGTH = 64;
/** The largest value, as JSON text (UTF-8 bytes): a setting, not a document store. */
export const SETTING_VALUE_MAX_BYTES = 16 * 1024;

/** Lower-case words of letters and digits joined by '-', '_' or '.': 'transcription',
 * 'playlist-premium-feed-urls', 'player.theme'. */
const SETTING_NAME = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$/;

export function validateSettingName(name: string): FormError | null {
  if (name === '') return formError('required');
  if (name.length > SETTING_NAME_MAX_LENGTH) return formError('tooLong', undefined, { max: SETTING_NAME_MAX_LENGTH });
  return SETTING_NAME.test(name) ? null : formError('invalid', 'domain_setting_name_invalid');
}

/** A value is any JSON but nothing at all (undefined), at most SETTING_VALUE_MAX_BYTES as JSON. */
export function validateSettingValue(value: unknown): FormError | null {
  if (value === undefined) return formError('required');
  const bytes = new TextEncoder().encode(JSON.stringify(value)).byteLength;
  return bytes > SETTING_VALUE_MAX_BYTES ? formError('tooLong', 'domain_setting_value_too_large', { max: SETTING_VALUE_MAX_BYTES }) : null;
}

/**
 * What a caller may do with the settings of one level, from their flags there (organization
 * scope for the organization's; the network's or the program's own for the rest: a playlist's and
 * a clip's are their program's).
 */
export function settingsAccess(level: SettingLevel, flags: PermissionFlags): { read: boolean; write: boolean } {
  if (level === 'Organization') {
    return { read: flags.HasAuditAccess || flags.HasManageOrganizationSettingsAccess, write: flags.HasManageOrganizationSettingsAccess };
  }
  // Section 6: "Audit needs content access"; "Manage settings needs content access".
  const manage = flags.HasContentAccess && flags.HasManageSettingsAccess;
  return { read: manage || (flags.HasContentAccess && flags.HasAuditAccess), write: manage };
}

// ── Loudness normalization ───────────────────────────────────────────────────────────────────

/** A choice of normalization: a preset of the reference list (by Id), or null: off. */
export type NormalizationChoice = { PresetId: string | null };

export type NormalizationSource = 'Program' | 'Organization';

/** The normalization a program's audio gets, and whose choice it is. A row that never chose (or
 * reset) holds none: absent or null. An organization that never chose has it off. */
export function effectiveNormalization(
  organization: NormalizationChoice | null | undefined,
  program: NormalizationChoice | null | undefined,
): { PresetId: string | null; Source: NormalizationSource } {
  if (program) return { PresetId: program.PresetId, Source: 'Program' };
  return { PresetId: organization?.PresetId ?? null, Source: 'Organization' };
}

/** A preset must be one of the reference list's (GET /v1/reference-data/normalization-presets);
 * null (off) always may be chosen. Without the list (a device that never fetched it) the server decides. */
export function validateNormalizationPreset(presetId: string | null, knownIds: readonly string[] | null): FormError | null {
  if (presetId === null || knownIds === null) return null;
  return knownIds.includes(presetId) ? null : formError('invalid', 'domain_normalization_preset_unknown', { value: presetId });
}

// ── Recording retention and deletion estimates ───────────────────────────────────────────────
//
// A program may keep its recordings for a number of days (DeleteRecordingsAfterDays; null: for
// ever). A row is past a retention of N days when it was created more than N days ago:
//
//   created ──── N days ────> cutoff ──── now          created < now − N days: deleted by the
//                                                     retention job (sync-server/jobs/retention.ts)
//
// The deletion estimates (…/clip-deletion-estimate, …/recording-deletion-estimate?days=N) count the
// live rows a retention of N days would delete now: on the server in SQL, on a device offline from
// its own rows (estimateDeletion); both with retentionCutoff.

export const RETENTION_DAYS_MIN = 1;
/** Ten years: longer is keeping for ever, which null says. */
export const RETENTION_DAYS_MAX = 3650;
const DAY_MS = 24 * 60 * 60 * 1000;
const RETENTION_RANGE = { min: RETENTION_DAYS_MIN, max: RETENTION_DAYS_MAX };

/** A program's recording settings (kept on its row). */
export type RecordingSettings = { DeleteRecordingsAfterDays: number | null };

/** A retention in days: a whole number from RETENTION_DAYS_MIN to RETENTION_DAYS_MAX, or null (keep for ever). */
export function validateRetentionDays(days: number | null): FormError | null {
  if (days === null) return null;
  if (!Number.isInteger(days)) return formError('invalid', undefined, RETENTION_RANGE);
  if (days < RETENTION_DAYS_MIN) return formError('outOfRange', undefined, RETENTION_RANGE, 'underflow');
  if (days > RETENTION_DAYS_MAX) return formError('outOfRange', undefined, RETENTION_RANGE, 'overflow');
  return null;
}

/** The `days` of a deletion estimate's query (required): digits only, in the retention's range. */
export function parseEstimateDays(text: string | undefined): { days: number } | { error: FormError } {
  if (text === undefined || text === '') return { error: formError('required') };
  if (!/^\d{1,6}$/.test(text)) return { error: formError('invalid', undefined, RETENTION_RANGE) };
  const days = Number(text);
  const error = validateRetentionDays(days);
  return error ? { error } : { days };
}

/** Rows created before this instant are past a retention of `days`. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

export type DeletionEstimate = { Count: number; TotalDurationSeconds: number; OldestCreatedAtUtc: string | null };

/** What a retention of `days` would delete now among these rows: the live ones created before the cutoff. */
export function estimateDeletion(
  rows: Iterable<{ CreatedAtUtc: string; Deleted: boolean; DurationSeconds?: number | null | undefined }>,
  days: number,
  now: Date,
): DeletionEstimate {
  const cutoff = retentionCutoff(now, days).getTime();
  let count = 0;
  let seconds = 0;
  let oldest: number | null = null;
  for (const row of rows) {
    const created = Date.parse(row.CreatedAtUtc);
    if (row.Deleted || !(created < cutoff)) continue;
    count += 1;
    seconds += row.DurationSeconds ?? 0;
    if (oldest === null || created < oldest) oldest = created;
  }
  return { Count: count, TotalDurationSeconds: seconds, OldestCreatedAtUtc: oldest === null ? null : new Date(oldest).toISOString() };
}
