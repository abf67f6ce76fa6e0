// Billing & features (issue 33, the staff tools; specification section 7 "Billing, subscription …"):
// the plan catalogue, what an organization's plan and add-ons allow, what a period's measured
// usage costs, and the features the plan turns on. Pure rules: the server measures usage from the
// studio's own rows (sync-server/billing/usage.ts) and renders invoices from these numbers; the
// screens show the same numbers. Amounts are whole cents (no floating point money).
//
// An organization's billing month is the calendar month in UTC:
//
//   subscription row (plan, add-ons, contact) ──┐
//   usage measured for [start, end) ────────────┼──> invoiceLines ──> total
//   each metered add-on's restriction ──────────┘      (plan fee, add-on fees, overage ≤ cap)
//
// A metered allowance is the plan's included quantity plus the add-on's packs. Beyond it, each
// unit is billed at the overage price up to the add-on's restriction MaxOverage (null: no limit;
// 0: the allowance is a hard cap). Units past allowance + MaxOverage are not billed; the
// allowance-notice job tells the chosen people as each percentage of the allowance is reached.
import { isEmail } from './validators.ts';
import { formError, type FormError } from './form-errors.ts';

export const CURRENCY = 'USD';

/** What is measured and billed. */
export const MEASURES = ['storedAudioHours', 'downloads', 'seats', 'transcriptionMinutes'] as const;
export type Measure = (typeof MEASURES)[number];

/** Features a plan or an add-on turns on, by the names other code and section 6 use. */
export const FEATURES = ['playlist-download-analytics', 'apple-premium', 'automatic-transcription'] as const;
export type Feature = (typeof FEATURES)[number];

