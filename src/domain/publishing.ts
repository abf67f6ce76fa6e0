// What a clip needs before it may be published (specification section 4), once: the clip screen's
// Publish button runs publishRequirements before it queues clip.publish, the server's run of that
// mutation before it answers, and the publishing job again when it runs (the row may have changed
// in between). Whether a slug is in use in the program only the store can say: `slugTaken`.
//
//   Unpublished ──clip.publish (rules ok)──> Publishing ──job: audio there──> Published
//        ▲                                       └──job: audio gone, clip deleted…──> Unpublished
//        │                                                                          + PublishProblem
//        └──job── Unpublishing <──clip.unpublish── Published
import { PublishState, Visibility, visibilityNeeds } from './clip.ts';
import { formError, type FormError } from './form-errors.ts';
import { slugFromTitle } from './slugs.ts';

/** Why a publishing job set a clip back to Unpublished (the row's PublishProblem; the screen
 * shows it in words: locales/publishing publishing_problem_*). */
export const PublishProblem = {
  /** The clip has no audio to serve (none uploaded, or its file is gone). */
  AudioMissing: 'AudioMissing',
  /** The clip's audio is not Ready (or Warning): still processing, or failed. */
  NotReady: 'NotReady',
  /** The clip is Private: nothing to publish. */
  Private: 'Private',
  /** No slug, and none could be made from the title. */
  NoSlug: 'NoSlug',
  /** The clip was deleted before its publishing ran. */
  Deleted: 'Deleted',
  /** The job failed on every attempt (the server's problem, not the clip's). */
  Failed: 'Failed',
} as const;
export type PublishProblem = (typeof PublishProblem)[keyof typeof PublishProblem];

/** The fields a publish can be refused for, in the order the screen lists them. */
export type PublishField = 'Visibility' | 'State' | 'Slug' | 'ScheduledVisibility' | 'VisibleAtUtc';
export type PublishErrors = Partial<Record<PublishField, FormError>>;

/** The clip as these rules read it: a stored row or the device's copy (Title, State, Visibility,
 * Slug, ScheduledVisibility, VisibleAtUtc, Urls.AudioPrivateUrl / AudioPublicUrl). */
export type PublishableClip = Readonly<Record<string, unknown>>;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const given = (v: unknown) => v !== null && v !== undefined && v !== '';

/** Whether the clip has audio a listener could get: Ready or Warning, with its audio processed. */
export function hasReadyAudio(clip: PublishableClip): boolean {
  if (clip['State'] !== 'Ready' && clip['State'] !== 'Warning') return false;
  const urls = (clip['Urls'] ?? {}) as Readonly<Record<string, unknown>>;
  return given(urls['AudioPrivateUrl']) || given(urls['AudioPublicUrl']);
}

/**
 * The slug the clip is published with: its own, or one made from its title (slugFromTitle: the
 * first '-2', '-3', … that `slugTaken` says is free in the program); null when it has none and the
 * title gives none.
 */
export function publishSlug(clip: PublishableClip, slugTaken: (slug: string) => boolean = () => false): string | null {
  const slug = text(clip['Slug']);
  if (slug !== null && slug !== '') return slug;
  return slugFromTitle(text(clip['Title']), slugTaken);
}

/**
 * Everything that keeps the clip from being published, by field; {} when it may be:
 * - Visibility: a Private clip is never published (a schedule that makes it visible publishes it
 *   when it applies);
 * - State: Ready or Warning, with its audio;
 * - Slug: Public, Unlisted and Restricted clips need one (made from the title when missing);
 * - ScheduledVisibility and VisibleAtUtc: both set or both null.
 */
export function publishRequirements(clip: PublishableClip, slugTaken: (slug: string) => boolean = () => false): PublishErrors {
  const errors: PublishErrors = {};
  const visibility = text(clip['Visibility']);
  if (visibility === Visibility.Private || !given(visibility)) errors.Visibility = formError('invalid', undefined, undefined, PublishProblem.Private);
  if (!hasReadyAudio(clip)) errors.State = formError('invalid', undefined, undefined, PublishProblem.NotReady);
  if (visibilityNeeds(visibility, 'Slug') && publishSlug(clip, slugTaken) === null) errors.Slug = formError('required', 'domain_required', undefined, PublishProblem.NoSlug);
  const scheduled = given(clip['ScheduledVisibility']);
  const at = given(clip['VisibleAtUtc']);
  if (scheduled && !at) errors.VisibleAtUtc = formError('required', 'domain_required');
  if (!scheduled && at) errors.ScheduledVisibility = formError('required', 'domain_required');
  return errors;
}

/** Whether clip.unpublish has anything to do: the clip is published or on its way there. */
export function mayUnpublish(publishState: string | null | undefined): boolean {
  return publishState === PublishState.Published || publishState === PublishState.Publishing;
}

/** Whether the public may download the clip's audio at its public URL: published, and Public or
 * Unlisted (Restricted audio is for member feeds only, through signed URLs). */
export function servesPublicAudio(clip: { PublishState?: string | null | undefined; Visibility?: string | null | undefined; Deleted?: boolean | null | undefined }): boolean {
  return clip.Deleted !== true && clip.PublishState === PublishState.Published && (clip.Visibility === Visibility.Public || clip.Visibility === Visibility.Unlisted);
}

/** The visibility a schedule gives the clip, and whether the clip is then to be published or
 * unpublished (a Private schedule takes a published clip down). */
export function scheduledOutcome(scheduled: string, publishState: string | null | undefined): 'publish' | 'unpublish' | 'none' {
  if (scheduled === Visibility.Private) return mayUnpublish(publishState) ? 'unpublish' : 'none';
  return publishState === PublishState.Published ? 'none' : 'publish';
}

/** A wall-clock date-time ('2026-03-29T09:30') in an IANA time zone, as the UTC instant it names
 * (ISO-8601 with milliseconds); null when either is not valid. A time that the zone skips (a
 * daylight-saving gap) is read with the offset in force before it. */
export function zonedDateTimeToUtc(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
  } catch {
    return null;
  }
  /** The zone's offset (ms) at an instant. */
  const offsetAt = (instant: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p['year']), Number(p['month']) - 1, Number(p['day']), Number(p['hour']), Number(p['minute'])) - Math.floor(instant / 60_000) * 60_000;
  };
  const first = wall - offsetAt(wall);
  const utc = wall - offsetAt(first);
  return Number.isNaN(utc) ? null : new Date(utc).toISOString();
}

/** The UTC instant as a wall-clock date-time in the zone ('2026-03-29T09:30'), for a date-time field. */
export function utcToZonedDateTime(utc: string, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(utc))
      .map((x) => [x.type, x.value]),
  );
  return `${p['year']}-${p['month']}-${p['day']}T${p['hour']}:${p['minute']}`;
}

/**
 * Whether an edit of a published clip must run its publishing again: its public URLs (the audio's,
 * the embed's, the show page's) follow its Visibility and Slug, and only the publishing job knows
 * the published file they name. A Restricted clip made Public gets its AudioPublicUrl then, a
 * Public one made Private is unpublished (PublishProblem Private), a deleted one is unpublished.
 */
export function editRepublishes(fields: Readonly<Record<string, unknown>>, row: PublishableClip): boolean {
  if (row['PublishState'] !== PublishState.Published) return false;
  return 'Visibility' in fields || 'Slug' in fields || row['Deleted'] === true;
}

