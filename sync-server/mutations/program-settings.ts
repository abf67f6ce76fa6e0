// The server runs of program.setSettings and organization.setProgramDefaults
// (src/mutations/program-settings.ts): a program's monetization, video monetization and
// headliner-video settings and the organization's defaults of them, kept on their rows.
// Section 6: a program's need content and manage-settings access on it (settingsAccess); the
// organization's, manage-organization-settings access at organization scope. Each setting named
// is checked by src/domain/monetization.ts (settingErrors) and refused at
// '<Setting>.<field>' ('Monetization.AdPositions.1.MaxAds'); a program's against the
// organization's defaults it inherits (read, not locked: they only inform the refusal) and its own
// ad-marker rules (the locked row's).
import type { AdMarkerRules } from '../../src/domain/ad-markers.ts';
import { normalizeOwn, ownOf, resolveSetting, ROW_FIELD, settingErrors, type ProgramSettingKind, type SettingsLevel } from '../../src/domain/monetization.ts';
import { settingsAccess } from '../../src/domain/settings.ts';
import { organizationSetProgramDefaults, programSetSettings } from '../../src/mutations/program-settings.ts';
import { assertValid, forbidden } from '../errors.ts';
import { checkPrecondition } from '../http.ts';
import { loadRow, type WireRow } from '../rows.ts';
import { serverMutation } from './run.ts';
import { lockRow, orgFlags, programAccess, type OpStore } from './store.ts';

const KINDS = ['Monetization', 'VideoMonetization', 'HeadlinerVideos'] as const satisfies readonly ProgramSettingKind[];

/** The row's next fields for the settings named, each checked; a refusal names every field wrong. */
async function checkedFields(s: OpStore, level: SettingsLevel, row: WireRow, args: { [K in ProgramSettingKind]?: unknown }): Promise<Record<string, unknown>> {
  const organization = level === 'Program' ? await loadRow(s.q, 'organization', s.auth.organizationId, s.auth.organizationId) : null;
  const rules = level === 'Program' ? ((row['AdMarkerRules'] as AdMarkerRules | null | undefined) ?? null) : null;
  const next: Record<string, unknown> = {};
  const problems: Array<[string, ReturnType<typeof settingErrors>[number]['error']]> = [];
  for (const kind of KINDS) {
    const sent = args[kind];
    if (sent === undefined) continue;
    const field = ROW_FIELD[level][kind];
    if (sent === null) {
      next[field] = null;
      continue;
    }
    const own = normalizeOwn(kind, ownOf(kind, sent));
    const inherited = organization ? ownOf(kind, organization[ROW_FIELD.Organization[kind]]) : null;
    for (const p of own ? settingErrors(kind, level, own, inherited, rules) : []) problems.push([`${kind}.${p.field}`, p.error]);
    next[field] = own;
  }
  assertValid(problems);
  return next;
}

/** A new clip's MemberDownloadsAdFree where the call gives none: the program's monetization in effect
 * (its own, else the organization's default, else the studio's: false, as clipDefaults). */
export async function newClipMemberDownloadsAdFree(s: OpStore, programId: string): Promise<boolean> {
  const organizationId = s.auth.organizationId;
  const [organization, program] = [await loadRow(s.q, 'organization', organizationId, organizationId), await loadRow(s.q, 'program', organizationId, programId)];
  return resolveSetting('Monetization', ownAt('Organization', organization), ownAt('Program', program)).values.MemberDownloadsAdFree;
}

const ownAt = (level: SettingsLevel, row: WireRow | null) => (row ? ownOf('Monetization', row[ROW_FIELD[level].Monetization]) : null);

export const PROGRAM_SETTINGS_RUNS = [
  serverMutation(programSetSettings, async (s, a, expected) => {
    const { flags } = await programAccess(s, a.programId);
    const current = await lockRow(s, 'program', a.programId);
    if (!settingsAccess('Program', flags).write) throw forbidden();
    checkPrecondition(expected, current);
    return s.update('program', current, { ...current, ...(await checkedFields(s, 'Program', current, a)) });
  }),
  serverMutation(organizationSetProgramDefaults, async (s, a, expected) => {
    // Only the caller's own organization is a row they may write (another's is not found).
    const current = await lockRow(s, 'organization', a.organizationId);
    if (!settingsAccess('Organization', orgFlags(s.auth)).write) throw forbidden();
    checkPrecondition(expected, current);
    return s.update('organization', current, { ...current, ...(await checkedFields(s, 'Organization', current, a)) });
  }),
];
