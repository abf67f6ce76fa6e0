// A program's monetization, video monetization and headliner-video defaults on its settings page,
// each field with the organization's default it inherits and whose it is, set here or reset to the
// organization's (src/domain/monetization.ts; the form: src/ui/ProgramSettingsForm.tsx). Saved on
// the device through program.setSettings, offline too: waiting, refused (at the field) and
// conflicting changes are shown on each form. Changing them needs content and manage-settings
// access on the program (section 6); others see them read-only.
import { m } from '../../paraglide/messages.js';
import type { AdMarkerRules } from '../../domain/ad-markers.ts';
import { ownOf, PROGRAM_SETTING_KINDS, ROW_FIELD, type Own, type ProgramSettingKind, type SettingValues } from '../../domain/monetization.ts';
import { programSetSettings } from '../../mutations/program-settings.ts';
import { setProgramSettings } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { useQueuedSetting } from '../../lib/normalization.ts';
import { useQueuedBySetting } from '../../lib/queued-settings.ts';
import { useRow } from '../../lib/rows.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { ProgramSettingsForm } from '../../ui/ProgramSettingsForm.tsx';
import type { Program } from '../../protocol/entities.ts';

type Props = { program: Program; organizationId: string; editable: boolean };

export function ProgramMonetization({ program, organizationId, editable }: Props) {
  const row = useRow('programs', program.Id);
  const organization = useRow('organizations', organizationId);
  const queued = useQueuedSetting('programs', program.Id, programSetSettings.name);
  const bySetting = useQueuedBySetting(program.Id, programSetSettings.name, PROGRAM_SETTING_KINDS);
  if (row.state !== 'ok') return <p className="muted">{m.monetization_not_here()}</p>;
  const rules = (row.row['AdMarkerRules'] as AdMarkerRules | null | undefined) ?? null;
  const refused = queued.refused.at(-1);
  const save = async (kind: ProgramSettingKind, own: unknown, done: string) => {
    if (!(await withLoading(savedLocally(setProgramSettings(program.Id, { [kind]: own }))))) return;
    // A refused change is answered by this one.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    showSavedToast(done);
  };
  return (
    <section className="program-monetization" aria-label={m.monetization_tab()}>
      {PROGRAM_SETTING_KINDS.map((kind) => {
        const own = ownOf(kind, row.row[ROW_FIELD.Program[kind]]);
        const sentArgs = refused ? (refused.mutation.args as Record<string, unknown>)[kind] : undefined;
        const sent = sentArgs === undefined ? null : ownOf(kind, sentArgs);
        const prefix = `${kind}.`;
        const refusedErrors = refused && sentArgs !== undefined ? refused.errors.filter((e) => e.Field.startsWith(prefix)).map((e) => ({ ...e, Field: e.Field.slice(prefix.length), text: refusedFieldText(e, 'programs') })) : [];
        const inherited = organization.state === 'ok' ? ownOf(kind, organization.row[ROW_FIELD.Organization[kind]]) : null;
        // Keyed by the saved values and the last refusal: a change arriving from elsewhere starts the form afresh.
        const key = `${kind}|${JSON.stringify(own)}|${JSON.stringify(inherited)}|${refused?.id ?? ''}`;
        return (
          <ProgramSettingsForm
            key={key}
            kind={kind}
            level="Program"
            organizationId={organizationId}
            own={own as Own<SettingValues<typeof kind>>}
            sent={sent}
            refusedErrors={refusedErrors}
            organization={inherited}
            rules={rules}
            mayWrite={editable}
            queued={{ ...queued, ...bySetting[kind], refusal: sentArgs === undefined ? undefined : queued.refusal }}
            onSave={(value, done) => save(kind, value, done)}
          />
        );
      })}
    </section>
  );
}
