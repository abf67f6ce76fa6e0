// The rest of section 7's analytics calls, beside the download series and groupings of
// analytics-api.ts: a clip's consumption curve, a program's clips at a glance, the reach estimate
// (an operation, section 3 "Operation progress"), how current the numbers are, and the
// organization's custom player names. Served by sync-server/api/analytics-insights.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import {
  CONSUMPTION_BUCKETS,
  CUSTOM_PLAYER_NAME_MAX,
  CUSTOM_PLAYER_PATTERN_MAX,
  CUSTOM_PLAYER_PATTERN_MIN,
  DOWNLOAD_SOURCES,
  GLANCE_DAYS,
  MAX_CUSTOM_PLAYER_NAMES,
  MAX_GLANCE_CLIPS,
  validateAnalyticsRange,
  validateCustomPlayerNames,
  type DownloadSource,
} from '../../domain/analytics.ts';
import { formError } from '../../domain/form-errors.ts';
import { checkedString, errors, idParams, IdListQuery, jsonBody, jsonContent, writeErrors, type DomainIssueParams } from './common.ts';

const tags = ['Analytics'];

const issue = (ctx: z.RefinementCtx, path: PropertyKey[], error: ReturnType<typeof formError>) =>
  ctx.addIssue({ code: 'custom', path, message: error.type, params: { formError: error } satisfies DomainIssueParams });

// ── Consumption ──────────────────────────────────────────────────────────────────────────────

export const ConsumptionQuery = z.object({
  source: checkedString((v) => ((DOWNLOAD_SOURCES as readonly string[]).includes(v.trim().toLowerCase()) ? null : formError('invalid')))
    .transform((v) => v.trim().toLowerCase() as DownloadSource)
    .optional()
    .meta({ description: `Only requests from this source: ${DOWNLOAD_SOURCES.join(', ')} (default all)`, example: 'feed' }),
});

export const ConsumptionBucketSchema = z
  .object({
    StartSeconds: z.number().meta({ description: 'Where the bucket starts in the episode' }),
    EndSeconds: z.number().meta({ description: 'Where it ends' }),
    Listeners: z.number().int().meta({ description: 'Listeners whose delivered bytes cover the middle of the bucket' }),
    Share: z.number().meta({ description: 'Listeners / the curve’s Listeners, 0 to 1 (0 when there are none)' }),
  })
  .meta({ id: 'AnalyticsConsumptionBucket' });

export const ConsumptionSchema = z
  .object({
    ClipId: z.uuid(),
    Source: z.enum(DOWNLOAD_SOURCES).nullable().meta({ description: 'The source asked for; null: all' }),
    DurationSeconds: z.number().nullable().meta({ description: 'The published file’s duration; null: not published (no curve)' }),
    FileSizeBytes: z.number().nullable().meta({ description: 'The published file’s size in bytes' }),
    RequestsRead: z.number().int().meta({ description: 'Raw GET requests that delivered bytes, before bots are left out' }),
    Listeners: z.number().int().meta({ description: 'Listeners on the curve: those whose delivered bytes pass the IAB download threshold (a header and one minute of audio)' }),
    MedianListenedThroughSeconds: z.number().nullable().meta({ description: 'The median, over those listeners, of the seconds of audio their delivered bytes cover; null: no listener' }),
    MedianListenedThroughShare: z.number().nullable().meta({ description: 'MedianListenedThroughSeconds / DurationSeconds' }),
    Buckets: z.array(ConsumptionBucketSchema).meta({ description: `${CONSUMPTION_BUCKETS} equal parts of the episode in order (empty when not published)` }),
  })
  .meta({ id: 'AnalyticsConsumption' });
export type Consumption = z.infer<typeof ConsumptionSchema>;

export const clipConsumption = {
  method: 'get',
  path: '/v1/clips/{clipId}/analytics/consumption',
  tags,
  summary: 'How far listeners got into the episode, from the bytes delivered to them',
  description:
    'Worked out on read from the clip’s raw download requests (GET answers that delivered bytes; HEAD, size probes such as bytes=0-1, bots and the ad-free file left out). ' +
    'A listener is one listener hash (one listener on one UTC day: hashes rotate at midnight UTC); their byte ranges are joined and mapped to seconds in proportion to the published file as it is now (second = byte × duration / size, a constant bit rate). ' +
    'Only listeners whose bytes pass the IAB download threshold are on the curve. Bytes delivered are not bytes played: a player that downloads the whole episode ahead shows as having heard all of it, and one that streams shows what it fetched, usually a little ahead of the listener.',
  request: { params: idParams('clipId'), query: ConsumptionQuery },
  responses: { 200: jsonContent(ConsumptionSchema, 'The curve'), ...errors },
} as const satisfies RouteConfig;

