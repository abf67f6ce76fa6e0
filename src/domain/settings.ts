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
