// What the server does to a row before it is written: defaults of new rows, the field rules of
// specification sections 4 and 5 (through src/domain, never a second copy: the clip screen runs
// the same clipFieldErrors before it saves), the uniqueness of slugs (the one rule only the
// database can tell), and the derived fields of section 4 (PublishedUtc and the embed and
// show-page URLs follow Visibility).
import type { FormError } from '../../src/domain/form-errors.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { chapterErrors, normaliseChapters, type Chapter } from '../../src/domain/chapters.ts';
import { chaptersDigest, enqueueClipAudio, hasGoodAudio } from '../audio/versions.ts';
import { clipFieldErrors, clipSlugToCheck, normaliseClipPatch } from '../../src/domain/clip-rules.ts';
import { visibilityNeeds } from '../../src/domain/clip.ts';
import { slugServerError, type SlugOwner } from '../../src/domain/server-errors.ts';
import { slugFieldError } from '../../src/domain/slugs.ts';
import { validateName, validateTitle } from '../../src/domain/validators.ts';
import { type ClipPatch, type ClipUrls } from '../../src/protocol/entities.ts';
import { emptyClipUrls } from '../../src/domain/clip-defaults.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { assertValid, badRequest, fieldError } from '../errors.ts';
import type { Queryable } from '../store/store.ts';
import type { WireRow } from '../rows.ts';
import { episodeSecondsOf } from '../../src/domain/intro-outro.ts';

// Kept as exports of this module for its callers; the rules themselves live in src/domain.
export { RESERVED_SLUGS } from '../../src/domain/slugs.ts';
export { normaliseTitle } from '../../src/domain/clip.ts';
export type { SlugOwner };

/** The URLs a clip's Urls object holds (section 4). */
const URL_FIELDS: readonly string[] = Object.keys(emptyClipUrls());

type SlugPlace = { organizationId: string; programId?: string | undefined; selfId: string };

/** Whether another row holds the slug: a clip's within its program, a playlist's or a program's
 * within the organization (section 5: SlugExists). */
async function slugTaken(q: Queryable, owner: SlugOwner, slug: string, place: SlugPlace): Promise<boolean> {
  const taken =
    owner === 'clip'
      ? await q.query(`SELECT 1 FROM clips WHERE program_id = $1 AND slug = $2 AND id <> $3 AND NOT deleted`, [place.programId, slug, place.selfId])
      : await q.query(`SELECT 1 FROM ${owner === 'program' ? 'programs' : 'playlists'} WHERE organization_id = $1 AND slug = $2 AND id <> $3 AND NOT deleted`, [
          place.organizationId,
          slug,
          place.selfId,
        ]);
  return taken.length > 0;
}

/** The rules of src/domain (format, required, reserved), then uniqueness (clips: per program;
 * others: per organization). */
export async function checkSlug(
  q: Queryable,
  owner: SlugOwner,
  slug: string | null,
  options: { alwaysRequired: boolean; savedSlug: string | null } & SlugPlace,
): Promise<void> {
  assertValid([['Slug', slugFieldError(slug, { owner, alwaysRequired: options.alwaysRequired, savedSlug: options.savedSlug })]]);
  if (slug === null || slug === '' || slug === options.savedSlug) return;
  if (await slugTaken(q, owner, slug, options)) throw slugExists(owner);
}

export function slugExists(owner: SlugOwner) {
  return badRequest([fieldError('Slug', slugServerError('SlugExists', owner)!)]);
}

/** A unique-index violation on a slug (two writers raced past checkSlug) → SlugExists. */
export function slugOwnerOfViolation(err: unknown): SlugOwner | null {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return null;
  const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
  if (where.includes('clips_slug')) return 'clip';
  if (where.includes('playlists_slug')) return 'playlist';
  if (where.includes('programs_slug')) return 'program';
  return null;
}

/** Embed and show-page URLs exist for Public and Unlisted clips with a slug only (section 4): site-
 * relative paths (src/domain/public-urls.ts), made absolute where they leave the studio. */
