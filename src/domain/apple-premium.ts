// Apple Podcasts Subscriptions ("apple-premium" settings; specification section 7: PUT, GET and
// DELETE at the organization's /v1/settings/apple-premium, a network's and a program's, the
// program's GET with `inherit`). The studio delivers a program's premium (subscriber) episodes to
// Apple through Apple's delegated delivery: the creator's Apple Podcasts Connect account names the
// studio as its provider, and the studio then needs, per show, the account's provider ID, the
// subscription channel the show belongs to and the show's Apple ID. The studio's own key for
// Apple's API is the studio's, not a customer's, so none of these is a secret.
//
// Each level keeps only what it sets; a field left null there is inherited, field by field:
//
//   program's own ──null──> its network's ──null──> the organization's ──null──> the default
//
// ShowId names one show, so only a program has it. Rules shared by the screen and the server.
import { formError, type FormError } from './form-errors.ts';

export const APPLE_PREMIUM_LEVELS = ['Organization', 'Network', 'Program'] as const;
export type ApplePremiumLevel = (typeof APPLE_PREMIUM_LEVELS)[number];

/** What one level sets; null: not set here (inherited). */
export type ApplePremiumValues = {
  /** Whether premium episodes are delivered to Apple Podcasts Subscriptions. */
  Enabled: boolean | null;
  /** The Apple Podcasts Connect provider ID of the account that delegated delivery to the studio. */
  ProviderId: string | null;
  /** The Apple subscription channel the shows belong to (its numeric ID). */
  ChannelId: string | null;
  /** The show's Apple Podcasts ID (program level only). */
  ShowId: string | null;
  /** Deliver the ad-free version of each episode to subscribers. */
  DeliverAdFree: boolean | null;
  /** How many hours before everyone else subscribers get an episode (0: at the same time). */
  EarlyAccessHours: number | null;
};

export const APPLE_PREMIUM_FIELDS = ['Enabled', 'ProviderId', 'ChannelId', 'ShowId', 'DeliverAdFree', 'EarlyAccessHours'] as const satisfies readonly (keyof ApplePremiumValues)[];
export type ApplePremiumField = (typeof APPLE_PREMIUM_FIELDS)[number];

export const EMPTY_APPLE_PREMIUM: ApplePremiumValues = { Enabled: null, ProviderId: null, ChannelId: null, ShowId: null, DeliverAdFree: null, EarlyAccessHours: null };

/** What a program gets where no level sets a field. */
export const APPLE_PREMIUM_DEFAULTS: ApplePremiumValues = { Enabled: false, ProviderId: null, ChannelId: null, ShowId: null, DeliverAdFree: true, EarlyAccessHours: 0 };

export const APPLE_PROVIDER_ID_MAX_LENGTH = 64;
/** Apple's IDs are 64-bit numbers: at most 19 digits. */
export const APPLE_NUMERIC_ID_MAX_DIGITS = 19;
/** A week: subscribers hear an episode at most this long before everyone else. */
export const APPLE_EARLY_ACCESS_HOURS_MAX = 168;

const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NUMERIC_ID = new RegExp(`^[1-9][0-9]{0,${APPLE_NUMERIC_ID_MAX_DIGITS - 1}}$`);

/**
 * A show's Apple ID as people have it: the digits, or the show's page address
 * (https://podcasts.apple.com/us/podcast/some-show/id1234567890), whose "id…" is taken. Anything
 * else is returned trimmed, for the rule to refuse.
 */