export const PLAN_IDS = ['Starter', 'Professional', 'Broadcast'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type Plan = {
  id: PlanId;
  monthlyPriceCents: number;
  included: Record<Measure, number>;
  features: readonly Feature[];
};

/** Per unit beyond the allowance, in cents; downloads are billed per thousand. */
export const OVERAGE_CENTS: Record<Measure, { cents: number; per: number }> = {
  storedAudioHours: { cents: 20, per: 1 },
  downloads: { cents: 50, per: 1000 },
  seats: { cents: 1500, per: 1 },
  transcriptionMinutes: { cents: 5, per: 1 },
};

export const PLANS: Record<PlanId, Plan> = {
  Starter: { id: 'Starter', monthlyPriceCents: 2900, included: { storedAudioHours: 50, downloads: 20_000, seats: 3, transcriptionMinutes: 60 }, features: ['automatic-transcription'] },
  Professional: {
    id: 'Professional',
    monthlyPriceCents: 9900,
    included: { storedAudioHours: 250, downloads: 150_000, seats: 10, transcriptionMinutes: 600 },
    features: ['automatic-transcription', 'playlist-download-analytics'],
  },
  Broadcast: {
    id: 'Broadcast',
    monthlyPriceCents: 29900,
    included: { storedAudioHours: 1000, downloads: 1_000_000, seats: 50, transcriptionMinutes: 3000 },
    features: ['automatic-transcription', 'playlist-download-analytics', 'apple-premium'],
  },
};

/** Every organization is on this plan until an admin chooses another. */
export const DEFAULT_PLAN: PlanId = 'Starter';

export const ADD_ON_TYPES = ['TranscriptionMinutes', 'ExtraStorage', 'ExtraSeats', 'AdvancedAnalytics', 'ApplePremium'] as const;
export type AddOnType = (typeof ADD_ON_TYPES)[number];
/** Add-ons that extend a measured allowance: they have usage, restrictions and notices. */
export const METERED_ADD_ON_TYPES = ['TranscriptionMinutes', 'ExtraStorage', 'ExtraSeats'] as const satisfies readonly AddOnType[];
export type MeteredAddOnType = (typeof METERED_ADD_ON_TYPES)[number];

export type AddOn =
  | { type: MeteredAddOnType; kind: 'metered'; measure: Measure; unitsPerPack: number; packPriceCents: number; maxPacks: number }
  | { type: Exclude<AddOnType, MeteredAddOnType>; kind: 'feature'; feature: Feature; monthlyPriceCents: number };

export const ADD_ONS: Record<AddOnType, AddOn> = {
  TranscriptionMinutes: { type: 'TranscriptionMinutes', kind: 'metered', measure: 'transcriptionMinutes', unitsPerPack: 500, packPriceCents: 2000, maxPacks: 100 },
  ExtraStorage: { type: 'ExtraStorage', kind: 'metered', measure: 'storedAudioHours', unitsPerPack: 100, packPriceCents: 1500, maxPacks: 100 },
  ExtraSeats: { type: 'ExtraSeats', kind: 'metered', measure: 'seats', unitsPerPack: 5, packPriceCents: 5000, maxPacks: 100 },
  AdvancedAnalytics: { type: 'AdvancedAnalytics', kind: 'feature', feature: 'playlist-download-analytics', monthlyPriceCents: 4900 },
  ApplePremium: { type: 'ApplePremium', kind: 'feature', feature: 'apple-premium', monthlyPriceCents: 1900 },
};

export const isMeteredAddOn = (type: AddOnType): type is MeteredAddOnType => (METERED_ADD_ON_TYPES as readonly string[]).includes(type);

/** An organization's subscription as kept (sync-server/billing, table billing_subscriptions). */
export type Subscription = {
  plan: PlanId;
  /** Packs of a metered add-on; 1 or 0 of a feature add-on. Absent: 0. */
  addOns: Partial<Record<AddOnType, number>>;
  billingContactName: string | null;
  billingContactEmail: string | null;
  /** From when the organization is billed (its first invoice is this month's). */
  startedAtUtc: Date;
};

export type Usage = Record<Measure, number>;

/** What the plan and its add-ons allow of a measure in a month. */
export function allowance(subscription: Pick<Subscription, 'plan' | 'addOns'>, measure: Measure): number {
  let total = PLANS[subscription.plan].included[measure];
  for (const type of METERED_ADD_ON_TYPES) {
    const addOn = ADD_ONS[type];
    if (addOn.kind === 'metered' && addOn.measure === measure) total += (subscription.addOns[type] ?? 0) * addOn.unitsPerPack;
  }
  return total;
}

/** The add-on that extends a measure, if any (downloads have none). */
export function addOnOf(measure: Measure): MeteredAddOnType | null {
  return METERED_ADD_ON_TYPES.find((t) => (ADD_ONS[t] as Extract<AddOn, { kind: 'metered' }>).measure === measure) ?? null;
}

export const measureOf = (type: MeteredAddOnType): Measure => (ADD_ONS[type] as Extract<AddOn, { kind: 'metered' }>).measure;

/** The features the plan and the feature add-ons turn on: the one list other code reads. */
export function featuresOf(subscription: Pick<Subscription, 'plan' | 'addOns'>): Feature[] {
  const on = new Set<Feature>(PLANS[subscription.plan].features);
  for (const type of ADD_ON_TYPES) {
    const addOn = ADD_ONS[type];
    if (addOn.kind === 'feature' && (subscription.addOns[type] ?? 0) > 0) on.add(addOn.feature);
  }
  return FEATURES.filter((f) => on.has(f));
}

// ── Periods ───────────────────────────────────────────────────────────────────────────────

export type Period = { id: string; start: Date; end: Date };

/** The billing month holding `at` (UTC): [start, end). Its id is YYYY-MM. */
export function periodOf(at: Date): Period {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { id: start.toISOString().slice(0, 7), start, end };
}

const PERIOD_ID = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The period named YYYY-MM, or null. */
export function periodById(id: string): Period | null {
  const match = PERIOD_ID.exec(id);
  return match ? periodOf(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1))) : null;
}

/** The invoices an organization has had: each month from its start up to the one holding `now`,
 *  newest first, at most `max`. */
export function invoicePeriods(startedAtUtc: Date, now: Date, max = 12): Period[] {
  const periods: Period[] = [];
  let p = periodOf(now);
  const first = periodOf(startedAtUtc).start.getTime();
  while (periods.length < max && p.start.getTime() >= first) {
    periods.push(p);
    p = periodOf(new Date(p.start.getTime() - 1));
  }
  return periods;
}

// ── Invoices ───────────────────────────────────────────────────────────────────────────────

export type Restriction = { maxOverage: number | null };
export const DEFAULT_RESTRICTION: Restriction = { maxOverage: null };

