// The slug rules of section 5 that need no database, for every owner of a slug (clips, playlists,
// programs): the format and when a slug is required (validators.ts validateSlug), the slugs the
// product keeps for itself (SlugReservationFailed), and a slug made from a title. Whether a slug
// is already in use (SlugExists) only the database can say: the server's checkSlug; a device
// checks it against what it has synced (clip.ts holdsClipSlug), which spares a round trip.
import { SLUG_MAX_LENGTH } from './constants.ts';
import type { FormError } from './form-errors.ts';
import { slugServerError, type SlugOwner } from './server-errors.ts';
import { slugFromText, validateSlug } from './validators.ts';

/** Slugs the product keeps for its own pages and feeds: 'This slug is reserved for use by the
 * product' (server error code SlugReservationFailed). */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin', 'api', 'app', 'assets', 'castaway', 'edit', 'embed', 'feed', 'feeds', 'help', 'login', 'logout',
  'new', 'rss', 'settings', 'static', 'support', 'www',
]);

export type SlugRuleOptions = {
  owner: SlugOwner;
  /** The slug is required whatever was saved (a clip that is not Private). */
  alwaysRequired: boolean;
  /** The slug saved before this change (null for a new row): once saved it cannot be cleared,
   * and a slug kept as it was is not checked against the reserved list again. */
  savedSlug: string | null;
};

/** Everything wrong with a slug that can be told without the database. */
export function slugFieldError(slug: string | null | undefined, options: SlugRuleOptions): FormError | null {
  const format = validateSlug(slug, { alwaysRequired: options.alwaysRequired, savedSlug: options.savedSlug });
  if (format !== null) return format;
  if (slug === null || slug === undefined || slug === '' || slug === options.savedSlug) return null;
  return RESERVED_SLUGS.has(slug) ? slugServerError('SlugReservationFailed', options.owner) : null;
}

/** How many numbered variants of a title's slug are tried before giving up (no proposal). */
const SUFFIX_TRIES = 1000;

/**
 * A slug for a row that has only a title: section 5's normaliser applied to the title, without
 * edge dashes, cut to the longest slug allowed. A slug that is reserved, or that `taken` says is in
 * use, gets the first free '-2', '-3', …; null when the title has no letter or digit to make one of
 * (or every variant is taken).
 */
export function slugFromTitle(title: string | null | undefined, taken: (slug: string) => boolean = () => false): string | null {
  const base = slugFromText(title ?? '');
  if (base === '') return null;
  const free = (slug: string) => !RESERVED_SLUGS.has(slug) && !taken(slug);
  if (free(base)) return base;
  for (let n = 2; n <= SUFFIX_TRIES; n++) {
    const suffix = `-${n}`;
    const slug = `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (free(slug)) return slug;
  }
  return null;
}
