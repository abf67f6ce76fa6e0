// A clip's ad markers and a program's ad-marker rules (issue 34): the one place for their rules,
// used by the clip screen before it queues a change, by the server before it writes and by the
// validation call (POST /internal/programs/{programId}/ad-marker-rules/validation).
//
// A marker is a break an ad server fills, as podcast hosts and ad servers (dynamic insertion)
// read them: a pre-roll before the audio, a mid-roll at a time inside it, a post-roll after it,
// each with the most ads the break may hold. Stored on the clip as AdMarkers
// [{ Type, Seconds, MaxAds }]: Seconds only for a mid-roll (null for the others), sorted
// pre-roll, mid-rolls by time, post-roll.
//
// Two kinds of "wrong", on purpose apart:
//   adMarkerErrors     what can never be stored (a mid-roll after the end, two pre-rolls): a 400
//                      at AdMarkers.<i>.<Field>, refused before anything is queued;
//   adMarkerViolations what the program's rules (or the clip's override of them) advise against
//                      (a mid-roll in the first minute, two too close): stored all the same and
//                      shown at the marker, since a producer may know better than the rule.
//
//   markers ──adMarkerErrors──> refusals      markers + rules ──adMarkerViolations──> violations
//   markers ──adMarkersToCsv──> CSV text ──readAdMarkersCsv──> markers, or errors by line
import { parseCsv, toCsv } from './csv.ts';
import { formError, type FormError } from './form-errors.ts';
import { formatTimeEntry, readPreciseTime } from './time.ts';

export const AD_MARKER_TYPES = ['PreRoll', 'MidRoll', 'PostRoll'] as const;
export type AdMarkerType = (typeof AD_MARKER_TYPES)[number];

export type AdMarker = { Type: AdMarkerType; Seconds: number | null; MaxAds: number };

/** Ads one break may hold: more than a listener sits through, and than ad servers fill in practice. */
export const AD_MAX_ADS = 10;
/** Markers a clip may hold: one every two minutes of a long episode, with room. */
export const AD_MARKERS_MAX = 100;
/** The longest stretch a rule's seconds may name: a day, longer than any episode. */
export const AD_RULE_SECONDS_MAX = 24 * 3600;

export type AdMarkerField = 'Type' | 'Seconds' | 'MaxAds';
/** The wire name of a marker's field, as a 400 and a violation name it: AdMarkers.<index>.<Field>. */
export const adMarkerFieldName = (index: number, field: AdMarkerField) => `AdMarkers.${index}.${field}`;

/** A program's ad-marker rules. 0 and null turn a rule off; DEFAULT_AD_MARKER_RULES has all off. */
export type AdMarkerRules = {
  PreRollRequired: boolean;
  PostRollRequired: boolean;
  /** Mid-rolls the clip should have at least. */
  MinMidRolls: number;
  /** Mid-rolls it may have at most; null: any number. */
  MaxMidRolls: number | null;
  /** Seconds between two mid-rolls at least. */
  MinSpacingSeconds: number;
  /** No mid-roll in the first … seconds (the opening, where listeners decide to stay). */
  NoMidRollFirstSeconds: number;
  /** No mid-roll in the last … seconds (the post-roll's place). */
  NoMidRollLastSeconds: number;
  /** Ads one break may hold at most under the program's deals; null: AD_MAX_ADS. */
  MaxAdsPerBreak: number | null;
};
export type AdMarkerRulesField = keyof AdMarkerRules;

export const DEFAULT_AD_MARKER_RULES: AdMarkerRules = {
  PreRollRequired: false,
  PostRollRequired: false,
  MinMidRolls: 0,
  MaxMidRolls: null,
  MinSpacingSeconds: 0,
  NoMidRollFirstSeconds: 0,
  NoMidRollLastSeconds: 0,
  MaxAdsPerBreak: null,
};

/** Whose rules a clip is held to: its own override, else its program's (none set: all off). */
export type AdMarkerRulesSource = 'Clip' | 'Program' | 'None';
export function effectiveAdMarkerRules(
  program: AdMarkerRules | null | undefined,
  clipOverride: AdMarkerRules | null | undefined,
): { Rules: AdMarkerRules; Source: AdMarkerRulesSource } {
  if (clipOverride) return { Rules: clipOverride, Source: 'Clip' };
  if (program) return { Rules: program, Source: 'Program' };
  return { Rules: DEFAULT_AD_MARKER_RULES, Source: 'None' };
}

