// The server runs of the settings mutations of src/mutations/settings.ts: the organization's and a
// program's loudness normalization, a program's recording retention and the organization's
// measurement URL prefixes, kept on their rows.
// Section 6: the organization's needs manage-organization-settings access at organization scope; a
// program's, content and manage-settings access on the program. A preset must be one of the
// reference list's; a retention a whole number of days in range (validateRetentionDays); each
// prefix as src/domain/measurement.ts says, at its own field (MeasurementPrefixes.{i}).
import { measurementPrefixErrors } from '../../src/domain/measurement.ts';
import { validateNormalizationPreset, validateRetentionDays, type NormalizationChoice } from '../../src/domain/settings.ts';
import {
  networkSetApplePremium,
  organizationSetApplePremium,
  organizationSetMeasurementPrefixes,
  organizationSetNormalization,
  programSetApplePremium,
  programSetNormalization,
  programSetRecordingSettings,
} from '../../src/mutations/settings.ts';
import { applePremiumDeliveryErrors, applePremiumErrors, effectiveApplePremium, normalizeApplePremium, type ApplePremiumLevel, type ApplePremiumValues } from '../../src/domain/apple-premium.ts';
import { networkFlags } from '../../src/domain/access.ts';
import { settingsAccess } from '../../src/domain/settings.ts';
import { forbidden } from '../errors.ts';
import { loadRow, type WireRow } from '../rows.ts';
import type { OpStore } from './store.ts';
import { assertValid } from '../errors.ts';
import { checkPrecondition } from '../http.ts';
import { NORMALIZATION_PRESETS } from '../reference/normalization-presets.ts';
import { serverMutation } from './run.ts';
import { PROGRAM_SETTINGS_RUNS } from './program-settings.ts';
import { lockRow, orgFlags, programAccess, requireFlags } from './store.ts';
import { assertFeature } from '../billing/entitlements.ts';

const PRESET_IDS = NORMALIZATION_PRESETS.map((p) => p.Id);

const checkPreset = (choice: NormalizationChoice | null) => assertValid([['PresetId', choice === null ? null : validateNormalizationPreset(choice.PresetId, PRESET_IDS)]]);

const applePremiumOf = (row: WireRow | null): ApplePremiumValues | null => (row?.['ApplePremium'] as ApplePremiumValues | null | undefined) ?? null;

/**
 * A level's Apple Podcasts Subscriptions values, normalized (normalizeApplePremium) and checked:
 * each field at its name, then delivery switched on without a provider, or a program without its
 * show, in effect with the levels above (read as they are, not locked: they only inform the
 * refusal).
 */
async function checkedApplePremium(s: OpStore, level: ApplePremiumLevel, sent: ApplePremiumValues | null, networkId: string | null): Promise<ApplePremiumValues | null> {
  if (sent === null) return null;
  // Clearing a level is always taken (an organization whose plan lost the feature tidies up); setting
  // one needs the plan's apple-premium, here where a REST call and a device's queued edit both pass.
  await assertFeature(s.q, s.auth.organizationId, 'apple-premium');
  const values = normalizeApplePremium(sent);
  assertValid(applePremiumErrors(level, values).map((e) => [e.field, e.error]));
  const organizationId = s.auth.organizationId;
  const organization = level === 'Organization' ? null : applePremiumOf(await loadRow(s.q, 'organization', organizationId, organizationId));
  const network = level === 'Program' && networkId ? applePremiumOf(await loadRow(s.q, 'network', organizationId, networkId)) : null;
  const effective = effectiveApplePremium({ Organization: organization, Network: network, Program: null, [level]: values }).values;
  assertValid(applePremiumDeliveryErrors(level, effective).map((e) => [e.field, e.error]));
  return values;
}

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
  serverMutation(organizationSetApplePremium, async (s, a, expected) => {
    const current = await lockRow(s, 'organization', a.organizationId);
    if (!settingsAccess('Organization', orgFlags(s.auth)).write) throw forbidden();
    checkPrecondition(expected, current);
    return s.update('organization', current, { ...current, ApplePremium: await checkedApplePremium(s, 'Organization', a.ApplePremium, null) });
  }),
  serverMutation(networkSetApplePremium, async (s, a, expected) => {
    const current = await lockRow(s, 'network', a.networkId);
    if (!settingsAccess('Network', networkFlags(s.auth.permissions, a.networkId)).write) throw forbidden();
    checkPrecondition(expected, current);
    return s.update('network', current, { ...current, ApplePremium: await checkedApplePremium(s, 'Network', a.ApplePremium, null) });
  }),
  serverMutation(programSetApplePremium, async (s, a, expected) => {
    const { flags } = await programAccess(s, a.programId);
    const current = await lockRow(s, 'program', a.programId);
    if (!settingsAccess('Program', flags).write) throw forbidden();
    checkPrecondition(expected, current);
    const networkId = (current['NetworkId'] as string | null | undefined) ?? null;
    return s.update('program', current, { ...current, ApplePremium: await checkedApplePremium(s, 'Program', a.ApplePremium, networkId) });
  }),
  // A program's monetization, video-monetization and headliner-video settings and the organization's defaults of them.
  ...PROGRAM_SETTINGS_RUNS,
];
