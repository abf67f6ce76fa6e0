// Display labels for values the screens show (through messages).
import { normalizeRecording } from '../domain/recording.ts';
import { relativeTime as relativeBucket } from '../domain/timing.ts';
import { m } from '../paraglide/messages.js';
import { getLocale } from './i18n.ts';
import type { Recording } from '../protocol/entities.ts';

export function visibilityLabel(v: string | null | undefined): string {
  switch (v) {
    case 'Public': return m.app_visibility_public();
    case 'Restricted': return m.app_visibility_restricted();
    case 'Unlisted': return m.app_visibility_unlisted();
    case 'Private': return m.app_visibility_private();
    default: return m.app_clip_none();
  }
}

export function publishStateLabel(p: string | null | undefined): string {
  switch (p) {
    case 'Published': return m.app_publish_published();
    case 'Publishing': return m.app_publish_publishing();
    case 'Unpublishing': return m.app_publish_unpublishing();
    default: return m.app_publish_unpublished();
  }
}

/** Recording State per section 4, with the data errors of section 8 shown as such. */
export function recordingStateLabel(r: Recording): string {
  const n = normalizeRecording(r);
  if (!n.ok) return n.error === 'UnhandledState' ? m.app_recording_state_other() : m.app_state_data_error();
  switch (n.value.Phase) {
    case 'processing': return m.app_recording_state_processing();
    case 'live': return m.app_recording_state_live();
    case 'finalized': return m.app_recording_state_finalized();
    case 'finalizedZeroDuration': return m.app_recording_state_zero();
  }
}

/** Durations as section 5 shows them ('--:--' when unknown). */
export { formatDuration as formatSeconds } from '../domain/time.ts';

/** Relative time with the buckets of section 9, in the reader's language. */
export function relativeTime(fromMs: number, nowMs: number, locale: string): string {
  const { value, unit } = relativeBucket(fromMs, nowMs);
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(value, unit);
}

/** A date and time in the interface language (not the browser's). */
export function formatDateTime(at: string | number, locale: string = getLocale()): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));
}

/** A time of day in the interface language. */
export function formatTime(at: string | number, locale: string = getLocale()): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(at));
}

/** "{count} clips", with the singular, and the count in the interface language's digits. */
export function clipCountLabel(count: number): string {
  return count === 1 ? m.app_program_clip_count_one() : m.app_program_clip_count({ count: new Intl.NumberFormat(getLocale()).format(count) });
}

/** Storage sizes (quota, usage) in the interface language: KB, MB or GB with one decimal. */
export function formatStorage(bytes: number): string {
  const n = new Intl.NumberFormat(getLocale(), { maximumFractionDigits: 1, minimumFractionDigits: bytes < 1024 * 1024 ? 0 : 1 });
  if (bytes < 1024 * 1024) return `${n.format(Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${n.format(bytes / 1024 / 1024)} MB`;
  return `${n.format(bytes / 1024 / 1024 / 1024)} GB`;
}

/** The label of a synced field, as the forms name it (conflicts, needs-attention errors). */
export function fieldLabel(field: string): string {
  const labels: Record<string, () => string> = {
    Title: m.app_clip_field_title,
    Description: m.app_clip_field_description,
    ShortSummary: m.app_clip_field_short_summary,
    Season: m.app_clip_field_season,
    Episode: m.app_clip_field_episode,
    EpisodeType: m.app_clip_field_episode_type,
    Tags: m.app_clip_field_tags,
    ContentRating: m.app_clip_field_content_rating,
    Slug: m.app_clip_field_slug,
    Visibility: m.app_clip_field_visibility,
    ScheduledVisibility: m.app_clip_field_scheduled_visibility,
    VisibleAtUtc: m.app_clip_field_visible_at,
    ExternalId: m.app_clip_field_external_id,
    RssLinkOverride: m.app_clip_field_rss_link_override,
    MemberDownloadsAdFree: m.app_clip_field_member_ad_free,
    Rating: m.app_recording_field_rating,
    Reviewed: m.app_recording_field_reviewed,
    ClipIds: m.app_field_clip_order,
    Deleted: m.app_field_deleted,
    Name: m.app_field_name,
  };
  return labels[field]?.() ?? field;
}
