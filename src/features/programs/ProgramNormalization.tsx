// The program's loudness normalization on its settings page, with its inheritance in view: the
// organization's choice unless the program makes its own (src/domain/settings.ts
// effectiveNormalization, the rule the server answers GET …/settings/normalization with), and
// "Reset to inherited" to drop its own. Saved on the device through program.setNormalization,
// offline too: waiting, refused (at the field) and conflicting changes are shown here. Changing it
// needs content and manage-settings access on the program (section 6), as the page's other fields.
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { effectiveNormalization, type NormalizationChoice } from '../../domain/settings.ts';
import { programSetNormalization } from '../../mutations/settings.ts';
import { setProgramNormalization } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { useRow } from '../../lib/rows.ts';
import { useNormalizationPresets } from '../../lib/reference-data.ts';
import { normalizationLabel, useQueuedSetting } from '../../lib/normalization.ts';
import { NormalizationField } from '../../ui/NormalizationField.tsx';
import { savedLocally } from '../../lib/local-write.ts';
import { withLoading } from '../../lib/loading.ts';
import { showSavedToast } from '../../lib/toast.ts';
import type { Program } from '../../protocol/entities.ts';

type Props = { program: Program; organizationId: string; editable: boolean };

export function ProgramNormalization(props: Props) {
  const organization = useRow('organizations', props.organizationId);
  const inherited = organization.state === 'ok' ? ((organization.row['Normalization'] as NormalizationChoice | null | undefined) ?? null) : null;
  const effective = effectiveNormalization(inherited, props.program.Normalization);
  // Keyed by what is in effect: a change saved here or arriving from elsewhere starts the form afresh.
  return <NormalizationCard key={`${effective.Source}:${effective.PresetId ?? ''}`} {...props} inherited={inherited?.PresetId ?? null} effective={effective} />;
}

function NormalizationCard({
  program,
  organizationId,
  editable,
  inherited,
  effective,
}: Props & { inherited: string | null; effective: ReturnType<typeof effectiveNormalization> }) {
  const presets = useNormalizationPresets();
  const queued = useQueuedSetting('programs', program.Id, programSetNormalization.name);
  const [value, setValue] = useState(effective.PresetId ?? '');
  const chosen = value === '' ? null : value;
  const own = effective.Source === 'Program';

  const write = async (choice: NormalizationChoice | null, done: string) => {
    if (!(await withLoading(savedLocally(setProgramNormalization(program.Id, choice))))) return;
    // A refused change is answered by this one.
    for (const item of queued.refused) void savedLocally(dismissNeedsAttention(item.id));
    showSavedToast(done);
  };

  return (
    <form
      className="card form"
      aria-labelledby="program-normalization"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void write({ PresetId: chosen }, m.settings_normalization_saved());
      }}
    >
      <h2 id="program-normalization">{m.settings_normalization_title()}</h2>
      <p className="muted">{m.settings_normalization_program_intro()}</p>
      <p className={own ? 'pill' : 'pill pill-ready'} data-testid="normalization-source">
        {own ? m.settings_normalization_own({ preset: normalizationLabel(inherited, presets) }) : m.settings_normalization_inherited({ preset: normalizationLabel(inherited, presets) })}
      </p>
      {!editable && <p className="muted">{m.settings_normalization_program_read_only()}</p>}
      <NormalizationField organizationId={organizationId} presets={presets} queued={queued} value={value} disabled={!editable} onChange={setValue} />
      {editable && (
        <div className="form-actions">
          {own && (
            <button type="button" className="button" onClick={() => void write(null, m.settings_normalization_reset_done())}>
              {m.settings_normalization_reset()}
            </button>
          )}
          {/* Saving the value in effect makes it the program's own (it then no longer follows the organization). */}
          <button type="submit" className="button primary" disabled={chosen === effective.PresetId}>
            {m.app_form_apply()}
          </button>
        </div>
      )}
    </form>
  );
}
