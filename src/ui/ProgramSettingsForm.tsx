// The form of one of a program's monetization, video-monetization and headliner-video settings, at
// the program (over the organization's defaults it inherits) or at the organization (its defaults,
// over the studio's). Rules and inheritance: src/domain/monetization.ts; the page that holds it
// saves through program.setSettings or organization.setProgramDefaults, offline too.
//
//   each field: inherited (the value above, and whose) ──"Set here"──> this level's own value
//     ──Apply──> checked by the domain (refused at the field, nothing queued) ──> queued
//     ──> saved | refused by the server: the values sent come back with the reason at the field
//       | crossed a change made elsewhere: the sync page resolves it
//   "Reset to the organization's" (the organization: "to the studio's") drops every own value.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { getLocale } from '../paraglide/runtime.js';
import { AD_MARKER_TYPES, AD_MAX_ADS, type AdMarkerRules, type AdMarkerType } from '../domain/ad-markers.ts';
import { formatFormError } from '../domain/messages.ts';
import {
  CPM_CURRENCIES,
  CPM_FLOOR_MAX,
  HEADLINER_ASPECT_RATIOS,
  normalizeOwn,
  resolveSetting,
  SETTING_FIELDS,
  settingErrors,
  type AdPosition,
  type CpmFloor,
  type HeadlinerAspectRatio,
  type Own,
  type ProgramSettingKind,
  type SettingSource,
  type SettingsLevel,
  type SettingValues,
} from '../domain/monetization.ts';
import type { FieldError } from '../protocol/errors.ts';
import type { QueuedSetting } from '../lib/normalization.ts';
import { useUnsavedGuard } from '../lib/unsaved.ts';
import { QueuedSettingNote } from './QueuedSettingNote.tsx';
import './program-settings-form.css';

export type ProgramSettingsFormProps<K extends ProgramSettingKind> = {
  kind: K;
  level: SettingsLevel;
  organizationId: string;
  /** This level's own values as saved. */
  own: Own<SettingValues<K>>;
  /** What this device last sent and the server refused (its values come back into the form). */
  sent: Own<SettingValues<K>> | null;
  /** The server's reasons, at fields named within the setting ('CpmFloor.Amount'). */
  refusedErrors: ReadonlyArray<FieldError & { text: string }>;
  /** At program level, the organization's own values (the defaults it inherits). */
  organization: Own<SettingValues<K>> | null;
  /** The program's ad-marker rules, which its ad positions must agree with. */
  rules: AdMarkerRules | null;
  mayWrite: boolean;
  queued: QueuedSetting;
  /** Saves this level's own values (null: none, everything inherited); false when not saved. */
  onSave: (own: Own<SettingValues<K>> | null, done: string) => Promise<void>;
};

type AnyOwn = Record<string, unknown>;

const TITLE: Record<ProgramSettingKind, () => string> = {
  Monetization: () => m.monetization_title(),
  VideoMonetization: () => m.monetization_video_title(),
  HeadlinerVideos: () => m.monetization_headliner_title(),
};
const INTRO: Record<SettingsLevel, Record<ProgramSettingKind, () => string>> = {
  Program: {
    Monetization: () => m.monetization_intro_program(),
    VideoMonetization: () => m.monetization_video_intro_program(),
    HeadlinerVideos: () => m.monetization_headliner_intro_program(),
  },
  Organization: {
    Monetization: () => m.monetization_intro_organization(),
    VideoMonetization: () => m.monetization_video_intro_organization(),
    HeadlinerVideos: () => m.monetization_headliner_intro_organization(),
  },
};

const POSITION: Record<AdMarkerType, () => string> = {
  PreRoll: () => m.monetization_preroll(),
  MidRoll: () => m.monetization_midroll(),
  PostRoll: () => m.monetization_postroll(),
};
const ASPECT: Record<HeadlinerAspectRatio, () => string> = {
  '1:1': () => m.monetization_aspect_square(),
  '9:16': () => m.monetization_aspect_portrait(),
  '16:9': () => m.monetization_aspect_landscape(),
};

/** Words for a value in effect, as the "inherited" line says it. */
function describe(field: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? m.monetization_on() : m.monetization_off();
  if (field === 'AdPositions') {
    const list = value as AdPosition[];
    return list.length === 0 ? m.monetization_none() : list.map((p) => m.monetization_position_count({ position: POSITION[p.Type](), count: p.MaxAds })).join(', ');
  }
  if (field === 'VideoAdPositions') {
    const list = value as AdMarkerType[];
    return list.length === 0 ? m.monetization_none() : list.map((t) => POSITION[t]()).join(', ');
  }
  if (field === 'AspectRatios') return (value as HeadlinerAspectRatio[]).map((r) => ASPECT[r]()).join(', ');
  if (field === 'CpmFloor') {
    const floor = value as CpmFloor;
    return floor.Amount === 0 ? m.monetization_cpm_none() : new Intl.NumberFormat(getLocale(), { style: 'currency', currency: floor.Currency }).format(floor.Amount);
  }
  return String(value);
}

