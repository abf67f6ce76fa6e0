// A program's monetization, video monetization and headliner-video settings (issue 33; section 7
// program settings root, settings/monetization and its defaults, settings/video-monetization,
// settings/headliner-videos; section 1 "set monetization, video-monetization … settings"; the
// clip's MemberDownloadsAdFree). The one place for their rules, used by the screens before they
// queue a change and by the server before it writes.
//
// What each setting holds, as a podcast host with dynamic ad insertion keeps it:
//   Monetization       whether dynamic ads are inserted; which ad positions may be sold, each with
//                      the most ads a break there holds (the types and limit of the ad markers,
//                      src/domain/ad-markers.ts); whether members' downloads are ad-free by
//                      default (a new clip's MemberDownloadsAdFree); house ads (the network's own
//                      promos) where no campaign fills a break; the lowest CPM sold, in a currency.
//   VideoMonetization  whether video episodes carry ads, and at which positions.
//   HeadlinerVideos    what an audiogram made by POST /v1/clips/{clipId}/headliner-videos looks
//                      like unless the call says otherwise: its aspect ratios, whether the
//                      transcript is burned in (transcriptEnabled), its colours.
//
// The organization sets the defaults its programs inherit; a program keeps only what it sets. A
// field left null is inherited, field by field:
//
//   program's own ──null──> the organization's default ──null──> the studio's (…_DEFAULTS)
//
// Two kinds of check: each field on its own (…Errors, at the field's name within the setting:
// 'CpmFloor.Amount', 'AdPositions.1.MaxAds'), and what only the values in effect can say (dynamic
// ads switched on with no position to sell, headliner colours too alike: …EffectErrors). A
// program's own ad positions must also agree with its ad-marker rules: no break sold with more
// ads than the rules allow in one (MaxAdsPerBreak), no mid-roll sold where the rules allow none.
import { AD_MARKER_TYPES, AD_MAX_ADS, type AdMarkerRules, type AdMarkerType } from './ad-markers.ts';
import { formError, type FormError } from './form-errors.ts';

export type SettingsLevel = 'Organization' | 'Program';
/** Whose value a field in effect is: the program's own, the organization's default, or the studio's. */
export type SettingSource = 'Program' | 'Organization' | 'Default';

/** What one level sets of a setting: null is not set there (inherited). */
export type Own<T> = { [K in keyof T]: T[K] | null };

export type FieldProblem = { field: string; error: FormError };

// ── Monetization ─────────────────────────────────────────────────────────────────────────────

export type AdPosition = { Type: AdMarkerType; MaxAds: number };
export type CpmFloor = { Amount: number; Currency: string };

export type Monetization = {
  DynamicAdsEnabled: boolean;
  /** The positions that may be sold, at most one of each type, in the order pre, mid, post. */
  AdPositions: AdPosition[];
  /** A new clip's MemberDownloadsAdFree: members (subscribers) download it without ads. */
  MemberDownloadsAdFree: boolean;
  /** Fill a break no campaign buys with the organization's house ads (else it is left out). */
  HouseAdsFallback: boolean;
  /** The lowest price per thousand impressions sold; 0: no floor. */
  CpmFloor: CpmFloor;
};
export type MonetizationField = keyof Monetization;
export const MONETIZATION_FIELDS = ['DynamicAdsEnabled', 'AdPositions', 'MemberDownloadsAdFree', 'HouseAdsFallback', 'CpmFloor'] as const satisfies readonly MonetizationField[];

export const MONETIZATION_DEFAULTS: Monetization = {
  DynamicAdsEnabled: false,
  AdPositions: [
    { Type: 'PreRoll', MaxAds: 1 },
    { Type: 'MidRoll', MaxAds: 2 },
    { Type: 'PostRoll', MaxAds: 1 },
  ],
  // As a new clip has it where nobody chose (src/domain/clip-defaults.ts).
  MemberDownloadsAdFree: false,
  HouseAdsFallback: false,
  CpmFloor: { Amount: 0, Currency: 'USD' },
};