const isWhole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
/** Compared in tenths, the precision the marker strip keeps: 65.0 and 65.04 are the same place. */
const tenths = (s: number) => Math.round(s * 10);

function maxAdsError(n: number): FormError | null {
  return isWhole(n) && n >= 1 && n <= AD_MAX_ADS ? null : formError('outOfRange', 'domain_ad_marker_max_ads', { max: AD_MAX_ADS }, n < 1 ? 'underflow' : 'overflow');
}

/**
 * What can never be stored, keyed by wire names (index as given, not as sorted); {} when the
 * markers may be saved. One pre-roll and one post-roll at most (a second is refused at its Type);
 * a mid-roll has a time after 0 and before the end of the audio (when known), no two at the same
 * time; a pre-roll or post-roll has none; MaxAds a whole number from 1 to AD_MAX_ADS. More than
 * AD_MARKERS_MAX markers is refused at AdMarkers.
 */
export function adMarkerErrors(markers: readonly AdMarker[], durationSeconds: number | null | undefined): Record<string, FormError> {
  const errors: Record<string, FormError> = {};
  if (markers.length > AD_MARKERS_MAX) errors['AdMarkers'] = formError('tooLong', 'domain_ad_markers_too_many', { max: AD_MARKERS_MAX });
  const duration = durationSeconds != null && Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : null;
  const seen = new Map<number, number>();
  let pre = false;
  let post = false;
  markers.forEach((k, i) => {
    const put = (field: AdMarkerField, e: FormError | null) => {
      if (e) errors[adMarkerFieldName(i, field)] = e;
    };
    put('MaxAds', maxAdsError(k.MaxAds));
    if (k.Type !== 'MidRoll') {
      if (k.Type === 'PreRoll' ? pre : post) put('Type', formError('invalid', k.Type === 'PreRoll' ? 'domain_ad_marker_one_preroll' : 'domain_ad_marker_one_postroll'));
      if (k.Type === 'PreRoll') pre = true;
      else post = true;
      if (k.Seconds !== null) put('Seconds', formError('invalid', 'domain_ad_marker_no_time'));
      return;
    }
    const s = k.Seconds;
    if (s === null) put('Seconds', formError('required', 'domain_ad_marker_time_required'));
    else if (!Number.isFinite(s) || s <= 0) put('Seconds', formError('outOfRange', 'domain_ad_marker_mid_at_start', undefined, 'underflow'));
    else if (duration !== null && s >= duration) put('Seconds', formError('outOfRange', 'domain_ad_marker_mid_after_end', { max: formatTimeEntry(Math.floor(duration)) }, 'overflow'));
    else {
      const first = seen.get(tenths(s));
      if (first !== undefined) put('Seconds', formError('invalid', 'domain_ad_marker_time_taken', { n: first + 1, time: formatTimeEntry(Math.floor(s)) }));
      else seen.set(tenths(s), i);
    }
  });
  return errors;
}

const ORDER: Record<AdMarkerType, number> = { PreRoll: 0, MidRoll: 1, PostRoll: 2 };

/** The markers as stored: pre-roll, mid-rolls by time (to the millisecond), post-roll. */
export function normaliseAdMarkers(markers: readonly AdMarker[]): AdMarker[] {
  return markers
    .map((k) => ({ Type: k.Type, Seconds: k.Type === 'MidRoll' && k.Seconds !== null ? Math.round(k.Seconds * 1000) / 1000 : null, MaxAds: k.MaxAds }))
    .sort((a, b) => ORDER[a.Type] - ORDER[b.Type] || (a.Seconds ?? 0) - (b.Seconds ?? 0));
}

/**
 * What is wrong with rules, keyed `${prefix}.<Field>` (the program mutation's AdMarkerRules, the
 * validation call's Rules). Counts are whole numbers from 0 to AD_MARKERS_MAX, seconds from 0 to
 * a day, MaxAdsPerBreak as a marker's MaxAds; the fewest mid-rolls no more than the most.
 */
