// Words for the sync details screen: synced fields named as the forms name them, storage sizes.
// Kept out of src/lib/labels.ts so the signed-in first screen does not carry their messages.
import { m } from '../paraglide/messages.js';
import { getLocale } from './i18n.ts';
import { domainFieldErrorText, formatFormError } from '../domain/messages.ts';
import { slugServerError, type SlugOwner } from '../domain/server-errors.ts';
import type { FieldError } from '../protocol/errors.ts';
import type { SyncEntity } from '../protocol/sync.ts';

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
    Normalization: m.settings_normalization_field,
    PresetId: m.settings_normalization_field,
    DeleteRecordingsAfterDays: m.settings_recording_field,
    MeasurementPrefixes: m.settings_measurement_field,
    ApplePremium: m.settings_apple_title,
    Enabled: m.settings_apple_enabled,
    ProviderId: m.settings_apple_provider,
    ChannelId: m.settings_apple_channel,
    ShowId: m.settings_apple_show_id,
    DeliverAdFree: m.settings_apple_ad_free,
    EarlyAccessHours: m.settings_apple_early,
  };
  return labels[field]?.() ?? field;
}

/** Why the server refused a change, in words, from its HTTP status (needs-attention items). */
export function attentionReason(status: number): string {
  if (status === 400) return m.app_attention_reason_400();
  if (status === 403) return m.app_attention_reason_403();
  if (status === 404 || status === 410) return m.app_attention_reason_404();
  if (status === 409) return m.app_attention_reason_409();
  if (status === 413) return m.app_attention_reason_413();
  return m.app_attention_reason_other({ status });
}

const SLUG_OWNER: Partial<Record<SyncEntity, SlugOwner>> = { clips: 'clip', playlists: 'playlist', programs: 'program' };

/** A refused field's error in the user's language: from the catalogue key the server names beside
 * its English words, else (a slug error kept from before the server named keys, or a key this
 * client does not know) from a slug code, else the server's words. */
export function refusedFieldText(error: FieldError, entity: SyncEntity): string {
  const worded = domainFieldErrorText(error);
  if (worded !== null) return worded;
  const owner = SLUG_OWNER[entity];
  const slug = owner ? slugServerError(error.Code, owner) : null;
  return slug ? formatFormError(slug) : error.Message;
}

/** A refused change's errors as lines for a list: "Slug: This slug is already in use…". */
export function refusedErrorLines(item: { entity: SyncEntity; errors: readonly FieldError[] }): string[] {
  return item.errors.map((e) => `${e.Field ? `${fieldLabel(e.Field)}: ` : ''}${refusedFieldText(e, item.entity)}`);
}

/** Storage sizes (quota, usage) in the interface language: KB, MB or GB with one decimal. */
export function formatStorage(bytes: number): string {
  const n = new Intl.NumberFormat(getLocale(), { maximumFractionDigits: 1, minimumFractionDigits: bytes < 1024 * 1024 ? 0 : 1 });
  if (bytes < 1024 * 1024) return `${n.format(Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${n.format(bytes / 1024 / 1024)} MB`;
  return `${n.format(bytes / 1024 / 1024 / 1024)} GB`;
}
