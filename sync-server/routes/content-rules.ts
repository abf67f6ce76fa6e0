// What the server does to a row before it is written: defaults of new rows, the field rules of
// specification section 5 (through src/domain, never a second copy), and the derived fields of
// section 4 (PublishedUtc and the embed and show-page URLs follow Visibility).
import type { FormError } from '../../src/domain/form-errors.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { slugServerError } from '../../src/domain/server-errors.ts';
import { validateInteger, validateName, validateRequired, validateSlug, validateTitle } from '../../src/domain/validators.ts';
import { type ClipPatch, type ClipUrls } from '../../src/protocol/entities.ts';
import { emptyClipUrls } from '../../src/domain/clip-defaults.ts';
import { assertValid, badRequest, fieldError } from '../errors.ts';
import type { Queryable } from '../store/store.ts';
import type { WireRow } from '../rows.ts';

/** Slugs the product keeps for its own pages and feeds (SlugReservationFailed). */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin', 'api', 'app', 'assets', 'castaway', 'edit', 'embed', 'feed', 'feeds', 'help', 'login', 'logout',
  'new', 'rss', 'settings', 'static', 'support', 'www',
]);

export const PUBLIC_BASE_URL = 'https://listen.castaway.example';

/** The URLs a clip's Urls object holds (section 4). */
const URL_FIELDS: readonly string[] = Object.keys(emptyClipUrls());

/** A title of only whitespace becomes null (section 4). */
export function normaliseTitle(title: string | null | undefined): string | null {
  if (title === null || title === undefined) return null;
  return title.trim() === '' ? null : title;
}

export type SlugOwner = 'clip' | 'playlist' | 'program';

/** Format rules, then the reserved list, then uniqueness (clips: per program; others: per organization). */
export async function checkSlug(
  q: Queryable,
  owner: SlugOwner,
  slug: string | null,
  options: { alwaysRequired: boolean; savedSlug: string | null; organizationId: string; programId?: string; selfId: string },
): Promise<void> {
  const format = validateSlug(slug, { alwaysRequired: options.alwaysRequired, savedSlug: options.savedSlug });
  assertValid([['Slug', format]]);
  if (slug === null || slug === '' || slug === options.savedSlug) return;
  if (RESERVED_SLUGS.has(slug)) throw badRequest([fieldError('Slug', slugServerError('SlugReservationFailed', owner)!)]);
  const taken =
    owner === 'clip'
      ? await q.query(`SELECT 1 FROM clips WHERE program_id = $1 AND slug = $2 AND id <> $3 AND NOT deleted`, [options.programId, slug, options.selfId])
      : await q.query(`SELECT 1 FROM ${owner === 'program' ? 'programs' : 'playlists'} WHERE organization_id = $1 AND slug = $2 AND id <> $3 AND NOT deleted`, [
          options.organizationId,
          slug,
          options.selfId,
        ]);
  if (taken.length > 0) throw slugExists(owner);
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

/** Embed and show-page URLs exist for Public and Unlisted clips only (section 4). */
export function clipPublicUrls(clipId: string, programSlug: string | null, programId: string, slug: string | null, visibility: string) {
  if ((visibility !== 'Public' && visibility !== 'Unlisted') || !slug) return { EmbedUrl: null, ShowPageUrl: null };
  return {
    EmbedUrl: `${PUBLIC_BASE_URL}/embed/${clipId}`,
    ShowPageUrl: `${PUBLIC_BASE_URL}/${programSlug ?? programId}/${slug}`,
  };
}

/**
 * The clip after a change: field rules (400 naming every invalid field), then the section-4
 * invariants: non-Private clips need a Slug and get PublishedUtc; ScheduledVisibility and
 * VisibleAtUtc both or neither.
 */
export async function applyClipChange(
  q: Queryable,
  current: Record<string, unknown>,
  patch: ClipPatch,
  ctx: { organizationId: string; clipId: string; programSlug: string | null; now: Date; isNew: boolean },
): Promise<Record<string, unknown>> {
  const next: Record<string, unknown> = { ...current, ...patch };
  if ('Title' in patch) next.Title = normaliseTitle(patch.Title);
  if (patch.VisibleAtUtc) next.VisibleAtUtc = new Date(patch.VisibleAtUtc).toISOString();
  const checks: Array<[string, FormError | null]> = [];
  if ('Title' in patch) checks.push(['Title', validateTitle(next.Title as string | null, { required: false })]);
  if ('Episode' in patch && patch.Episode !== null) checks.push(['Episode', validateInteger(patch.Episode, { min: 0 })]);
  if ('Season' in patch && patch.Season !== null) checks.push(['Season', validateInteger(patch.Season, { min: 0 })]);
  const scheduled = next.ScheduledVisibility ?? null;
  const visibleAt = next.VisibleAtUtc ?? null;
  if (scheduled !== null && visibleAt === null) checks.push(['VisibleAtUtc', validateRequired(null)]);
  if (scheduled === null && visibleAt !== null) checks.push(['ScheduledVisibility', validateRequired(null)]);
  assertValid(checks);
  const visibility = next.Visibility as string;
  if ('Slug' in patch || 'Visibility' in patch || ctx.isNew) {
    await checkSlug(q, 'clip', (next.Slug as string | null) ?? null, {
      alwaysRequired: visibility !== 'Private',
      savedSlug: ctx.isNew ? null : ((current.Slug as string | null) ?? null),
      organizationId: ctx.organizationId,
      programId: next.ProgramId as string,
      selfId: ctx.clipId,
    });
  }
  if (visibility !== 'Private' && next.PublishedUtc == null) next.PublishedUtc = ctx.now.toISOString();
  const held = next.Urls as ClipUrls | undefined;
  const derived = clipPublicUrls(ctx.clipId, ctx.programSlug, next.ProgramId as string, (next.Slug as string | null) ?? null, visibility);
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