/** The highest CPM floor: above what any podcast campaign pays, so a typo (2500 for 25.00) is caught. */
export const CPM_FLOOR_MAX = 1000;
/** The currencies ad campaigns are sold in (ISO 4217), those of the studio's languages' markets. */
export const CPM_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'BRL', 'MXN', 'ARS', 'CLP', 'COP', 'CHF'] as const;

const isWhole = (n: number) => Number.isInteger(n);

/** The positions in the ad markers' order (pre, mid, post), as kept. */
export function sortAdPositions(positions: readonly AdPosition[]): AdPosition[] {
  return [...positions].sort((a, b) => AD_MARKER_TYPES.indexOf(a.Type) - AD_MARKER_TYPES.indexOf(b.Type));
}

/** The most ads a sold break may hold: the ad markers' limit, or less where the program's rules say so. */
export function maxAdsPerBreak(rules: AdMarkerRules | null | undefined): number {
  return rules?.MaxAdsPerBreak != null ? Math.min(rules.MaxAdsPerBreak, AD_MAX_ADS) : AD_MAX_ADS;
}

function positionErrors(positions: readonly AdPosition[], rules: AdMarkerRules | null): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<AdMarkerType>();
  const limit = maxAdsPerBreak(rules);
  positions.forEach((p, i) => {
    if (seen.has(p.Type)) problems.push({ field: `AdPositions.${i}.Type`, error: formError('invalid', 'domain_monetization_position_twice') });
    seen.add(p.Type);
    if (p.Type === 'MidRoll' && rules?.MaxMidRolls === 0) problems.push({ field: `AdPositions.${i}.Type`, error: formError('invalid', 'domain_monetization_no_midrolls') });
    if (!isWhole(p.MaxAds) || p.MaxAds < 1 || p.MaxAds > AD_MAX_ADS) {
      problems.push({ field: `AdPositions.${i}.MaxAds`, error: formError('outOfRange', 'domain_number_between', { min: 1, max: AD_MAX_ADS }, p.MaxAds < 1 ? 'underflow' : 'overflow') });
    } else if (p.MaxAds > limit) {
      // The program's ad-marker rules allow fewer ads in one break than the markers' limit.
      problems.push({ field: `AdPositions.${i}.MaxAds`, error: formError('outOfRange', 'domain_ad_violation_too_many_ads', { max: limit }, 'overflow') });
    }
  });
  return problems;
}

/**
 * Each field a level sets, checked on its own; `rules`: the program's ad-marker rules (null at
 * the organization, whose positions no program's rules bind). Keyed by the field's name within
 * the setting.
 */
export function monetizationErrors(own: Own<Monetization>, rules: AdMarkerRules | null): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (own.AdPositions !== null) problems.push(...positionErrors(own.AdPositions, rules));
  if (own.CpmFloor !== null) {
    const { Amount, Currency } = own.CpmFloor;
    if (!Number.isFinite(Amount) || Amount < 0 || Amount > CPM_FLOOR_MAX) {
      problems.push({ field: 'CpmFloor.Amount', error: formError('outOfRange', 'domain_number_between', { min: 0, max: CPM_FLOOR_MAX }, Amount < 0 ? 'underflow' : 'overflow') });
    } else if (!isWhole(Math.round(Amount * 100 * 1e6) / 1e6)) {
      problems.push({ field: 'CpmFloor.Amount', error: formError('invalid', 'domain_monetization_cpm_cents') });
    }
    if (!(CPM_CURRENCIES as readonly string[]).includes(Currency)) {
      problems.push({ field: 'CpmFloor.Currency', error: formError('invalid', 'domain_monetization_currency_unknown', { value: Currency }) });
    }
  }
  return problems;
}

/** Dynamic ads in effect need a position to sell: refused at AdPositions. */
export function monetizationEffectErrors(effective: Monetization): FieldProblem[] {
  return effective.DynamicAdsEnabled && effective.AdPositions.length === 0 ? [{ field: 'AdPositions', error: formError('required', 'domain_monetization_positions_needed') }] : [];
}

// ── Video monetization ───────────────────────────────────────────────────────────────────────

