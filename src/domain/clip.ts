// Clip rules of sections 3 and 4: normalisation of what the server sends, the display mapping of
// State and PublishState, and labels. A clip that breaks a rule is a data error, not a crash:
// the caller shows it as broken content.
import { seasonEpisodeWords, untitledClip } from './label-words.ts';
import type { InterfaceLocale as Locale } from './locales.ts';
import type { DomainMessageKey } from './form-errors.ts';
import { byName, CLIP_STATE_VALUES, PUBLISH_STATE_VALUES, VISIBILITY_VALUES } from '../protocol/values.ts';

// One list of each value set: the wire's (src/protocol/values.ts, which the zod enums of
// src/protocol/entities.ts are built from), as constants by name.
export const ClipState = byName(CLIP_STATE_VALUES);
export type ClipState = (typeof ClipState)[keyof typeof ClipState];

export const PublishState = byName(PUBLISH_STATE_VALUES);
export type PublishState = (typeof PublishState)[keyof typeof PublishState];

/** Private, Public, Restricted, Unlisted (section 3's order, which the screens list them in). */
export const Visibility = byName(VISIBILITY_VALUES);
export type Visibility = (typeof Visibility)[keyof typeof Visibility];
export const VISIBILITIES: readonly Visibility[] = VISIBILITY_VALUES;

export type MediaType = 'Audio' | 'AudioAndVideo';

/** The clip fields these rules read; the wire type (src/protocol) has more and is assignable. */
export type ClipFields = {
  Title: string | null;
  State: string;
  PublishState?: string | null | undefined;
  Visibility: string;
  ScheduledVisibility?: string | null | undefined;
  VisibleAtUtc?: string | null | undefined;
  PublishedUtc?: string | null | undefined;
  Slug?: string | null | undefined;
  DurationSeconds?: number | null | undefined;
  MediaType?: MediaType | null | undefined;
  AudioPublicUrl?: string | null | undefined;
  AudioPrivateUrl?: string | null | undefined;
  WaveformHighResUrl?: string | null | undefined;
  WaveformLowResUrl?: string | null | undefined;
  VideoPrivateUrl?: string | null | undefined;
  VideoPublicUrl?: string | null | undefined;
  EmbedUrl?: string | null | undefined;
  ShowPageUrl?: string | null | undefined;
  AudioProcessingProblem?: string | null | undefined;
  AudioProcessingProblemDismissed?: boolean | null | undefined;
  Season?: number | null | undefined;
  Episode?: number | null | undefined;
};

export const ClipDataError = {
  ReadyWithoutDuration: 'ReadyWithoutDuration',
  ReadyWithoutAudio: 'ReadyWithoutAudio',
  ReadyWithoutWaveform: 'ReadyWithoutWaveform',
  ReadyWithoutVideo: 'ReadyWithoutVideo',
  VisibilityWithoutField: 'VisibilityWithoutField',
  ScheduledVisibilityMismatch: 'ScheduledVisibilityMismatch',
} as const;
export type ClipDataError = (typeof ClipDataError)[keyof typeof ClipDataError];

export type Normalised<T, E> = { ok: true; value: T } | { ok: false; error: E; field: string };

const present = (v: unknown): boolean => v !== null && v !== undefined && v !== '';

function readyError<T extends ClipFields>(clip: T): Normalised<T, ClipDataError> | null {
  if (clip.State !== ClipState.Ready && clip.State !== ClipState.Warning) return null;
  const fail = (error: ClipDataError, field: string) => ({ ok: false, error, field }) as const;
  if (!present(clip.DurationSeconds)) return fail('ReadyWithoutDuration', 'DurationSeconds');
  if (!present(clip.AudioPrivateUrl) && !present(clip.AudioPublicUrl)) return fail('ReadyWithoutAudio', 'AudioPrivateUrl');
  if (!present(clip.WaveformHighResUrl)) return fail('ReadyWithoutWaveform', 'WaveformHighResUrl');
  if (!present(clip.WaveformLowResUrl)) return fail('ReadyWithoutWaveform', 'WaveformLowResUrl');
  if (clip.MediaType === 'AudioAndVideo' && !present(clip.VideoPrivateUrl) && !present(clip.VideoPublicUrl)) {
    return fail('ReadyWithoutVideo', 'VideoPrivateUrl');
  }
  return null;
}

/** The fields each visibility needs (section 4). Private may have a null Slug. */
const VISIBILITY_NEEDS: Record<Visibility, ReadonlyArray<keyof ClipFields>> = {
  Public: ['PublishedUtc', 'Slug', 'EmbedUrl', 'ShowPageUrl'],
  Unlisted: ['PublishedUtc', 'Slug', 'EmbedUrl', 'ShowPageUrl'],
  Restricted: ['PublishedUtc', 'Slug'],
  Private: [],
};