const sameOwn = (a: AnyOwn, b: AnyOwn) => JSON.stringify(a) === JSON.stringify(b);

export function ProgramSettingsForm<K extends ProgramSettingKind>(props: ProgramSettingsFormProps<K>) {
  const { kind, level, mayWrite, queued } = props;
  const headingId = useId();
  const fields = SETTING_FIELDS[kind] as readonly string[];
  const [draft, setDraft] = useState<AnyOwn>({ ...(props.sent ?? props.own) });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const dirty = !sameOwn(draft, props.own as AnyOwn);
  useUnsavedGuard('form', dirty);

  const resolved = resolveSetting(kind, level === 'Program' ? props.organization : null, draft as Own<SettingValues<K>>);
  const inherited = resolved.inherited as AnyOwn;
  const effective = resolved.values as AnyOwn;
  const inheritedSources = resolved.inheritedSources as Record<string, SettingSource>;

  // The server's refusal of this device's last change, at the field it names while the form reads as sent.
  const asSent = props.sent !== null && sameOwn(draft, props.sent as AnyOwn);
  const errorAt = (field: string): string | undefined => {
    const mine = Object.entries(errors).filter(([f]) => f === field || f.startsWith(`${field}.`));
    if (mine.length > 0) return mine.map(([, text]) => text).join(' ');
    if (!asSent) return undefined;
    const theirs = props.refusedErrors.filter((e) => e.Field === field || e.Field.startsWith(`${field}.`));
    return theirs.length > 0 ? theirs.map((e) => e.text).join(' ') : undefined;
  };
  const named = new Set(fields);
  const refusedElsewhere = props.refusedErrors.filter((e) => !named.has(e.Field.split('.')[0]!));
  const refusedWhole = queued.refusal !== undefined && (props.refusedErrors.length === 0 || refusedElsewhere.length > 0 || !asSent) ? queued.refusal : undefined;

  const set = (field: string, value: unknown) => {
    setDraft({ ...draft, [field]: value });
    setErrors((all) => Object.fromEntries(Object.entries(all).filter(([f]) => f !== field && !f.startsWith(`${field}.`))));
  };

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const own = draft as Own<SettingValues<K>>;
    // The domain's rules before anything is queued.
    const problems = settingErrors(kind, level, own, props.organization, props.rules);
    if (problems.length > 0) return setErrors(Object.fromEntries(problems.map((p) => [p.field, formatFormError(p.error)])));
    void props.onSave(normalizeOwn(kind, own), m.monetization_saved({ setting: TITLE[kind]() }));
  };

  const anyOwn = fields.some((f) => (props.own as AnyOwn)[f] !== null);
  const disabled = !mayWrite;

  /** One field: inherited (with the value above and whose) or set here, and its control. */
  const field = (name: string, label: string, control: (value: unknown, onChange: (v: unknown) => void, off: boolean, label: string) => ReactNode) => {
    const own = draft[name] !== null;
    const error = errorAt(name);
    const source = inheritedSources[name] === 'Organization' ? m.monetization_inherited_organization({ value: describe(name, inherited[name]) }) : m.monetization_inherited_default({ value: describe(name, inherited[name]) });
    return (
      <fieldset key={name} className={`inherited-field${error ? ' has-error' : ''}`} data-field={name}>
        <legend>{label}</legend>
        <label className="inherited-toggle">
          <input type="checkbox" checked={own} disabled={disabled} onChange={(e) => set(name, e.target.checked ? structuredClone(inherited[name]) : null)} />
          {level === 'Program' ? m.monetization_set_here_program() : m.monetization_set_here_organization()}
        </label>
        <div className="inherited-control">{control(effective[name], (v) => set(name, v), disabled || !own, label)}</div>
        <p className={own ? 'field-hint' : 'field-hint inherited-source'}>{source}</p>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </fieldset>
    );
  };

  const onOff = (label: string) => (value: unknown, onChange: (v: unknown) => void, off: boolean) => (
    <label className="checkbox-inline">
      <input type="checkbox" checked={value === true} disabled={off} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );

  const adPositions = (value: unknown, onChange: (v: unknown) => void, off: boolean) => {
    const list = value as AdPosition[];
    return (
      <div className="position-rows">
        {AD_MARKER_TYPES.map((type) => {
          const i = list.findIndex((p) => p.Type === type);
          const position = list[i];
          const maxError = errorAt(`AdPositions.${i}.MaxAds`);
          return (
            <div key={type} className="position-row">
              <label className="checkbox-inline">
                <input
                  type="checkbox"
                  checked={position !== undefined}
                  disabled={off}
                  onChange={(e) => onChange(e.target.checked ? [...list, { Type: type, MaxAds: 1 }] : list.filter((p) => p.Type !== type))}
                />{' '}
                {POSITION[type]()}
              </label>
              {position && (
                <label className="position-max">
                  {m.monetization_max_ads()}
                  <input
                    type="number"
                    min={1}
                    max={AD_MAX_ADS}
                    step={1}
                    inputMode="numeric"
                    value={Number.isNaN(position.MaxAds) ? '' : position.MaxAds}
                    disabled={off}
                    aria-label={m.monetization_max_ads_of({ position: POSITION[type]() })}
                    {...(i >= 0 && maxError ? { 'aria-invalid': true } : {})}
                    onChange={(e) => onChange(list.map((p) => (p.Type === type ? { ...p, MaxAds: e.target.value === '' ? Number.NaN : Number(e.target.value) } : p)))}
                  />
                </label>
              )}
            </div>
          );
        })}
      </div>
    );
  };

  /** A set of choices, each a checkbox (video ad positions, aspect ratios), kept in the order shown. */
  const checkList =
    <T extends string>(options: readonly T[], label: (option: T) => string) =>
    (value: unknown, onChange: (v: unknown) => void, off: boolean) => {
      const list = value as T[];
      return (
        <div className="position-rows">
          {options.map((option) => (
            <label key={option} className="checkbox-inline">
              <input type="checkbox" checked={list.includes(option)} disabled={off} onChange={(e) => onChange(e.target.checked ? [...list, option] : list.filter((o) => o !== option))} /> {label(option)}
            </label>
          ))}
        </div>
      );
    };

  const cpmFloor = (value: unknown, onChange: (v: unknown) => void, off: boolean) => {
    const floor = value as CpmFloor;
    return (
      <div className="cpm-floor">
        <label>
          {m.monetization_cpm_amount()}
          <input
            type="number"
            min={0}
            max={CPM_FLOOR_MAX}
            step={0.01}
            inputMode="decimal"
            value={Number.isNaN(floor.Amount) ? '' : floor.Amount}
            disabled={off}
            onChange={(e) => onChange({ ...floor, Amount: e.target.value === '' ? Number.NaN : Number(e.target.value) })}
          />
        </label>
        <label>
          {m.monetization_cpm_currency()}
          <select value={floor.Currency} disabled={off} onChange={(e) => onChange({ ...floor, Currency: e.target.value })}>
            {(CPM_CURRENCIES as readonly string[]).includes(floor.Currency) ? null : <option value={floor.Currency}>{floor.Currency}</option>}
            {CPM_CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
    );
  };

  // A colour well has no words of its own: it is named by its field's.
  const color = (value: unknown, onChange: (v: unknown) => void, off: boolean, label: string) => (
    <input type="color" aria-label={label} value={String(value).toLowerCase()} disabled={off} onChange={(e) => onChange(e.target.value.toUpperCase())} />
  );

  return (
    <form className="card form program-settings-form" aria-labelledby={headingId} noValidate onSubmit={apply} data-setting={kind}>
      <h2 id={headingId}>{TITLE[kind]()}</h2>
      <p className="muted">{INTRO[level][kind]()}</p>
      {!mayWrite && <p className="alert alert-info">{level === 'Program' ? m.monetization_read_only_program() : m.monetization_read_only_organization()}</p>}
      {refusedWhole && (
        <p className="alert alert-danger" role="alert">
          {m.monetization_refused({ reason: refusedWhole })}
        </p>
      )}
      {kind === 'Monetization' && (
        <>
          {field('DynamicAdsEnabled', m.monetization_dynamic_ads(), onOff(m.monetization_dynamic_ads_on()))}
          {field('AdPositions', m.monetization_positions(), adPositions)}
          {field('MemberDownloadsAdFree', m.monetization_member_ad_free(), onOff(m.monetization_member_ad_free_on()))}
          {field('HouseAdsFallback', m.monetization_house_ads(), onOff(m.monetization_house_ads_on()))}
          {field('CpmFloor', m.monetization_cpm_floor(), cpmFloor)}
        </>
      )}
      {kind === 'VideoMonetization' && (
        <>
          {field('VideoAdsEnabled', m.monetization_video_ads(), onOff(m.monetization_video_ads_on()))}
          {field('VideoAdPositions', m.monetization_video_positions(), checkList(AD_MARKER_TYPES, (t) => POSITION[t]()))}
        </>
      )}
      {kind === 'HeadlinerVideos' && (
        <>
          {field('AspectRatios', m.monetization_aspects(), checkList(HEADLINER_ASPECT_RATIOS, (r) => ASPECT[r]()))}
          {field('TranscriptEnabled', m.monetization_transcript(), onOff(m.monetization_transcript_on()))}
          {field('BackgroundColor', m.monetization_background(), color)}
          {field('ForegroundColor', m.monetization_foreground(), color)}
        </>
      )}
      <QueuedSettingNote queued={queued} organizationId={props.organizationId} />
      {mayWrite && (
        <div className="form-actions">
          {anyOwn && (
            <button type="button" className="button" onClick={() => void props.onSave(null, level === 'Program' ? m.monetization_reset_done_program() : m.monetization_reset_done_organization())}>
              {level === 'Program' ? m.monetization_reset_program() : m.monetization_reset_organization()}
            </button>
          )}
          <button type="submit" className="button primary" disabled={!dirty}>
            {m.app_form_apply()}
          </button>
        </div>
      )}
    </form>
  );
}