export function parseAppleShowId(text: string): string {
  const trimmed = text.trim();
  const fromUrl = /^https?:\/\/(?:[a-z]+\.)?(?:podcasts|itunes)\.apple\.com\/.*\/id(\d+)(?:[/?#].*)?$/i.exec(trimmed);
  return fromUrl ? fromUrl[1]! : trimmed;
}

/** The values as kept: text trimmed (empty: not set), a show's page address as its ID. */
export function normalizeApplePremium(values: ApplePremiumValues): ApplePremiumValues {
  const text = (v: string | null) => (v === null || v.trim() === '' ? null : v.trim());
  const show = text(values.ShowId);
  return { ...values, ProviderId: text(values.ProviderId), ChannelId: text(values.ChannelId), ShowId: show === null ? null : parseAppleShowId(show) };
}

const numericIdError = (value: string): FormError | null => (NUMERIC_ID.test(value) ? null : formError('invalid', 'domain_apple_numeric_id', { max: APPLE_NUMERIC_ID_MAX_DIGITS }));

/** Each field's problem at its own name; ShowId anywhere but a program's is refused. */
export function applePremiumErrors(level: ApplePremiumLevel, values: ApplePremiumValues): { field: ApplePremiumField; error: FormError }[] {
  const errors: { field: ApplePremiumField; error: FormError }[] = [];
  const add = (field: ApplePremiumField, error: FormError | null) => error && errors.push({ field, error });
  if (values.ProviderId !== null) {
    const id = values.ProviderId;
    if (id === '') add('ProviderId', formError('required'));
    else if (id.length > APPLE_PROVIDER_ID_MAX_LENGTH) add('ProviderId', formError('tooLong', undefined, { max: APPLE_PROVIDER_ID_MAX_LENGTH }));
    else if (!PROVIDER_ID.test(id)) add('ProviderId', formError('invalid', 'domain_apple_provider_id'));
  }
  if (values.ChannelId !== null) add('ChannelId', numericIdError(values.ChannelId));
  if (values.ShowId !== null) add('ShowId', level === 'Program' ? numericIdError(values.ShowId) : formError('invalid', 'domain_apple_show_id_program_only'));
  if (values.EarlyAccessHours !== null) {
    const h = values.EarlyAccessHours;
    const range = { min: 0, max: APPLE_EARLY_ACCESS_HOURS_MAX };
    if (!Number.isInteger(h)) add('EarlyAccessHours', formError('invalid', undefined, range));
    else if (h < 0) add('EarlyAccessHours', formError('outOfRange', undefined, range, 'underflow'));
    else if (h > APPLE_EARLY_ACCESS_HOURS_MAX) add('EarlyAccessHours', formError('outOfRange', undefined, range, 'overflow'));
  }
  return errors;
}

export type ApplePremiumSource = ApplePremiumLevel | 'Default';

/** A program's settings in effect, each field from the nearest level that sets it, and whose it is. */
export function effectiveApplePremium(levels: { Organization: ApplePremiumValues | null; Network: ApplePremiumValues | null; Program: ApplePremiumValues | null }): {
  values: ApplePremiumValues;
  sources: Record<ApplePremiumField, ApplePremiumSource>;
} {
  const values = { ...APPLE_PREMIUM_DEFAULTS };
  const sources = Object.fromEntries(APPLE_PREMIUM_FIELDS.map((f) => [f, 'Default'])) as Record<ApplePremiumField, ApplePremiumSource>;
  // Nearest last, so it wins.
  for (const level of ['Organization', 'Network', 'Program'] as const) {
    const own = levels[level];
    if (!own) continue;
    for (const field of APPLE_PREMIUM_FIELDS) {
      if (own[field] === null) continue;
      (values as Record<ApplePremiumField, unknown>)[field] = own[field];
      sources[field] = level;
    }
  }
  return { values, sources };
}

/**
 * Delivery needs a provider and, for a program, its show: switched on without them in effect, it
 * is refused at the field missing (the program's own ShowId; ProviderId wherever it is set).
 */
export function applePremiumDeliveryErrors(level: ApplePremiumLevel, effective: ApplePremiumValues): { field: ApplePremiumField; error: FormError }[] {
  if (effective.Enabled !== true) return [];
  const errors: { field: ApplePremiumField; error: FormError }[] = [];
  if (effective.ProviderId === null) errors.push({ field: 'ProviderId', error: formError('required', 'domain_apple_provider_needed') });
  if (level === 'Program' && effective.ShowId === null) errors.push({ field: 'ShowId', error: formError('required', 'domain_apple_show_needed') });
  return errors;
}
