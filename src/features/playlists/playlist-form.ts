// The playlist form's values and rules, shared by the new-playlist screen and the playlist screen:
// section 5's title and slug rules (src/domain), the slug checked against the playlists this device
// holds (the server makes the final check and answers SlugExists), and the values as the change
// the mutations take.
import type { FormError } from '../../domain/form-errors.ts';
import { slugServerError } from '../../domain/server-errors.ts';
import { slugFieldError } from '../../domain/slugs.ts';
import { validateTitle } from '../../domain/validators.ts';
import { normaliseTitle } from '../../domain/clip.ts';
import { db } from '../../db/db.ts';
import type { Playlist } from '../../protocol/entities.ts';

export type PlaylistFormValues = { Title: string; Slug: string; Description: string; Visibility: string };
export type PlaylistFormErrors = Partial<Record<keyof PlaylistFormValues, FormError | string>>;

export const PLAYLIST_VISIBILITIES = ['Private', 'Public', 'Unlisted', 'Restricted'] as const;

export function playlistFormValues(p: Pick<Playlist, 'Title' | 'Slug' | 'Description' | 'Visibility'> | null): PlaylistFormValues {
  return { Title: p?.Title ?? '', Slug: p?.Slug ?? '', Description: p?.Description ?? '', Visibility: p?.Visibility ?? 'Private' };
}

/** The changed values as the fields a playlist mutation takes (wire values: '' is none). */
export function playlistPatch(changed: Partial<PlaylistFormValues>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(changed)) {
    if (k === 'Visibility') patch[k] = v;
    else if (k === 'Title') patch[k] = normaliseTitle(v);
    else patch[k] = v.trim() === '' ? null : k === 'Slug' ? v.trim() : v;
  }
  return patch;
}

/** Whether another live playlist of the organization on this device holds the slug (a playlist's
 * slug is unique in its organization, section 5). */
export async function slugsHeldLocally(organizationId: string, selfId: string | null): Promise<(slug: string) => boolean> {
  const others = await db.playlists.toArray();
  const held = new Set(
    others
      .filter((p) => !p['Deleted'] && p.Id !== selfId && (p['OrganizationId'] === undefined || p['OrganizationId'] === organizationId))
      .map((p) => p['Slug'])
      .filter((s): s is string => typeof s === 'string' && s !== ''),
  );
  return (slug) => held.has(slug);
}

/** Every rule the changed fields break (title required and within its lengths; the slug's format,
 * the reserved slugs, and slugs this device knows are taken). */
export async function playlistFormErrors(
  changed: Partial<PlaylistFormValues>,
  options: { organizationId: string; selfId: string | null; savedSlug: string | null },
): Promise<PlaylistFormErrors> {
  const errors: PlaylistFormErrors = {};
  if ('Title' in changed) {
    const e = validateTitle(changed.Title);
    if (e) errors.Title = e;
  }
  if ('Slug' in changed) {
    const slug = changed.Slug!.trim() === '' ? null : changed.Slug!.trim();
    const e = slugFieldError(slug, { owner: 'playlist', alwaysRequired: false, savedSlug: options.savedSlug });
    if (e) errors.Slug = e;
    else if (slug !== null && slug !== options.savedSlug && (await slugsHeldLocally(options.organizationId, options.selfId))(slug)) {
      errors.Slug = slugServerError('SlugExists', 'playlist')!;
    }
  }
  return errors;
}