export function adMarkerRulesErrors(rules: AdMarkerRules, prefix = 'AdMarkerRules'): Record<string, FormError> {
  const errors: Record<string, FormError> = {};
  const put = (field: AdMarkerRulesField, e: FormError | null) => {
    if (e) errors[`${prefix}.${field}`] = e;
  };
  const count = (n: number | null) =>
    n === null || (isWhole(n) && n >= 0 && n <= AD_MARKERS_MAX) ? null : formError('outOfRange', 'domain_ad_rules_count', { max: AD_MARKERS_MAX }, n < 0 ? 'underflow' : 'overflow');
  const seconds = (n: number) =>
    Number.isFinite(n) && n >= 0 && n <= AD_RULE_SECONDS_MAX ? null : formError('outOfRange', 'domain_ad_rules_seconds', { max: AD_RULE_SECONDS_MAX }, n < 0 ? 'underflow' : 'overflow');
  put('MinMidRolls', count(rules.MinMidRolls));
  put('MaxMidRolls', count(rules.MaxMidRolls));
  if (!errors[`${prefix}.MinMidRolls`] && !errors[`${prefix}.MaxMidRolls`] && rules.MaxMidRolls !== null && rules.MinMidRolls > rules.MaxMidRolls) {
    put('MinMidRolls', formError('outOfRange', 'domain_ad_rules_min_above_max', { max: rules.MaxMidRolls }, 'overflow'));
  }
  put('MinSpacingSeconds', seconds(rules.MinSpacingSeconds));
  put('NoMidRollFirstSeconds', seconds(rules.NoMidRollFirstSeconds));
  put('NoMidRollLastSeconds', seconds(rules.NoMidRollLastSeconds));
  put('MaxAdsPerBreak', rules.MaxAdsPerBreak === null ? null : maxAdsError(rules.MaxAdsPerBreak));
  return errors;
}

/** Why a marker goes against the rules (the violation's Code on the wire). */
export const AdMarkerViolationCode = {
  PreRollMissing: 'PreRollMissing',
  PostRollMissing: 'PostRollMissing',
  TooFewMidRolls: 'TooFewMidRolls',
  TooManyMidRolls: 'TooManyMidRolls',
  TooEarly: 'TooEarly',
  TooLate: 'TooLate',
  TooClose: 'TooClose',
  TooManyAds: 'TooManyAds',
} as const;
export type AdMarkerViolationCode = (typeof AdMarkerViolationCode)[keyof typeof AdMarkerViolationCode];

/** One violation: the field it names (AdMarkers for the clip's markers as a whole), why, and the words. */
export type AdMarkerViolation = { field: string; code: AdMarkerViolationCode; error: FormError };

/** "2:05" or "1:02:05": a span in the words of a rule. */
const span = (s: number) => {
  const t = formatTimeEntry(Math.round(s));
  return t.startsWith('00:') ? t.slice(3).replace(/^0(\d)/, '$1') : t.replace(/^0(\d)/, '$1');
};

/**
 * How the markers go against the rules, each at the field it names (index as given): a missing
 * pre-roll or post-roll, too few mid-rolls at AdMarkers; too many at the Type of each mid-roll past
 * the allowed number (in time order); a mid-roll too early, too late or too close to the one
 * before at its Seconds; a break with more ads than the rules allow at its MaxAds. Markers that
 * adMarkerErrors refuses are judged as far as they can be (a mid-roll without a time is not placed).
 */
