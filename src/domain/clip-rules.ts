// What a change of a clip must obey (sections 4 and 5), once: the clip screen runs these before it
// saves and the server before it writes (sync-server/routes/content-rules.ts applyClipChange), so
// the screen refuses exactly what the server would, offline too. Whether a slug is already in use
// is the one rule left out: only the database can say (SlugExists).
//
//   change ──normaliseClipPatch──> what is stored ──clipFieldErrors(current, change)──> { Field: FormError }
//                                                 └─clipSlugToCheck──> the slug whose uniqueness the store checks
import { normaliseTitle, visibilityNeeds } from './clip.ts';
import { validateDate } from './dates.ts';
import type { FormError } from './form-errors.ts';
import { slugFieldError } from './slugs.ts';
import { validateInteger, validateRequired, validateTitle, validateUrl } from './validators.ts';

/** The fields of a clip change these rules read, as the wire has them. Season and Episode may
 * also be the text a form holds ('' for none): the number rules read both. A field left out (or
 * undefined) is not changed. */
export type ClipChange = {
  Title?: string | null | undefined;
  Season?: number | string | null | undefined;
  Episode?: number | string | null | undefined;
  Slug?: string | null | undefined;
  Visibility?: string | undefined;
  ScheduledVisibility?: string | null | undefined;
  VisibleAtUtc?: string | null | undefined;
  RssLinkOverride?: string | null | undefined;
};

/** The fields a clip change can be refused for, in the order their errors are listed. */
export const CLIP_RULE_FIELDS = ['Title', 'Episode', 'Season', 'ScheduledVisibility', 'VisibleAtUtc', 'RssLinkOverride', 'Slug'] as const;
export type ClipRuleField = (typeof CLIP_RULE_FIELDS)[number];
export type ClipFieldErrors = Partial<Record<ClipRuleField, FormError>>;

/** What the clip is now: its stored row (null fields allowed), or the defaults of a new clip. */
export type ClipNow = Readonly<Record<string, unknown>>;

export type ClipRuleOptions = {
  /** The clip does not exist yet: nothing was saved (no saved slug to keep). */
  isNew: boolean;
};

/** A date-time as the server stores it (ISO-8601 UTC with milliseconds); text that is not a
 * date-time is kept, for clipFieldErrors to refuse. */
function canonicalUtc(value: string): string {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/**
 * The change as it is stored: a Title of only whitespace becomes null (section 4), an empty Slug
 * is no slug, VisibleAtUtc is UTC with milliseconds. Other fields are left as they are.
 */
export function normaliseClipPatch<P extends ClipChange>(patch: P): P {
  const out: ClipChange = { ...patch };
  if (out.Title !== undefined) out.Title = normaliseTitle(out.Title);
  if (out.Slug === '') out.Slug = null;
  if (typeof out.VisibleAtUtc === 'string') out.VisibleAtUtc = canonicalUtc(out.VisibleAtUtc);
  return out as P;
}

const given = (v: unknown): boolean => v !== null && v !== undefined && v !== '';
const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The clip's value of a field after the change. */
function after(current: ClipNow, patch: ClipChange, field: keyof ClipChange): unknown {
  return patch[field] !== undefined ? patch[field] : current[field];
}

/**
 * Every field the change would be refused for that can be told without the database, keyed by
 * field (in CLIP_RULE_FIELDS order); {} when the change may be saved.
 *
 * - Title: optional for a clip (an untitled clip shows 'Untitled clip'); a given one has the
 *   title lengths.
 * - Season, Episode: whole numbers from 0 to 2147483647.
 * - ScheduledVisibility and VisibleAtUtc: both set or both null; VisibleAtUtc a valid date-time.
 * - RssLinkOverride: a valid http(s) URL when given.
 * - Slug (checked when the Slug or the Visibility changes, and for a new clip): its format; required
 *   when the clip is not Private (section 4) or a slug was already saved (section 5); not one of
 *   the reserved slugs unless it is the slug already saved.
 */
export function clipFieldErrors(current: ClipNow, change: ClipChange, options: ClipRuleOptions): ClipFieldErrors {
  const patch = normaliseClipPatch(change);
  const errors: ClipFieldErrors = {};
  const put = (field: ClipRuleField, error: FormError | null) => {
    if (error !== null && errors[field] === undefined) errors[field] = error;
  };
  if (patch.Title !== undefined) put('Title', validateTitle(patch.Title, { required: false }));
  if (patch.Episode !== undefined) put('Episode', validateInteger(patch.Episode, { min: 0 }));
  if (patch.Season !== undefined) put('Season', validateInteger(patch.Season, { min: 0 }));
  const scheduled = given(after(current, patch, 'ScheduledVisibility'));
  const visibleAt = given(after(current, patch, 'VisibleAtUtc'));
  if (!scheduled && visibleAt) put('ScheduledVisibility', validateRequired(null));
  if (scheduled && !visibleAt) put('VisibleAtUtc', validateRequired(null));
  if (typeof patch.VisibleAtUtc === 'string') put('VisibleAtUtc', validateDate(patch.VisibleAtUtc, { withTime: true }));
  if (patch.RssLinkOverride !== undefined) put('RssLinkOverride', validateUrl(patch.RssLinkOverride, { required: false }));
  if (patch.Slug !== undefined || patch.Visibility !== undefined || options.isNew) {
    put(
      'Slug',
      slugFieldError(textOrNull(after(current, patch, 'Slug')), {
        owner: 'clip',
        alwaysRequired: visibilityNeeds(textOrNull(after(current, patch, 'Visibility')), 'Slug'),
        savedSlug: options.isNew ? null : textOrNull(current['Slug']),
      }),
    );
  }
  return errors;
}

/**
 * The slug whose uniqueness in the program the store must check before the change is saved
 * ('This slug is already in use in this program'): the clip's slug after the change when the
 * change gives it one it did not have saved; null when there is nothing to check.
 */
export function clipSlugToCheck(current: ClipNow, change: ClipChange, options: ClipRuleOptions): string | null {
  const slug = textOrNull(normaliseClipPatch(change).Slug ?? null);
  if (slug === null) return null;
  return !options.isNew && slug === textOrNull(current['Slug']) ? null : slug;
}
