// The server runs of the settings mutations of src/mutations/settings.ts: the organization's and a
// program's loudness normalization, a program's recording retention and the organization's
// measurement URL prefixes, kept on their rows.
// Section 6: the organization's needs manage-organization-settings access at organization scope; a
// program's, content and manage-settings access on the program. A preset must be one of the
// reference list's; a retention a whole number of days in range (validateRetentionDays); each
// prefix as src/domain/measurement.ts says, at its own field (MeasurementPrefixes.{i}).
import { measurementPrefixErrors } from '../../src/domain/measurement.ts';
import { validateNormalizationPreset, validateRetentionDays, type NormalizationChoice } from '../../src/domain/settings.ts';
import { organizationSetMeasurementPrefixes, organizationSetNormalization, programSetNormalization, programSetRecordingSettings } from '../../src/mutations/settings.ts';
import { assertValid } from '../errors.ts';
import { checkPrecondition } from '../http.ts';
import { NORMALIZATION_PRESETS } from '../reference/normalization-presets.ts';
import { serverMutation } from './run.ts';
import { lockRow, orgFlags, programAccess, requireFlags } from './store.ts';

const PRESET_IDS = NORMALIZATION_PRESETS.map((p) => p.Id);

const checkPreset = (choice: NormalizationChoice | null) => assertValid([['PresetId', choice === null ? null : validateNormalizationPreset(choice.PresetId, PRESET_IDS)]]);

export const SETTINGS_RUNS = [
  serverMutation(organizationSetNormalization, async (s, a, expected) => {
    // Only the caller's own organization is a row they may write (another's is not found).
    const current = await lockRow(s, 'organization', a.organizationId);
    requireFlags(orgFlags(s.auth), 'HasManageOrganizationSettingsAccess');
    checkPrecondition(expected, current);
    checkPreset(a.Normalization);
    return s.update('organization', current, { ...current, Normalization: { PresetId: a.Normalization.PresetId } });
  }),
  serverMutation(organizationSetMeasurementPrefixes, async (s, a, expected) => {
    const current = await lockRow(s, 'organization', a.organizationId);
    requireFlags(orgFlags(s.auth), 'HasManageOrganizationSettingsAccess');
    checkPrecondition(expected, current);
    assertValid(measurementPrefixErrors(a.MeasurementPrefixes));
    return s.update('organization', current, { ...current, MeasurementPrefixes: [...a.MeasurementPrefixes] });
  }),
  serverMutation(programSetNormalization, async (s, a, expected) => {
    const { flags } = await programAccess(s, a.programId);
    const current = await lockRow(s, 'program', a.programId);
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    checkPreset(a.Normalization);
    return s.update('program', current, { ...current, Normalization: a.Normalization === null ? null : { PresetId: a.Normalization.PresetId } });
  }),
  serverMutation(programSetRecordingSettings, async (s, a, expected) => {
    const { flags } = await programAccess(s, a.programId);
    const current = await lockRow(s, 'program', a.programId);
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    assertValid([['DeleteRecordingsAfterDays', validateRetentionDays(a.DeleteRecordingsAfterDays)]]);
    return s.update('program', current, { ...current, DeleteRecordingsAfterDays: a.DeleteRecordingsAfterDays });
  }),
];
