// Feeds (issue 29): a playlist's podcast feed and the chapters its items point at, served to
// anyone (podcast apps never sign in) outside /api, at the public paths of
// src/domain/public-urls.ts. Served by sync-server/api/feeds.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';

const tags = ['Feeds'];

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** A file named by an id and an extension ('<playlistId>.xml'); any other name names nothing (404). */
const fileParam = <K extends string>(name: K, ext: string, description: string) =>
  z.object({
    [name]: z
      .string()
      .regex(new RegExp(`^${UUID}\\.${ext}$`))
      .transform((file) => file.slice(0, 36).toLowerCase())
      .meta({ param: { name, in: 'path' }, description, example: `0b7c3c9e-8a57-4a0b-a6a4-5d3c2b1a0f9e.${ext}` }),
  } as Record<K, z.ZodPipe<z.ZodString, z.ZodTransform<string, string>>>);

const ConditionalHeaders = z.object({
  'if-none-match': z.string().max(2000).optional().meta({ description: 'ETags the client holds: 304 when one is current' }),
  'if-modified-since': z.string().max(100).optional().meta({ description: 'An HTTP date: 304 when nothing changed since (ignored when If-None-Match is sent)' }),
});

const notModified = { description: 'Not modified: the ETag or date the client sent is current (no body)' };
const absent = { description: 'No such feed, or none that is public (a Private or deleted playlist, a deleted program); no body' };

export const getFeed = {
  method: 'get',
  path: '/feeds/{feedFile}',
  tags,
  summary: 'A playlist’s podcast feed: RSS 2.0 with the iTunes and Podcasting 2.0 namespaces (strong ETag, Last-Modified, gzip or br)',
  request: { params: fileParam('feedFile', 'xml', 'The playlist’s id followed by .xml'), headers: ConditionalHeaders },
  responses: {
    200: { description: 'The feed', content: { 'application/rss+xml': { schema: z.string().meta({ description: 'RSS 2.0 XML' }) } } },
    304: notModified,
    404: absent,
  },
} as const satisfies RouteConfig;

export const ChaptersSchema = z
  .object({
    version: z.string(),
    chapters: z.array(z.object({ startTime: z.number(), title: z.string(), url: z.string().optional(), img: z.string().optional() })),
  })
  .meta({ id: 'PodcastChapters', description: 'Podcasting 2.0 JSON chapters (application/json+chapters)' });

export const getChapters = {
  method: 'get',
  path: '/feeds/chapters/{chaptersFile}',
  tags,
  summary: 'A published clip’s chapters as Podcasting 2.0 JSON chapters (podcast:chapters of its feed items)',
  request: { params: fileParam('chaptersFile', 'json', 'The clip’s id followed by .json'), headers: ConditionalHeaders },
  responses: {
    200: { description: 'The chapters', content: { 'application/json+chapters': { schema: ChaptersSchema } } },
    304: notModified,
    404: { description: 'No such clip, none a public feed may list, or one without chapters; no body' },
  },
} as const satisfies RouteConfig;