// ── Glance ───────────────────────────────────────────────────────────────────────────────────

export const GlanceQuery = z
  .object({
    clipIds: IdListQuery.meta({ description: `Comma-joined clip ids of the program, at most ${MAX_GLANCE_CLIPS} (default: its newest ${MAX_GLANCE_CLIPS})` }),
    // Required (section 5, "Call parameters": ianaTimeZoneId for clips glance).
    ianaTimeZoneId: z.string().max(100).meta({ description: 'The IANA time zone whose days are counted, one of GET /v1/reference-data/time-zones', example: 'America/Los_Angeles' }),
  })
  .superRefine((value, ctx) => {
    if ((value.clipIds?.length ?? 0) > MAX_GLANCE_CLIPS) issue(ctx, ['clipIds'], formError('outOfRange', undefined, { max: MAX_GLANCE_CLIPS }, 'overflow'));
  });

export const ClipGlanceSchema = z
  .object({
    ClipId: z.uuid(),
    Title: z.string().nullable(),
    PublishedUtc: z.string().nullable().meta({ description: 'When the clip was published; null: never' }),
    Downloads: z.number().int().meta({ description: 'Downloads counted in all' }),
    LastSevenDays: z.number().int().meta({ description: `Downloads in the last ${GLANCE_DAYS} local days, today included` }),
    FirstSevenDays: z.number().int().nullable().meta({ description: `Downloads in the first ${GLANCE_DAYS} local days from the day it was published, that day included; null: not published` }),
    FirstSevenDaysComplete: z.boolean().meta({ description: `Whether those ${GLANCE_DAYS} days are over (else FirstSevenDays is still growing)` }),
  })
  .meta({ id: 'AnalyticsClipGlance' });

export const GlanceSchema = z
  .object({
    TimeZoneIanaId: z.string(),
    Today: z.string().meta({ description: 'Today’s local date in the time zone, YYYY-MM-DD' }),
    PendingDownloads: z.number().int().meta({ description: 'Counted downloads not yet in the rollups (0: complete), as in the download series' }),
    Clips: z.array(ClipGlanceSchema).meta({ description: 'The clips asked for that are the program’s, newest first' }),
  })
  .meta({ id: 'AnalyticsClipsGlance' });
export type Glance = z.infer<typeof GlanceSchema>;

export const clipsGlance = {
  method: 'get',
  path: '/v1/programs/{programId}/clips/analytics/glance',
  tags,
  summary: `The program’s clips at a glance: downloads in all, in the last ${GLANCE_DAYS} days and in the first ${GLANCE_DAYS} days after publishing`,
  description: 'Read from the hourly clip rollups; a day is a local day of ianaTimeZoneId (an hour belongs to the day it starts in). Clip ids that are not the program’s are left out.',
  request: { params: idParams('programId'), query: GlanceQuery },
  responses: { 200: jsonContent(GlanceSchema, 'One glance per clip'), ...errors },
} as const satisfies RouteConfig;

// ── Reach estimate ───────────────────────────────────────────────────────────────────────────

export const ReachEstimateBody = z
  .object({
    StartDate: z.string().max(40).meta({ description: 'First local date, YYYY-MM-DD', example: '2025-05-01' }),
    EndDate: z.string().max(40).meta({ description: 'Last local date, YYYY-MM-DD, included', example: '2025-05-31' }),
    TimeZoneIanaId: z.string().max(100).optional().meta({ description: 'The IANA time zone of the dates (default UTC)', example: 'America/Los_Angeles' }),
  })
  .strict()
  .superRefine((value, ctx) => {
    for (const { field, error } of validateAnalyticsRange(value.StartDate, value.EndDate, 'day')) issue(ctx, [field === 'startDate' ? 'StartDate' : 'EndDate'], error);
  })
  .meta({ id: 'AnalyticsReachEstimateRequest' });

