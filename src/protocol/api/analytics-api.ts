// Download analytics, specification section 7 "Reports and analytics": GET …/analytics/downloads,
// …/analytics/media-types and …/analytics/downloads/{grouping} at organization, network, program,
// playlist and clip level. Downloads are those counted by the IAB Podcast Measurement rules (v2.2),
// summed by UTC hour (sync-server/analytics/analytics-rollup.ts) and bucketed here by the local
// time of the query's IANA time zone. Served by sync-server/api/analytics-api.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import {
  ANALYTICS_GROUPINGS,
  ANALYTICS_INTERVALS,
  DEFAULT_GROUPING_ITEMS,
  DOWNLOAD_MEDIA_TYPES,
  MAX_GROUPING_ITEMS,
  MAX_RANGE_DAYS,
  validateAnalyticsRange,
  validateMaxItems,
  type AnalyticsInterval,
  type DownloadMediaType,
} from '../../domain/analytics.ts';
import { formError } from '../../domain/form-errors.ts';
import { checkedString, errors, idParams, jsonContent, type DomainIssueParams } from './common.ts';

const tags = ['Analytics'];

/** One of `values`, in any letter case (→ its own spelling). */
function caseless<T extends string>(values: readonly T[]) {
  const byLower = new Map(values.map((v) => [v.toLowerCase(), v]));
  return checkedString((v) => (byLower.has(v.toLowerCase()) ? null : formError('invalid'))).transform((v) => byLower.get(v.toLowerCase()) as T);
}

const RangeFields = {
  // Required (section 5: analytics downloads take startDate and endDate); checked by checkRange.
  startDate: z.string().max(40).meta({ description: 'First local date of the range, YYYY-MM-DD', example: '2025-05-01' }),
  endDate: z.string().max(40).meta({ description: 'Last local date of the range, YYYY-MM-DD, included', example: '2025-05-31' }),
  timeZoneIanaId: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'The IANA time zone the dates and buckets are local to, one of GET /v1/reference-data/time-zones (default UTC)', example: 'America/Los_Angeles' }),
};

/** startDate and endDate by the rules of src/domain/analytics.ts, each error on its own field. */
function checkRange(value: { startDate?: string | undefined; endDate?: string | undefined; interval?: AnalyticsInterval | undefined }, ctx: z.RefinementCtx) {
  for (const { field, error } of validateAnalyticsRange(value.startDate, value.endDate, value.interval ?? 'day')) {
    ctx.addIssue({ code: 'custom', path: [field], message: error.type, params: { formError: error } satisfies DomainIssueParams });
  }
}

export const SeriesQuery = z
  .object({
    interval: caseless(ANALYTICS_INTERVALS)
      .optional()
      .meta({ description: `Bucket size: ${ANALYTICS_INTERVALS.join(', ')} (default day; a week starts on Monday; hour covers at most ${MAX_RANGE_DAYS.hour} days)`, example: 'day' }),
    ...RangeFields,
  })
  .superRefine(checkRange);

export const GroupingQuery = z
  .object({
    filter: z.string().max(200).optional().meta({ description: 'Only items whose label contains this text (any letter case)' }),
    maxItems: checkedString(validateMaxItems)
      .transform(Number)
      .optional()
      .meta({ description: `Items at most, 1 to ${MAX_GROUPING_ITEMS} (default ${DEFAULT_GROUPING_ITEMS})`, example: '10' }),
    downloadMediaType: caseless(DOWNLOAD_MEDIA_TYPES)
      .optional()
      .meta({ description: `Only downloads of this media type: ${DOWNLOAD_MEDIA_TYPES.join(', ')} (default both)` }),
    ...RangeFields,
  })
  .superRefine(checkRange);

const GroupingParam = z.enum(ANALYTICS_GROUPINGS).meta({
  param: { name: 'grouping', in: 'path' },
  description: 'What the downloads are grouped by: programs, clips, apps (podcast app or player), devices (device type), os, countries (ISO 3166-1 alpha-2, ZZ unknown) or sources (feed, embed, page, api, web, unknown)',
});

const Envelope = {
  TimeZoneIanaId: z.string().meta({ description: 'The time zone of the dates and bucket starts' }),
  StartDate: z.string().meta({ description: 'First local date, as asked' }),
  EndDate: z.string().meta({ description: 'Last local date (included), as asked' }),
  PendingDownloads: z
    .number()
    .int()
    .meta({
      description:
        'Counted downloads not yet in the hourly rollups the answer is read from. The server adds recent ones itself before it answers, so this is 0 unless a backlog is being rolled up (it then is within a minute or so); the numbers are complete when it is 0.',
    }),
};