export type VideoMonetization = {
  /** Whether video episodes (MediaType AudioAndVideo) carry ads. */
  VideoAdsEnabled: boolean;
  /** Where in a video ads go, at most one of each, in the order pre, mid, post. */
  VideoAdPositions: AdMarkerType[];
};
export const VIDEO_MONETIZATION_FIELDS = ['VideoAdsEnabled', 'VideoAdPositions'] as const satisfies readonly (keyof VideoMonetization)[];

export const VIDEO_MONETIZATION_DEFAULTS: VideoMonetization = { VideoAdsEnabled: false, VideoAdPositions: ['PreRoll', 'PostRoll'] };

export function videoMonetizationErrors(own: Own<VideoMonetization>, rules: AdMarkerRules | null): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<AdMarkerType>();
  (own.VideoAdPositions ?? []).forEach((type, i) => {
    if (seen.has(type)) problems.push({ field: `VideoAdPositions.${i}`, error: formError('invalid', 'domain_monetization_position_twice') });
    seen.add(type);
    if (type === 'MidRoll' && rules?.MaxMidRolls === 0) problems.push({ field: `VideoAdPositions.${i}`, error: formError('invalid', 'domain_monetization_no_midrolls') });
  });
  return problems;
}

export function videoMonetizationEffectErrors(effective: VideoMonetization): FieldProblem[] {
  return effective.VideoAdsEnabled && effective.VideoAdPositions.length === 0 ? [{ field: 'VideoAdPositions', error: formError('required', 'domain_monetization_positions_needed') }] : [];
}

export function sortAdTypes(types: readonly AdMarkerType[]): AdMarkerType[] {
  return [...types].sort((a, b) => AD_MARKER_TYPES.indexOf(a) - AD_MARKER_TYPES.indexOf(b));
}

// ── Headliner videos ─────────────────────────────────────────────────────────────────────────

/** Square for feeds, portrait for stories and reels, landscape for YouTube. */
export const HEADLINER_ASPECT_RATIOS = ['1:1', '9:16', '16:9'] as const;
export type HeadlinerAspectRatio = (typeof HEADLINER_ASPECT_RATIOS)[number];

export type HeadlinerVideos = {
  AspectRatios: HeadlinerAspectRatio[];
  /** Burn the clip's transcript in as captions (the call's transcriptEnabled when it names none). */
  TranscriptEnabled: boolean;
  /** #RRGGBB behind the waveform and captions. */
  BackgroundColor: string;
  /** #RRGGBB of the waveform and the captions. */
  ForegroundColor: string;
};
export const HEADLINER_FIELDS = ['AspectRatios', 'TranscriptEnabled', 'BackgroundColor', 'ForegroundColor'] as const satisfies readonly (keyof HeadlinerVideos)[];

export const HEADLINER_DEFAULTS: HeadlinerVideos = { AspectRatios: ['1:1'], TranscriptEnabled: true, BackgroundColor: '#14213D', ForegroundColor: '#FCA311' };

/** WCAG's least contrast for graphics and large text (1.4.11): captions over the background stay readable. */
export const HEADLINER_MIN_CONTRAST = 3;

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** A colour as kept: #RRGGBB in capitals ('#fca311' and 'fca311' are the same). */
export function normalizeColor(text: string): string {
  const t = text.trim();
  const hex = t.startsWith('#') ? t : `#${t}`;
  return HEX_COLOR.test(hex) ? hex.toUpperCase() : t;
}

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG contrast ratio of two #RRGGBB colours, 1 (the same) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export function headlinerErrors(own: Own<HeadlinerVideos>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (own.AspectRatios !== null) {
    if (own.AspectRatios.length === 0) problems.push({ field: 'AspectRatios', error: formError('required') });
    const seen = new Set<string>();
    own.AspectRatios.forEach((ratio, i) => {
      if (seen.has(ratio)) problems.push({ field: `AspectRatios.${i}`, error: formError('invalid', 'domain_headliner_aspect_twice') });
      seen.add(ratio);
    });
  }
  for (const field of ['BackgroundColor', 'ForegroundColor'] as const) {
    const value = own[field];
    if (value !== null && !HEX_COLOR.test(value)) problems.push({ field, error: formError('invalid', 'domain_headliner_color') });
  }
  return problems;
}