export type InvoiceLine =
  | { kind: 'plan'; plan: PlanId; amountCents: number }
  | { kind: 'addOn'; addOn: AddOnType; quantity: number; amountCents: number }
  | { kind: 'overage'; measure: Measure; used: number; allowance: number; billedUnits: number; unitCents: number; per: number; amountCents: number };

/** Units of a measure beyond its allowance that are billed: at most the restriction's MaxOverage. */
export function billedOverage(used: number, allowed: number, restriction: Restriction): number {
  const over = Math.max(0, Math.ceil(used - allowed));
  return restriction.maxOverage === null ? over : Math.min(over, restriction.maxOverage);
}

/** The lines of one month's invoice, from the subscription, the measured usage and each metered
 *  add-on's restriction (downloads: no cap). */
export function invoiceLines(subscription: Pick<Subscription, 'plan' | 'addOns'>, usage: Usage, restrictions: Partial<Record<MeteredAddOnType, Restriction>>): InvoiceLine[] {
  const lines: InvoiceLine[] = [{ kind: 'plan', plan: subscription.plan, amountCents: PLANS[subscription.plan].monthlyPriceCents }];
  for (const type of ADD_ON_TYPES) {
    const quantity = subscription.addOns[type] ?? 0;
    if (quantity <= 0) continue;
    const addOn = ADD_ONS[type];
    lines.push({ kind: 'addOn', addOn: type, quantity, amountCents: addOn.kind === 'metered' ? quantity * addOn.packPriceCents : addOn.monthlyPriceCents });
  }
  for (const measure of MEASURES) {
    const allowed = allowance(subscription, measure);
    const addOn = addOnOf(measure);
    const restriction = (addOn && restrictions[addOn]) || DEFAULT_RESTRICTION;
    const billedUnits = billedOverage(usage[measure], allowed, restriction);
    if (billedUnits <= 0) continue;
    const { cents, per } = OVERAGE_CENTS[measure];
    lines.push({ kind: 'overage', measure, used: usage[measure], allowance: allowed, billedUnits, unitCents: cents, per, amountCents: Math.ceil(billedUnits / per) * cents });
  }
  return lines;
}

export const invoiceTotal = (lines: readonly InvoiceLine[]) => lines.reduce((sum, l) => sum + l.amountCents, 0);

/** Percent of the allowance used (an allowance of 0 used at all: 100 and more). */
export function percentUsed(used: number, allowed: number): number {
  if (allowed <= 0) return used > 0 ? Infinity : 0;
  return (used / allowed) * 100;
}

/** The add-on's cap reached: allowance + MaxOverage used (never, without a MaxOverage). */
export function capReached(used: number, allowed: number, restriction: Restriction): boolean {
  return restriction.maxOverage !== null && used >= allowed + restriction.maxOverage;
}

/** The most of a measure the organization may use in a month: allowance + MaxOverage (null: no cap). */
export function capOf(allowed: number, restriction: Restriction): number | null {
  return restriction.maxOverage === null ? null : allowed + restriction.maxOverage;
}

/**
 * Whether a request for `adding` more units is refused by the add-on's cap: the cap is reached
 * already, or the request would take usage past it. Usage is billed up to the cap and no further
 * (billedOverage), so what would go past it is not done rather than done unbilled.
 */
export function refusedByCap(used: number, adding: number, allowed: number, restriction: Restriction): boolean {
  const cap = capOf(allowed, restriction);
  return cap !== null && (used >= cap || used + Math.max(0, adding) > cap);
}

/** What a plan refused a request: a feature it does not include, or a metered add-on's cap. */
export type PlanRefusal = { kind: 'feature'; feature: Feature } | { kind: 'cap'; addOn: MeteredAddOnType; cap: number; used: number };

// ── Notices ─────────────────────────────────────────────────────────────────────────────────

export const NOTICE_THRESHOLD_MIN = 1;
export const NOTICE_THRESHOLD_MAX = 200;
export const NOTICE_THRESHOLDS_MAX = 5;
export const NOTICE_RECIPIENTS_MAX = 10;
export const BILLING_CONTACT_NAME_MAX = 200;
export const EMAIL_MAX_LENGTH = 254;
/** MaxOverage at most this many units (10 million). */
export const MAX_OVERAGE_MAX = 10_000_000;

