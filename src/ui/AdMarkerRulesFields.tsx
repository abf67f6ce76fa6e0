// The fields of a set of ad-marker rules (src/domain/ad-markers.ts AdMarkerRules), one copy for the
// two places that edit them: a program's rules on its settings page and a clip's own rules in place
// of its program's (the clip screen's Ad markers section). Each screen keeps the form's text and
// saves through its own named mutation; the rules are checked by adMarkerRulesErrors either way,
// each error shown at its field here. AdMarkerRulesSummary says a set of rules in words, read-only.
import type { ReactNode } from 'react';
import { adMarkerRulesErrors, type AdMarkerRules, type AdMarkerRulesField } from '../domain/ad-markers.ts';
import { formatFormError } from '../domain/messages.ts';
import { m } from '../paraglide/messages.js';
import './ad-marker-rules.css';

type Numbers = Exclude<AdMarkerRulesField, 'PreRollRequired' | 'PostRollRequired'>;
const NUMBERS: Numbers[] = ['MinMidRolls', 'MaxMidRolls', 'MinSpacingSeconds', 'NoMidRollFirstSeconds', 'NoMidRollLastSeconds', 'MaxAdsPerBreak'];
/** Rules that may be left empty: no limit. */
const OPTIONAL = new Set<Numbers>(['MaxMidRolls', 'MaxAdsPerBreak']);
const SWITCHES = ['PreRollRequired', 'PostRollRequired'] as const;

const LABEL: Record<AdMarkerRulesField, () => string> = {
  PreRollRequired: () => m.settings_ad_rules_preroll(),
  PostRollRequired: () => m.settings_ad_rules_postroll(),
  MinMidRolls: () => m.settings_ad_rules_min_midrolls(),
  MaxMidRolls: () => m.settings_ad_rules_max_midrolls(),
  MinSpacingSeconds: () => m.settings_ad_rules_spacing(),
  NoMidRollFirstSeconds: () => m.settings_ad_rules_first(),
  NoMidRollLastSeconds: () => m.settings_ad_rules_last(),
  MaxAdsPerBreak: () => m.settings_ad_rules_max_ads(),
};

/** The form's state: the switches, and each number as typed. */
export type AdMarkerRulesForm = { PreRollRequired: boolean; PostRollRequired: boolean } & Record<Numbers, string>;

export const rulesToForm = (r: AdMarkerRules): AdMarkerRulesForm => ({
  PreRollRequired: r.PreRollRequired,
  PostRollRequired: r.PostRollRequired,
  ...(Object.fromEntries(NUMBERS.map((k) => [k, r[k] === null ? '' : String(r[k])])) as Record<Numbers, string>),
});

export const rulesFromForm = (f: AdMarkerRulesForm): AdMarkerRules => ({
  PreRollRequired: f.PreRollRequired,
  PostRollRequired: f.PostRollRequired,
  // Text that is no number stays NaN, for the rule to refuse at its field.
  ...(Object.fromEntries(NUMBERS.map((k) => [k, f[k].trim() === '' ? (OPTIONAL.has(k) ? null : 0) : Number(f[k].trim())])) as Record<Numbers, number>),
});

/** The rules' errors in words, keyed by the rule's own name (the wire prefix taken off). */
export function rulesFieldErrors(rules: AdMarkerRules): Record<string, string> {
  return Object.fromEntries(Object.entries(adMarkerRulesErrors(rules, 'Rules')).map(([f, e]) => [f.replace(/^Rules\./, ''), formatFormError(e)]));
}

/** A field name of a refusal (AdMarkerRules.X, Rules.X) as the rule's own name, or null for another field. */
export function ruleOfField(field: string): AdMarkerRulesField | null {
  const name = field.replace(/^(AdMarkerRules|Rules)\./, '');
  return name !== field && name in LABEL ? (name as AdMarkerRulesField) : null;
}

export function AdMarkerRulesFields({ id, form, onChange, errors, disabled = false }: {
  /** Prefix of the controls' ids: `${id}-${rule}`. */
  id: string;
  form: AdMarkerRulesForm;
  onChange: (change: Partial<AdMarkerRulesForm>) => void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  return (
    <>
      {SWITCHES.map((k) => (
        <label key={k} className="checkbox">
          <input type="checkbox" disabled={disabled} checked={form[k]} onChange={(e) => onChange({ [k]: e.target.checked })} /> {LABEL[k]()}
        </label>
      ))}
      <div className="field-row">
        {NUMBERS.map((k) => (
          <div key={k} className={`field${errors[k] ? ' has-error' : ''}`}>
            <label htmlFor={`${id}-${k}`}>{LABEL[k]()}</label>
            <input
              id={`${id}-${k}`}
              inputMode="numeric"
              disabled={disabled}
              value={form[k]}
              placeholder={OPTIONAL.has(k) ? m.settings_ad_rules_any() : '0'}
              aria-invalid={errors[k] !== undefined}
              aria-describedby={errors[k] ? `${id}-${k}-error` : undefined}
              onChange={(e) => onChange({ [k]: e.target.value })}
            />
            {errors[k] && <p id={`${id}-${k}-error`} role="alert" className="field-error">{errors[k]}</p>}
          </div>
        ))}
      </div>
    </>
  );
}

/** The rules in words, each beside its field's name: a switch on or off, a number or "Any". */
export function AdMarkerRulesSummary({ rules, label }: { rules: AdMarkerRules; label: string }): ReactNode {
  return (
    <dl className="ad-rules-summary" aria-label={label}>
      {[...SWITCHES, ...NUMBERS].map((k) => {
        const v = rules[k];
        return (
          <div key={k}>
            <dt>{LABEL[k]()}</dt>
            <dd>{typeof v === 'boolean' ? (v ? m.markers_rule_yes() : m.markers_rule_no()) : v === null ? m.settings_ad_rules_any() : String(v)}</dd>
          </div>
        );
      })}
    </dl>
  );
}