export function clipPublicUrls(clipId: string, programId: string, slug: string | null, visibility: string) {
  if (!visibilityNeeds(visibility, 'EmbedUrl') || !slug) return { EmbedUrl: null, ShowPageUrl: null };
  return { EmbedUrl: publicPaths.embed(clipId), ShowPageUrl: publicPaths.clipPage(programId, slug) };
}

/**
 * The clip after a change: the rules of src/domain/clip-rules.ts (a 400 naming every invalid
 * field, as the clip screen names them before saving), then the slug's uniqueness in the program,
 * then the derived fields: a clip that is not Private gets PublishedUtc, and the embed and
 * show-page URLs follow its visibility and slug.
 */
export async function applyClipChange(
  q: Queryable,
  current: Record<string, unknown>,
  patch: ClipPatch,
  ctx: { organizationId: string; clipId: string; programSlug: string | null; now: Date; isNew: boolean },
): Promise<Record<string, unknown>> {
  const rules = { isNew: ctx.isNew };
  assertValid(Object.entries(clipFieldErrors(current, patch, rules)));
  // Chapters are checked against the clip's audio as it is now (a start past the episode's end is
  // refused: behind a program intro the published length is longer by it).
  if (patch.Chapters !== undefined) assertValid(Object.entries(chapterErrors(patch.Chapters, episodeSecondsOf(current))));
  const next: Record<string, unknown> = { ...current, ...normaliseClipPatch(patch) };
  if (patch.Chapters !== undefined) next.Chapters = normaliseChapters(patch.Chapters);
  // Changed chapters go into the published MP3 too (ID3 CHAP frames, sync-server/audio/id3-chapters.ts):
  // the clip's audio is made again by its processing job, queued in this change's transaction.
  if (patch.Chapters !== undefined && !ctx.isNew && hasGoodAudio(current) && chaptersDigest(patch.Chapters) !== chaptersDigest((current.Chapters as Chapter[] | undefined) ?? [])) {
    await enqueueClipAudio(q, { organizationId: ctx.organizationId, clipId: ctx.clipId, userId: null });
  }
  const slug = clipSlugToCheck(current, patch, rules);
  if (slug !== null && (await slugTaken(q, 'clip', slug, { organizationId: ctx.organizationId, programId: next.ProgramId as string, selfId: ctx.clipId }))) {
    throw slugExists('clip');
  }
  const visibility = next.Visibility as string;
  if (visibilityNeeds(visibility, 'PublishedUtc') && next.PublishedUtc == null) next.PublishedUtc = ctx.now.toISOString();
  const held = next.Urls as ClipUrls | undefined;
  const derived = clipPublicUrls(ctx.clipId, next.ProgramId as string, (next.Slug as string | null) ?? null, visibility);
  const override = 'EmbedShareLinkOverrideUrl' in patch ? (patch.EmbedShareLinkOverrideUrl ?? null) : undefined;
  // Most edits (a title, tags) leave the URLs as they were: the row keeps its own object then,
  // which the write's change detection sees as unchanged at once.
  const unchanged =
    held !== undefined &&
    held.EmbedUrl === derived.EmbedUrl &&
    held.ShowPageUrl === derived.ShowPageUrl &&
    (override === undefined || held.EmbedShareLinkOverrideUrl === override) &&
    URL_FIELDS.every((k) => k in held);
  if (!unchanged) {
    const urls = { ...emptyClipUrls(), ...(held ?? {}), ...derived };
    if (override !== undefined) urls.EmbedShareLinkOverrideUrl = override;
    next.Urls = urls;
  }
  return next;
}

export function nameCheck(name: string | null | undefined): [string, FormError | null] {
  return ['Name', validateName(name)];
}

export function titleCheck(title: string | null | undefined): [string, FormError | null] {
  return ['Title', validateTitle(title)];
}

export function invalid(field: string) {
  return badRequest([fieldError(field, formError('invalid'))]);
}

export type { WireRow };