export function adMarkerViolations(markers: readonly AdMarker[], rules: AdMarkerRules, durationSeconds: number | null | undefined): AdMarkerViolation[] {
  const out: AdMarkerViolation[] = [];
  const v = (field: string, code: AdMarkerViolationCode, error: FormError) => out.push({ field, code, error });
  const duration = durationSeconds != null && Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : null;
  if (rules.PreRollRequired && !markers.some((k) => k.Type === 'PreRoll')) v('AdMarkers', 'PreRollMissing', formError('required', 'domain_ad_violation_preroll_missing'));
  if (rules.PostRollRequired && !markers.some((k) => k.Type === 'PostRoll')) v('AdMarkers', 'PostRollMissing', formError('required', 'domain_ad_violation_postroll_missing'));
  const mids = markers
    .map((k, i) => ({ k, i }))
    .filter((x): x is { k: AdMarker & { Seconds: number }; i: number } => x.k.Type === 'MidRoll' && x.k.Seconds !== null && Number.isFinite(x.k.Seconds))
    .sort((a, b) => a.k.Seconds - b.k.Seconds || a.i - b.i);
  if (mids.length < rules.MinMidRolls) v('AdMarkers', 'TooFewMidRolls', formError('outOfRange', 'domain_ad_violation_too_few', { min: rules.MinMidRolls, count: mids.length }, 'underflow'));
  mids.forEach(({ k, i }, n) => {
    if (rules.MaxMidRolls !== null && n >= rules.MaxMidRolls) {
      v(adMarkerFieldName(i, 'Type'), 'TooManyMidRolls', formError('outOfRange', 'domain_ad_violation_too_many', { max: rules.MaxMidRolls, n: n + 1 }, 'overflow'));
    }
    const seconds = adMarkerFieldName(i, 'Seconds');
    if (rules.NoMidRollFirstSeconds > 0 && k.Seconds < rules.NoMidRollFirstSeconds) {
      v(seconds, 'TooEarly', formError('outOfRange', 'domain_ad_violation_too_early', { span: span(rules.NoMidRollFirstSeconds) }, 'underflow'));
    } else if (duration !== null && rules.NoMidRollLastSeconds > 0 && k.Seconds > duration - rules.NoMidRollLastSeconds) {
      v(seconds, 'TooLate', formError('outOfRange', 'domain_ad_violation_too_late', { span: span(rules.NoMidRollLastSeconds) }, 'overflow'));
    }
    const before = n > 0 ? mids[n - 1]! : null;
    if (before && rules.MinSpacingSeconds > 0 && k.Seconds - before.k.Seconds < rules.MinSpacingSeconds) {
      v(seconds, 'TooClose', formError('outOfRange', 'domain_ad_violation_too_close', { n: n, gap: span(k.Seconds - before.k.Seconds), spacing: span(rules.MinSpacingSeconds) }, 'underflow'));
    }
  });
  if (rules.MaxAdsPerBreak !== null) {
    markers.forEach((k, i) => {
      if (k.MaxAds > rules.MaxAdsPerBreak!) v(adMarkerFieldName(i, 'MaxAds'), 'TooManyAds', formError('outOfRange', 'domain_ad_violation_too_many_ads', { max: rules.MaxAdsPerBreak! }, 'overflow'));
    });
  }
  return out;
}

// ── CSV ────────────────────────────────────────────────────────────────────────────────────────
//   type,time,max_ads
//   pre-roll,,2
//   mid-roll,0:12:30,3
//   mid-roll,1410.5,3
//   post-roll,,1
// A header row names the columns (any order, any case; "max ads" and "maxads" too). A type is
// pre-roll, mid-roll or post-roll (also PreRoll, preroll, pre, …); a time is seconds ("95.5") or
// h:mm:ss / m:ss with a fraction ("1:35.5"), as the time fields read them; a pre-roll's time is
// empty or 0, a post-roll's empty or the end of the audio. Written with the time as h:mm:ss.fff so
// another host reads it, and read back to the same markers.

export const AD_CSV_COLUMNS = ['type', 'time', 'max_ads'] as const;
type CsvColumn = (typeof AD_CSV_COLUMNS)[number];

const CSV_TYPE: Record<AdMarkerType, string> = { PreRoll: 'pre-roll', MidRoll: 'mid-roll', PostRoll: 'post-roll' };
const fold = (s: string) => s.trim().toLowerCase().replace(/[\s_-]/g, '');
const TYPE_BY_WORD = new Map<string, AdMarkerType>([
  ['preroll', 'PreRoll'],
  ['pre', 'PreRoll'],
  ['midroll', 'MidRoll'],
  ['mid', 'MidRoll'],
  ['postroll', 'PostRoll'],
  ['post', 'PostRoll'],
]);
const COLUMN_BY_WORD = new Map<string, CsvColumn>([
  ['type', 'type'],
  ['time', 'time'],
  ['seconds', 'time'],
  ['maxads', 'max_ads'],
  ['ads', 'max_ads'],
]);

