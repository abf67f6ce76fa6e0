// The Monetization tab of Organization settings: the monetization, video-monetization and
// headliner-video values the organization's programs inherit unless they set their own
// (src/domain/monetization.ts; the form: src/ui/ProgramSettingsForm.tsx), over the studio's
// defaults. Saved on the device through organization.setProgramDefaults, offline too; changed
// with manage-organization-settings access (section 6), read with audit access too.
import { m } from '../../paraglide/messages.js';
import { organizationFlags } from '../../domain/access.ts';
import { ownOf, PROGRAM_SETTING_KINDS, ROW_FIELD, type Own, type ProgramSettingKind, type SettingValues } from '../../domain/monetization.ts';
import { settingsAccess } from '../../domain/settings.ts';
import { organizationSetProgramDefaults } from '../../mutations/program-settings.ts';
import { setOrganizationProgramDefaults } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { useQueuedSetting } from '../../lib/normalization.ts';
import { useQueuedBySetting } from '../../lib/queued-settings.ts';
import { useIdParams } from '../../lib/params.ts';
import { useRow } from '../../lib/rows.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { ProgramSettingsForm } from '../../ui/ProgramSettingsForm.tsx';

export function ProgramDefaultsSettings() {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const access = settingsAccess('Organization', organizationFlags((session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? []));
  const row = useRow('organizations', organizationId);
  const queued = useQueuedSetting('organizations', organizationId, organizationSetProgramDefaults.name);
  const bySetting = useQueuedBySetting(organizationId, organizationSetProgramDefaults.name, PROGRAM_SETTING_KINDS);
  if (!access.read) return null;
  if (row.state !== 'ok') return <p className="muted">{m.monetization_not_here()}</p>;
  const refused = queued.refused.at(-1);
  const save = async (kind: ProgramSettingKind, own: unknown, done: string) => {
    if (!(await withLoading(savedLocally(setOrganizationProgramDefaults(organizationId, { [kind]: own }))))) return;
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    showSavedToast(done);
  };
  return (
    <>
      {PROGRAM_SETTING_KINDS.map((kind) => {
        const own = ownOf(kind, row.row[ROW_FIELD.Organization[kind]]);
        const sentArgs = refused ? (refused.mutation.args as Record<string, unknown>)[kind] : undefined;
        const prefix = `${kind}.`;
        const refusedErrors = refused && sentArgs !== undefined ? refused.errors.filter((e) => e.Field.startsWith(prefix)).map((e) => ({ ...e, Field: e.Field.slice(prefix.length), text: refusedFieldText(e, 'organizations') })) : [];
        return (
          <ProgramSettingsForm
            key={`${kind}|${JSON.stringify(own)}|${refused?.id ?? ''}`}
            kind={kind}
            level="Organization"
            organizationId={organizationId}
            own={own as Own<SettingValues<typeof kind>>}
            sent={sentArgs === undefined ? null : ownOf(kind, sentArgs)}
            refusedErrors={refusedErrors}
            organization={null}
            rules={null}
            mayWrite={access.write}
            queued={{ ...queued, ...bySetting[kind], refusal: sentArgs === undefined ? undefined : queued.refusal }}
            onSave={(value, done) => save(kind, value, done)}
          />
        );
      })}
    </>
  );
}