const ReachDaySchema = z.object({ Date: z.string(), Listeners: z.number().int(), Downloads: z.number().int() }).meta({ id: 'AnalyticsReachDay' });

export const ReachEstimateSchema = z
  .object({
    StartDate: z.string(),
    EndDate: z.string(),
    TimeZoneIanaId: z.string(),
    Days: z.number().int().meta({ description: 'Days in the range' }),
    Downloads: z.number().int().meta({ description: 'Downloads counted in the range' }),
    ListenerDays: z.number().int().meta({ description: 'The sum of each day’s unique listeners' }),
    AverageDailyListeners: z.number().meta({ description: 'ListenerDays / Days (quiet days included), two decimals' }),
    PeakDay: ReachDaySchema.nullable().meta({ description: 'The day with most unique listeners (the earliest on a tie); null: no downloads' }),
    DownloadsPerListenerDay: z.number().nullable().meta({ description: 'Downloads / ListenerDays, two decimals; null: no listener' }),
    DailyListeners: z.array(ReachDaySchema).meta({ description: 'Each day that had downloads, in order' }),
  })
  .meta({ id: 'AnalyticsReachEstimate' });
export type ReachEstimate = z.infer<typeof ReachEstimateSchema>;

export const ReachEstimateOperationSchema = z
  .object({
    Id: z.uuid().meta({ description: 'The operationId to poll' }),
    Status: z.enum(['Busy', 'Failed', 'Success']),
    Progress: z.number().meta({ description: 'Share of the range worked out, 0 to 1' }),
    Estimate: ReachEstimateSchema.nullable().meta({ description: 'The estimate once Status is Success; else null' }),
  })
  .meta({ id: 'AnalyticsReachEstimateOperation' });
export type ReachEstimateOperation = z.infer<typeof ReachEstimateOperationSchema>;

const REACH_DESCRIPTION =
  'Starts an estimate of the unique listeners of the downloads in the range; answers 202 with the operation, Busy; poll GET /v1/analytics/reach-estimate/{operationId} (only its asker may). ' +
  'Listener hashes rotate at midnight UTC and keep no address, so one listener cannot be followed from day to day and unique listeners over a longer range cannot be known. ' +
  'The estimate gives what can be: each local day’s unique listeners (distinct hashes of the downloads counted that day), their average over the range (ListenerDays / Days), the peak day, and downloads per listener-day. ' +
  'A local day that spans midnight UTC holds two days’ hashes, so a listener on both sides of it counts twice that day.';

function reachRoute(prefix: string, params: z.ZodObject, level: string) {
  return {
    method: 'post',
    path: `${prefix}/reach-estimate`,
    tags,
    summary: `Starts a reach estimate of the ${level}`,
    description: REACH_DESCRIPTION,
    request: { params, body: jsonBody(ReachEstimateBody) },
    responses: { 202: jsonContent(ReachEstimateOperationSchema, 'Started: the operation, Busy'), ...writeErrors },
  } as const satisfies RouteConfig;
}

// No path parameters at organization level: no `params` (an empty object would make every typed
// call pass `params: {}`).
export const organizationReach = { ...reachRoute('/v1/analytics', z.object({}), 'organization'), request: { body: jsonBody(ReachEstimateBody) } } as const satisfies RouteConfig;
export const networkReach = reachRoute('/v1/networks/{networkId}/analytics', idParams('networkId'), 'network (its programs)');
export const programReach = reachRoute('/v1/programs/{programId}/analytics', idParams('programId'), 'program');
export const playlistReach = reachRoute('/v1/playlists/{playlistId}/analytics', idParams('playlistId'), 'playlist (the clips in it now)');
export const clipReach = reachRoute('/v1/clips/{clipId}/analytics', idParams('clipId'), 'clip');

export const getReachEstimate = {
  method: 'get',
  path: '/v1/analytics/reach-estimate/{operationId}',
  tags,
  summary: 'A reach estimate’s progress, and the estimate once it is done',
  request: { params: idParams('operationId') },
  responses: { 200: jsonContent(ReachEstimateOperationSchema, 'The operation'), ...errors },
} as const satisfies RouteConfig;

// ── Progress ─────────────────────────────────────────────────────────────────────────────────

