// The program's ad-marker rules on its settings page (issue 34): a pre-roll and a post-roll
// required, the fewest and most mid-rolls, their spacing, the opening and closing seconds kept free
// of them, the most ads a break may hold. Kept on the program's row and saved on the device through
// program.setAdMarkerRules, so they are changed offline like the page's other settings; each rule
// checked by src/domain/ad-markers.ts at its field before anything is queued (the server runs the
// same). A clip's Ad markers section shows what goes against them at each marker. Changing them
// needs content and manage-settings access on the program (section 6).
import { useId, useState } from 'react';
import { DEFAULT_AD_MARKER_RULES, type AdMarkerRules } from '../../domain/ad-markers.ts';
import { setProgramAdMarkerRules } from '../../db/writes.ts';
import { m } from '../../paraglide/messages.js';
import type { Program } from '../../protocol/entities.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { useProgramFlags } from '../../lib/session.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { AdMarkerRulesFields, rulesFieldErrors, rulesFromForm, rulesToForm, type AdMarkerRulesForm } from '../../ui/AdMarkerRulesFields.tsx';

export function ProgramAdMarkerRules({ program }: { program: Program }) {
  const flags = useProgramFlags(program.OrganizationId, program);
  const editable = flags !== null && flags.HasContentAccess && flags.HasManageSettingsAccess;
  const saved = program.AdMarkerRules ?? null;
  // Keyed by the saved rules: a change saved here or arriving from elsewhere starts the form afresh.
  return <RulesCard key={JSON.stringify(saved)} program={program} saved={saved} editable={editable} />;
}

function RulesCard({ program, saved, editable }: { program: Program; saved: AdMarkerRules | null; editable: boolean }) {
  const id = useId();
  const [form, setForm] = useState<AdMarkerRulesForm>(() => rulesToForm(saved ?? DEFAULT_AD_MARKER_RULES));
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = async (rules: AdMarkerRules | null) => {
    const found = rules ? rulesFieldErrors(rules) : {};
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${CSS.escape(id)} [aria-invalid="true"]`)?.focus());
      return;
    }
    if (await savedLocally(setProgramAdMarkerRules(program.Id, rules))) showSavedToast(m.settings_ad_rules_saved());
  };

  return (
    <form
      id={id}
      className="card form"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(rulesFromForm(form));
      }}
    >
      <h2 id={`${id}-title`}>{m.settings_ad_rules_title()}</h2>
      <p className="muted">{saved ? m.settings_ad_rules_intro() : m.settings_ad_rules_none()}</p>
      {!editable && <p className="muted">{m.settings_ad_rules_read_only()}</p>}
      <AdMarkerRulesFields id={id} form={form} onChange={(change) => setForm((f) => ({ ...f, ...change }))} errors={errors} disabled={!editable} />
      {editable && (
        <div className="form-actions">
          {saved && (
            <button type="button" className="button" onClick={() => void save(null)}>
              {m.settings_ad_rules_remove()}
            </button>
          )}
          <button type="submit" className="button primary">{m.app_form_apply()}</button>
        </div>
      )}
    </form>
  );
}