export type NotificationSettings = { thresholds: number[]; recipients: string[]; notifyBillingContact: boolean };
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { thresholds: [80, 100], recipients: [], notifyBillingContact: true };

/** The thresholds reached by `percent` that have not been told yet, lowest first. */
export function thresholdsToTell(settings: Pick<NotificationSettings, 'thresholds'>, percent: number, told: ReadonlySet<number>): number[] {
  return [...settings.thresholds].sort((a, b) => a - b).filter((t) => percent >= t && !told.has(t));
}

/** Who is told: the listed people, and the billing contact when asked; each address once. */
export function noticeRecipients(settings: NotificationSettings, billingContactEmail: string | null): string[] {
  const all = [...settings.recipients, ...(settings.notifyBillingContact && billingContactEmail ? [billingContactEmail] : [])];
  const seen = new Set<string>();
  return all.filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ── Validation (each error at its field, as the 400 body and the screen name it) ─────────────

export type FieldErrors = Array<[string, FormError]>;

const wholeIn = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

export function validateThresholds(thresholds: readonly number[]): FieldErrors {
  const errors: FieldErrors = [];
  if (thresholds.length > NOTICE_THRESHOLDS_MAX) errors.push(['Thresholds', formError('outOfRange', undefined, { min: 0, max: NOTICE_THRESHOLDS_MAX })]);
  thresholds.forEach((t, i) => {
    if (!wholeIn(t, NOTICE_THRESHOLD_MIN, NOTICE_THRESHOLD_MAX)) errors.push([`Thresholds[${i}]`, formError('outOfRange', undefined, { min: NOTICE_THRESHOLD_MIN, max: NOTICE_THRESHOLD_MAX })]);
    else if (thresholds.indexOf(t) !== i) errors.push([`Thresholds[${i}]`, formError('invalid')]);
  });
  return errors;
}

export function validateRecipients(recipients: readonly string[]): FieldErrors {
  const errors: FieldErrors = [];
  if (recipients.length > NOTICE_RECIPIENTS_MAX) errors.push(['Recipients', formError('outOfRange', undefined, { min: 0, max: NOTICE_RECIPIENTS_MAX })]);
  recipients.forEach((r, i) => {
    if (r.length > EMAIL_MAX_LENGTH || !isEmail(r)) errors.push([`Recipients[${i}]`, formError('emailInvalid')]);
  });
  return errors;
}

/** "Enter a whole number from 0 to {max}": the domain catalogue's words for such a count. */
const countError = (max: number) => formError('outOfRange', 'domain_ad_rules_count', { min: 0, max });

/** MaxOverage: null (no limit) or a whole number of units 0 … MAX_OVERAGE_MAX. */
export function validateMaxOverage(value: number | null): FormError | null {
  return value === null || wholeIn(value, 0, MAX_OVERAGE_MAX) ? null : countError(MAX_OVERAGE_MAX);
}

/** An add-on's quantity: packs of a metered one (0 … maxPacks), 0 or 1 of a feature. */
export function validateAddOnQuantity(type: AddOnType, quantity: number): FormError | null {
  const addOn = ADD_ONS[type];
  const max = addOn.kind === 'metered' ? addOn.maxPacks : 1;
  return wholeIn(quantity, 0, max) ? null : countError(max);
}

export function validateBillingContactEmail(value: string | null): FormError | null {
  if (value === null || value === '') return null;
  return value.length <= EMAIL_MAX_LENGTH && isEmail(value) ? null : formError('emailInvalid');
}

/** dateUtc of the add-on usage call (section 5: required): a date (YYYY-MM-DD, UTC) or an ISO 8601
 *  date-time with its offset; a day that does not exist (2026-02-30) is refused. */
export function readDateUtc(value: string | undefined): Date | FormError {
  if (value === undefined || value.trim() === '') return formError('required');
  const text = value.trim();
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  if (!dateOnly && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return formError('dateInvalid');
  const at = new Date(dateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at.getTime())) return formError('dateInvalid');
  const day = text.slice(0, 10);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  if (new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10) !== day) return formError('dateInvalid');
  return at;
}

/** Whole cents as an amount in the currency, for screens and invoices. */
export function formatCents(cents: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: CURRENCY }).format(cents / 100);
}