export const AnalyticsProgressSchema = z
  .object({
    RawEventsPending: z.number().int().meta({ description: 'The organization’s raw download requests not yet read by the counting job (at most 1,000,000 is said)' }),
    DownloadsPending: z.number().int().meta({ description: 'Its counted downloads not yet in the hourly rollups (answers add recent ones themselves)' }),
    CountedThroughUtc: z.string().nullable().meta({ description: 'When the newest request the counting job has read was made (any organization’s); null: none yet' }),
    OldestPendingEventUtc: z.string().nullable().meta({ description: 'When the organization’s oldest request not yet counted was made; null: none' }),
    CountingRunning: z.boolean().meta({ description: 'Whether the counting job is running now (it runs every minute)' }),
    AsOfUtc: z.string().meta({ description: 'The numbers are complete up to this time: OldestPendingEventUtc when requests wait, else now' }),
  })
  .meta({ id: 'AnalyticsProgress' });
export type AnalyticsProgress = z.infer<typeof AnalyticsProgressSchema>;

export const analyticsProgress = {
  method: 'get',
  path: '/v1/analytics/progress',
  tags,
  summary: 'How current the download numbers are (for “numbers as of …”)',
  responses: { 200: jsonContent(AnalyticsProgressSchema, 'The counting’s progress'), ...errors },
} as const satisfies RouteConfig;

// ── Custom player names ──────────────────────────────────────────────────────────────────────

export const CustomPlayerNameSchema = z
  .object({
    UserAgentContains: z.string().max(1000).meta({ description: `Text the user agent contains, any letter case (${CUSTOM_PLAYER_PATTERN_MIN} to ${CUSTOM_PLAYER_PATTERN_MAX} characters)`, example: 'MyStationApp/' }),
    Name: z.string().max(1000).meta({ description: `The name shown for it (at most ${CUSTOM_PLAYER_NAME_MAX} characters)`, example: 'My Station app' }),
  })
  .strict()
  .meta({ id: 'AnalyticsCustomPlayerName' });

export const CustomPlayerNamesBody = z
  .object({
    CustomPlayerNames: z.array(CustomPlayerNameSchema).max(10_000).meta({ description: `At most ${MAX_CUSTOM_PLAYER_NAMES}, in order: the first whose text a user agent contains names it` }),
  })
  .strict()
  .superRefine((value, ctx) => {
    for (const { field, error } of validateCustomPlayerNames(value.CustomPlayerNames)) issue(ctx, field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), error);
  })
  .meta({ id: 'AnalyticsCustomPlayerNamesRequest' });

export const CustomPlayerNamesSchema = z
  .object({
    CustomPlayerNames: z.array(CustomPlayerNameSchema),
    ModifiedAtUtc: z.string().nullable().meta({ description: 'When they were last changed; null: never set' }),
  })
  .meta({ id: 'AnalyticsCustomPlayerNames' });
export type CustomPlayerNames = z.infer<typeof CustomPlayerNamesSchema>;

const NAMES_DESCRIPTION =
  'Names the organization’s own apps and players in the apps grouping (GET …/analytics/downloads/apps): a download whose user agent contains an entry’s text is shown under its name. ' +
  'Applied when the grouping is read, so downloads counted before the names were set are relabelled too (while their raw requests are kept: the user agent is read from the request that opened each download).';

export const getCustomPlayerNames = {
  method: 'get',
  path: '/v1/settings/analytics/custom-player-names',
  tags,
  summary: 'The organization’s custom player names',
  description: NAMES_DESCRIPTION,
  responses: { 200: jsonContent(CustomPlayerNamesSchema, 'The names (none: an empty list)'), ...errors },
} as const satisfies RouteConfig;

export const putCustomPlayerNames = {
  method: 'put',
  path: '/v1/settings/analytics/custom-player-names',
  tags,
  summary: 'Replaces the organization’s custom player names',
  description: `${NAMES_DESCRIPTION} Each text and name is trimmed; a text given twice (any letter case) is refused at the second.`,
  request: { body: jsonBody(CustomPlayerNamesBody) },
  responses: { 200: jsonContent(CustomPlayerNamesSchema, 'The names as saved'), ...writeErrors },
} as const satisfies RouteConfig;