/** Colours in effect too alike to read captions by: refused at the colour this level sets (the foreground when both). */
export function headlinerEffectErrors(own: Own<HeadlinerVideos>, effective: HeadlinerVideos): FieldProblem[] {
  if (!HEX_COLOR.test(effective.BackgroundColor) || !HEX_COLOR.test(effective.ForegroundColor)) return [];
  const ratio = contrastRatio(effective.BackgroundColor, effective.ForegroundColor);
  if (ratio >= HEADLINER_MIN_CONTRAST) return [];
  const field = own.ForegroundColor === null && own.BackgroundColor !== null ? 'BackgroundColor' : 'ForegroundColor';
  return [{ field, error: formError('outOfRange', 'domain_headliner_contrast', { ratio: Math.floor(ratio * 10) / 10, min: HEADLINER_MIN_CONTRAST }, 'underflow') }];
}

// ── Inheritance, shared by the three ─────────────────────────────────────────────────────────

export type ProgramSettingKind = 'Monetization' | 'VideoMonetization' | 'HeadlinerVideos';
export const PROGRAM_SETTING_KINDS = ['Monetization', 'VideoMonetization', 'HeadlinerVideos'] as const satisfies readonly ProgramSettingKind[];

type Values = { Monetization: Monetization; VideoMonetization: VideoMonetization; HeadlinerVideos: HeadlinerVideos };
export type SettingValues<K extends ProgramSettingKind> = Values[K];

export const SETTING_FIELDS: { [K in ProgramSettingKind]: readonly (keyof Values[K])[] } = {
  Monetization: MONETIZATION_FIELDS,
  VideoMonetization: VIDEO_MONETIZATION_FIELDS,
  HeadlinerVideos: HEADLINER_FIELDS,
};
export const SETTING_DEFAULTS: { [K in ProgramSettingKind]: Values[K] } = {
  Monetization: MONETIZATION_DEFAULTS,
  VideoMonetization: VIDEO_MONETIZATION_DEFAULTS,
  HeadlinerVideos: HEADLINER_DEFAULTS,
};

/** Where each level keeps its own values: the program's row, and the organization's row for the defaults. */
export const ROW_FIELD: Record<SettingsLevel, Record<ProgramSettingKind, string>> = {
  Program: { Monetization: 'Monetization', VideoMonetization: 'VideoMonetization', HeadlinerVideos: 'HeadlinerVideos' },
  Organization: { Monetization: 'MonetizationDefaults', VideoMonetization: 'VideoMonetizationDefaults', HeadlinerVideos: 'HeadlinerVideoDefaults' },
};

/** Nothing set: every field null. */
export function emptyOwn<K extends ProgramSettingKind>(kind: K): Own<Values[K]> {
  return Object.fromEntries(SETTING_FIELDS[kind].map((f) => [f, null])) as Own<Values[K]>;
}

/** A level's own values as a row holds them (absent or null: none set), every field present. */
export function ownOf<K extends ProgramSettingKind>(kind: K, stored: unknown): Own<Values[K]> {
  const own = emptyOwn(kind) as Record<string, unknown>;
  if (typeof stored === 'object' && stored !== null) {
    for (const f of SETTING_FIELDS[kind] as readonly string[]) {
      const v = (stored as Record<string, unknown>)[f];
      if (v !== undefined) own[f] = v;
    }
  }
  return own as Own<Values[K]>;
}