export const SeriesPointSchema = z
  .object({
    Start: z.string().meta({
      description:
        'Local start of the bucket with its UTC offset, e.g. 2025-03-09T00:00:00-08:00. Day, week and month buckets start at local midnight (a day is 23 or 25 hours long across a DST change); hour buckets are the UTC hours of the range, each shown at its local time. The first and last week or month only count the days of the range.',
    }),
    Downloads: z.number().int().meta({ description: 'Downloads counted in the bucket (IAB v2.2)' }),
  })
  .meta({ id: 'AnalyticsSeriesPoint' });

export const DownloadsSeriesSchema = z
  .object({
    Interval: z.enum(ANALYTICS_INTERVALS),
    ...Envelope,
    Total: z.number().int().meta({ description: 'Downloads in the whole range' }),
    Points: z.array(SeriesPointSchema).meta({ description: 'Every bucket of the range in order, empty ones with 0' }),
  })
  .meta({ id: 'AnalyticsDownloadsSeries' });
export type DownloadsSeries = z.infer<typeof DownloadsSeriesSchema>;

export const MediaTypesSeriesSchema = z
  .object({
    Interval: z.enum(ANALYTICS_INTERVALS),
    ...Envelope,
    Total: z.number().int().meta({ description: 'Downloads in the whole range, every media type' }),
    MediaTypes: z
      .array(z.object({ MediaType: z.enum(DOWNLOAD_MEDIA_TYPES), Total: z.number().int(), Points: z.array(SeriesPointSchema) }))
      .meta({ description: 'One series per media type (Audio, then Video), each with every bucket of the range' }),
  })
  .meta({ id: 'AnalyticsMediaTypesSeries' });
export type MediaTypesSeries = z.infer<typeof MediaTypesSeriesSchema>;

export const GroupingItemSchema = z
  .object({
    Key: z.string().meta({ description: 'The program or clip id, or the dimension value (app name, device type, OS, country code, source)' }),
    Label: z.string().meta({ description: 'What to show: the program name, clip title, country name, or the value itself' }),
    Downloads: z.number().int(),
  })
  .meta({ id: 'AnalyticsGroupingItem' });

export const GroupingSchema = z
  .object({
    Grouping: z.enum(ANALYTICS_GROUPINGS),
    ...Envelope,
    DownloadMediaType: z.enum(DOWNLOAD_MEDIA_TYPES).nullable().meta({ description: 'The media type asked for; null: both' }),
    Total: z.number().int().meta({ description: 'Downloads in the range at this level (of the media type asked for), the items left out included' }),
    Items: z.array(GroupingItemSchema).meta({
      description:
        'Most downloads first (then by label), at most maxItems, filtered by label. Clips are listed only of programs the caller has content access to.',
    }),
  })
  .meta({ id: 'AnalyticsGrouping' });
export type Grouping = z.infer<typeof GroupingSchema>;
export type { DownloadMediaType };

/** The three analytics routes of one level (its path prefix and path parameters). */
function levelRoutes<P extends z.ZodObject>(prefix: string, params: P, level: string) {
  return {
    downloads: {
      method: 'get',
      path: `${prefix}/downloads`,
      tags,
      summary: `Downloads of the ${level} over time, bucketed by interval in the time zone`,
      request: { params, query: SeriesQuery },
      responses: { 200: jsonContent(DownloadsSeriesSchema, 'The downloads series'), ...errors },
    },
    mediaTypes: {
      method: 'get',
      path: `${prefix}/media-types`,
      tags,
      summary: `Downloads of the ${level} over time per media type (Audio, Video)`,
      request: { params, query: SeriesQuery },
      responses: { 200: jsonContent(MediaTypesSeriesSchema, 'A series per media type'), ...errors },
    },
    grouping: {
      method: 'get',
      path: `${prefix}/downloads/{grouping}`,
      tags,
      summary: `The ${level}’s downloads in the range grouped by program, clip, app, device type, OS, country or source, most first`,
      request: { params: params.extend({ grouping: GroupingParam }), query: GroupingQuery },
      responses: { 200: jsonContent(GroupingSchema, 'The groups'), ...errors },
    },
  } as const satisfies Record<string, RouteConfig>;
}

export const organizationAnalytics = levelRoutes('/v1/analytics', z.object({}), 'organization');
export const networkAnalytics = levelRoutes('/v1/networks/{networkId}/analytics', idParams('networkId'), 'network (its programs)');
export const programAnalytics = levelRoutes('/v1/programs/{programId}/analytics', idParams('programId'), 'program');
export const playlistAnalytics = levelRoutes('/v1/playlists/{playlistId}/analytics', idParams('playlistId'), 'playlist (the clips in it now)');
export const clipAnalytics = levelRoutes('/v1/clips/{clipId}/analytics', idParams('clipId'), 'clip');