/** Whether a clip of this visibility must have the field (section 4): a Slug and PublishedUtc
 * for all but Private, the embed and show-page URLs for Public and Unlisted only. */
export function visibilityNeeds(visibility: string | null | undefined, field: 'PublishedUtc' | 'Slug' | 'EmbedUrl' | 'ShowPageUrl'): boolean {
  return typeof visibility === 'string' && Object.hasOwn(VISIBILITY_NEEDS, visibility) && VISIBILITY_NEEDS[visibility as Visibility].includes(field);
}

/** A title of only whitespace becomes null (section 4); any other title is kept as it is. */
export function normaliseTitle(title: string | null | undefined): string | null {
  if (title === null || title === undefined) return null;
  return title.trim() === '' ? null : title;
}

export function normalizeClip<T extends ClipFields>(raw: T): Normalised<T, ClipDataError> {
  const clip: T = { ...raw, Title: normaliseTitle(raw.Title) };
  const ready = readyError(clip);
  if (ready) return ready;
  const needs = VISIBILITY_NEEDS[clip.Visibility as Visibility] ?? [];
  const missing = needs.find((field) => !present(clip[field]));
  if (missing) return { ok: false, error: 'VisibilityWithoutField', field: missing };
  // Restricted clips have no embed or show-page URL, whatever the server sent.
  if (clip.Visibility === Visibility.Restricted) Object.assign(clip, { EmbedUrl: null, ShowPageUrl: null });
  if (present(clip.ScheduledVisibility) !== present(clip.VisibleAtUtc)) {
    return { ok: false, error: 'ScheduledVisibilityMismatch', field: 'VisibleAtUtc' };
  }
  return { ok: true, value: clip };
}

// ── Display ─────────────────────────────────────────────────────────────────────────────────

export type ClipStateDisplay = 'ingesting' | 'draft' | 'error' | 'ready';

const STATE_DISPLAY: Record<ClipState, ClipStateDisplay> = {
  None: 'ingesting',
  AudioUploaded: 'ingesting',
  Processing: 'ingesting',
  Draft: 'draft',
  Error: 'error',
  Ready: 'ready',
  Warning: 'ready',
};

/** How a State is shown; null for a state the product does not know. */
export function clipStateDisplay(state: string): ClipStateDisplay | null {
  return STATE_DISPLAY[state as ClipState] ?? null;
}

export const CLIP_STATE_LABEL: Record<ClipStateDisplay, DomainMessageKey> = {
  ingesting: 'domain_clip_state_ingesting',
  draft: 'domain_clip_state_draft',
  error: 'domain_clip_state_error',
  ready: 'domain_clip_state_ready',
};

/** Warning shows the processing problem unless it was dismissed. */
export function visibleProcessingProblem(clip: Pick<ClipFields, 'State' | 'AudioProcessingProblem' | 'AudioProcessingProblemDismissed'>): string | null {
  if (clip.State !== ClipState.Warning || clip.AudioProcessingProblemDismissed === true) return null;
  return clip.AudioProcessingProblem ?? null;
}

/** Publishing and Unpublishing are shown as pending; Published and Unpublished are not. */
export function isPublishPending(publishState: string | null | undefined): boolean {
  return publishState === PublishState.Publishing || publishState === PublishState.Unpublishing;
}

/**
 * Section 5's uniqueness rule for clip slugs ('This slug is already in use in this program'): a
 * slug belongs to one clip of a program that is not deleted. True when `other` already holds
 * `slug` and `clip` may not take it. The device checks it against what it has synced
 * (ClipScreen); the server's check is the same rule in SQL (routes/content-rules.ts checkSlug,
 * and the clips_slug partial unique index behind it).
 */
export function holdsClipSlug(
  other: { Id: string; ProgramId?: unknown; Slug?: unknown; Deleted?: unknown },
  clip: { Id: string; ProgramId: string },
  slug: string,
): boolean {
  return slug !== '' && other.Id !== clip.Id && other.ProgramId === clip.ProgramId && other.Deleted !== true && other.Slug === slug;
}

// ── Labels ──────────────────────────────────────────────────────────────────────────────────

/** The clip's title, or 'Untitled clip' for a clip without one. */
export function clipLabel(clip: Pick<ClipFields, 'Title'>, locale?: Locale): string {
  const title = clip.Title?.trim();
  return title ? title : untitledClip(locale);
}

/** 'S{n}/E{m}', or just one of them, or null when neither is set. */
export function seasonEpisodeLabel(clip: Pick<ClipFields, 'Season' | 'Episode'>, locale?: Locale): string | null {
  return seasonEpisodeWords(clip.Season ?? null, clip.Episode ?? null, locale);
}