/** As kept: null when nothing is set; positions in order, colours as #RRGGBB. */
export function normalizeOwn<K extends ProgramSettingKind>(kind: K, own: Own<Values[K]>): Own<Values[K]> | null {
  const out = { ...own } as Record<string, unknown>;
  if (kind === 'Monetization' && Array.isArray(out['AdPositions'])) out['AdPositions'] = sortAdPositions(out['AdPositions'] as AdPosition[]);
  if (kind === 'VideoMonetization' && Array.isArray(out['VideoAdPositions'])) out['VideoAdPositions'] = sortAdTypes(out['VideoAdPositions'] as AdMarkerType[]);
  if (kind === 'HeadlinerVideos') {
    if (Array.isArray(out['AspectRatios'])) out['AspectRatios'] = [...(out['AspectRatios'] as HeadlinerAspectRatio[])].sort((x, y) => HEADLINER_ASPECT_RATIOS.indexOf(x) - HEADLINER_ASPECT_RATIOS.indexOf(y));
    for (const f of ['BackgroundColor', 'ForegroundColor']) if (typeof out[f] === 'string') out[f] = normalizeColor(out[f] as string);
  }
  return Object.values(out).every((v) => v === null) ? null : (out as Own<Values[K]>);
}

/**
 * A JSON Merge Patch (RFC 7396) of a level's own values: a field left out is kept, null drops it
 * (inherited again); the whole patch null drops them all.
 */
export function mergeOwn<K extends ProgramSettingKind>(kind: K, current: Own<Values[K]>, patch: Readonly<Record<string, unknown>> | null): Own<Values[K]> {
  if (patch === null) return emptyOwn(kind);
  const out = { ...current } as Record<string, unknown>;
  for (const [f, v] of Object.entries(patch)) if (v !== undefined) out[f] = v;
  return out as Own<Values[K]>;
}

export type Resolved<T> = {
  /** The values in effect, and whose each is. */
  values: T;
  sources: Record<keyof T & string, SettingSource>;
  /** What the program gets where it sets nothing: the organization's default or the studio's. */
  inherited: T;
  inheritedSources: Record<keyof T & string, SettingSource>;
};

/** A program's values in effect: each field from the nearest level that sets it. */
export function resolveSetting<K extends ProgramSettingKind>(kind: K, organization: Own<Values[K]> | null, program: Own<Values[K]> | null): Resolved<Values[K]> {
  const fields = SETTING_FIELDS[kind] as readonly string[];
  const values = { ...SETTING_DEFAULTS[kind] } as Record<string, unknown>;
  const sources: Record<string, SettingSource> = Object.fromEntries(fields.map((f) => [f, 'Default']));
  const step = (own: Own<Values[K]> | null, source: SettingSource) => {
    if (!own) return;
    for (const f of fields) {
      const v = (own as Record<string, unknown>)[f];
      if (v === null || v === undefined) continue;
      values[f] = v;
      sources[f] = source;
    }
  };
  step(organization, 'Organization');
  const inherited = { ...values } as Values[K];
  const inheritedSources = { ...sources } as Record<keyof Values[K] & string, SettingSource>;
  step(program, 'Program');
  return { values: values as Values[K], sources: sources as Record<keyof Values[K] & string, SettingSource>, inherited, inheritedSources };
}

/**
 * Everything wrong with a level's own values, at their names within the setting: each field, then
 * what the values in effect (over `organization` at program level) say. `rules`: the program's
 * ad-marker rules (program level only).
 */
export function settingErrors<K extends ProgramSettingKind>(kind: K, level: SettingsLevel, own: Own<Values[K]>, organization: Own<Values[K]> | null, rules: AdMarkerRules | null): FieldProblem[] {
  const effective = resolveSetting(kind, level === 'Program' ? organization : null, own).values;
  if (kind === 'Monetization') {
    const field = monetizationErrors(own as Own<Monetization>, level === 'Program' ? rules : null);
    return field.length > 0 ? field : monetizationEffectErrors(effective as Monetization);
  }
  if (kind === 'VideoMonetization') {
    const field = videoMonetizationErrors(own as Own<VideoMonetization>, level === 'Program' ? rules : null);
    return field.length > 0 ? field : videoMonetizationEffectErrors(effective as VideoMonetization);
  }
  const field = headlinerErrors(own as Own<HeadlinerVideos>);
  return field.length > 0 ? field : headlinerEffectErrors(own as Own<HeadlinerVideos>, effective as HeadlinerVideos);
}
