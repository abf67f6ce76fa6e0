// The program's ad-marker rules on its settings page (issue 34): a pre-roll and a post-roll
// required, the fewest and most mid-rolls, their spacing, the opening and closing seconds kept free
// of them, the most ads a break may hold. Kept on the program's row and saved on the device through
// program.setAdMarkerRules, so they are changed offline like the page's other settings; each rule
// checked by src/domain/ad-markers.ts at its field before anything is queued (the server runs the
// same). A clip's Ad markers section shows what goes against them at each marker. Changing them
// needs content and manage-settings access on the program (section 6).
import { useId, useState } from 'react';
import { adMarkerRulesErrors, DEFAULT_AD_MARKER_RULES, type AdMarkerRules, type AdMarkerRulesField } from '../../domain/ad-markers.ts';
import { formatFormError } from '../../domain/messages.ts';
import { setProgramAdMarkerRules } from '../../db/writes.ts';
import { m } from '../../paraglide/messages.js';
import type { Program } from '../../protocol/entities.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { useProgramFlags } from '../../lib/session.ts';
import { showSavedToast } from '../../lib/toast.ts';

type Numbers = Exclude<AdMarkerRulesField, 'PreRollRequired' | 'PostRollRequired'>;
const NUMBERS: Numbers[] = ['MinMidRolls', 'MaxMidRolls', 'MinSpacingSeconds', 'NoMidRollFirstSeconds', 'NoMidRollLastSeconds', 'MaxAdsPerBreak'];
/** Rules that may be left empty: no limit. */
const OPTIONAL = new Set<Numbers>(['MaxMidRolls', 'MaxAdsPerBreak']);

const LABEL: Record<Numbers, () => string> = {
  MinMidRolls: () => m.settings_ad_rules_min_midrolls(),
  MaxMidRolls: () => m.settings_ad_rules_max_midrolls(),
  MinSpacingSeconds: () => m.settings_ad_rules_spacing(),
  NoMidRollFirstSeconds: () => m.settings_ad_rules_first(),
  NoMidRollLastSeconds: () => m.settings_ad_rules_last(),
  MaxAdsPerBreak: () => m.settings_ad_rules_max_ads(),
};

type Form = { PreRollRequired: boolean; PostRollRequired: boolean } & Record<Numbers, string>;
const toForm = (r: AdMarkerRules): Form => ({
  PreRollRequired: r.PreRollRequired,
  PostRollRequired: r.PostRollRequired,
  ...(Object.fromEntries(NUMBERS.map((k) => [k, r[k] === null ? '' : String(r[k])])) as Record<Numbers, string>),
});
const fromForm = (f: Form): AdMarkerRules => ({
  PreRollRequired: f.PreRollRequired,
  PostRollRequired: f.PostRollRequired,
  // Text that is no number stays NaN, for the rule to refuse at its field.
  ...(Object.fromEntries(NUMBERS.map((k) => [k, f[k].trim() === '' ? (OPTIONAL.has(k) ? null : 0) : Number(f[k].trim())])) as Record<Numbers, number>),
});

export function ProgramAdMarkerRules({ program }: { program: Program }) {
  const flags = useProgramFlags(program.OrganizationId, program);
  const editable = flags !== null && flags.HasContentAccess && flags.HasManageSettingsAccess;
  const saved = program.AdMarkerRules ?? null;
  // Keyed by the saved rules: a change saved here or arriving from elsewhere starts the form afresh.
  return <RulesCard key={JSON.stringify(saved)} program={program} saved={saved} editable={editable} />;
}

function RulesCard({ program, saved, editable }: { program: Program; saved: AdMarkerRules | null; editable: boolean }) {
  const id = useId();
  const [form, setForm] = useState<Form>(() => toForm(saved ?? DEFAULT_AD_MARKER_RULES));
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = async (rules: AdMarkerRules | null) => {
    const found = rules ? Object.fromEntries(Object.entries(adMarkerRulesErrors(rules)).map(([f, e]) => [f.replace('AdMarkerRules.', ''), formatFormError(e)])) : {};
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
        void save(fromForm(form));
      }}
    >
      <h2 id={`${id}-title`}>{m.settings_ad_rules_title()}</h2>
      <p className="muted">{saved ? m.settings_ad_rules_intro() : m.settings_ad_rules_none()}</p>
      {!editable && <p className="muted">{m.settings_ad_rules_read_only()}</p>}
      {(['PreRollRequired', 'PostRollRequired'] as const).map((k) => (
        <label key={k} className="checkbox">
          <input type="checkbox" disabled={!editable} checked={form[k]} onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.checked }))} />{' '}
          {k === 'PreRollRequired' ? m.settings_ad_rules_preroll() : m.settings_ad_rules_postroll()}
        </label>
      ))}
      <div className="field-row">
        {NUMBERS.map((k) => (
          <div key={k} className={`field${errors[k] ? ' has-error' : ''}`}>
            <label htmlFor={`${id}-${k}`}>{LABEL[k]()}</label>
            <input
              id={`${id}-${k}`}
              inputMode="numeric"
              disabled={!editable}
              value={form[k]}
              placeholder={OPTIONAL.has(k) ? m.settings_ad_rules_any() : '0'}
              aria-invalid={errors[k] !== undefined}
              aria-describedby={errors[k] ? `${id}-${k}-error` : undefined}
              onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.value }))}
            />
            {errors[k] && <p id={`${id}-${k}-error`} role="alert" className="field-error">{errors[k]}</p>}
          </div>
        ))}
      </div>
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