/** h:mm:ss.fff (the fraction only when there is one): read by this file's reader and by spreadsheets. */
function csvTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const whole = Math.floor(ms / 1000);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const frac = ms % 1000 === 0 ? '' : `.${String(ms % 1000).padStart(3, '0').replace(/0+$/, '')}`;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${frac}`;
}

/** The markers as a CSV file (header row, then one line per marker in stored order). */
export function adMarkersToCsv(markers: readonly AdMarker[]): string {
  return toCsv([[...AD_CSV_COLUMNS], ...normaliseAdMarkers(markers).map((k) => [CSV_TYPE[k.Type], k.Seconds === null ? '' : csvTime(k.Seconds), String(k.MaxAds)])]);
}

/** A problem of one line of the file (1 is the header), in the domain catalogue's words. */
export type AdCsvLineError = { line: number; error: FormError };
export type AdCsvReading = { ok: true; markers: AdMarker[] } | { ok: false; errors: AdCsvLineError[] };

/**
 * Reads a CSV file of markers: every line's problems (an unknown type, a time or a count that
 * cannot be read, and adMarkerErrors of what was read: two pre-rolls, a mid-roll after the end),
 * each with its line, or the markers when there are none. Lines are records: a quoted field with a
 * line break (which no marker needs) would count as one line.
 */
export function readAdMarkersCsv(text: string, durationSeconds: number | null | undefined): AdCsvReading {
  const records = parseCsv(text);
  const errors: AdCsvLineError[] = [];
  const header = records[0]?.map((c) => COLUMN_BY_WORD.get(fold(c)) ?? null) ?? [];
  const at = (c: CsvColumn) => header.indexOf(c);
  if (at('type') < 0 || at('time') < 0 || at('max_ads') < 0) return { ok: false, errors: [{ line: 1, error: formError('invalid', 'domain_ad_csv_header') }] };
  const duration = durationSeconds != null && durationSeconds > 0 ? durationSeconds : null;
  const read: Array<{ line: number; marker: AdMarker }> = [];
  records.slice(1).forEach((record, r) => {
    const line = r + 2;
    if (record.every((f) => f.trim() === '')) return;
    const cell = (c: CsvColumn) => (record[at(c)] ?? '').trim();
    const before = errors.length;
    const type = TYPE_BY_WORD.get(fold(cell('type')));
    if (!type) errors.push({ line, error: formError('invalid', 'domain_ad_csv_type', { value: cell('type') }) });
    let seconds: number | null = null;
    const time = cell('time');
    if (time !== '') {
      const t = readPreciseTime(time);
      if (!t.ok) errors.push({ line, error: formError('invalid', 'domain_ad_csv_time', { value: time }) });
      else seconds = t.seconds;
    }
    // A pre-roll at 0 and a post-roll at the end are where they play anyway: kept without a time.
    if (type === 'PreRoll' && seconds === 0) seconds = null;
    if (type === 'PostRoll' && seconds !== null && duration !== null && Math.abs(seconds - duration) <= 1) seconds = null;
    const adsText = cell('max_ads');
    const ads = /^\d+$/.test(adsText) ? Number(adsText) : NaN;
    if (maxAdsError(ads)) errors.push({ line, error: formError('invalid', 'domain_ad_csv_max_ads', { value: adsText, max: AD_MAX_ADS }) });
    if (type && errors.length === before) read.push({ line, marker: { Type: type, Seconds: seconds, MaxAds: ads } });
  });
  if (read.length === 0 && errors.length === 0) return { ok: false, errors: [{ line: 1, error: formError('required', 'domain_ad_csv_empty') }] };
  // What can never be stored, said at the line that holds it.
  for (const [field, error] of Object.entries(adMarkerErrors(read.map((x) => x.marker), duration))) {
    const i = /^AdMarkers\.(\d+)\./.exec(field);
    errors.push({ line: i ? read[Number(i[1])]!.line : 1, error });
  }
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => a.line - b.line) };
  return { ok: true, markers: normaliseAdMarkers(read.map((x) => x.marker)) };
}
