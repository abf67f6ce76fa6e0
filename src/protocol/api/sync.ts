// The sync wire (src/protocol/sync.ts) as routes: push (queued named mutations), pull (rows above
// a cursor) and events (a server-sent poke after each commit). Protocol history: sync.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { POKE_EVENT, PULL_NEXT_CURSOR_HEADER, PullQuerySchema, PullResponseSchema, PushRequestSchema, PushResponseSchema } from '../sync.ts';
import { errors, jsonBody, jsonContent, writeErrors } from './common.ts';

const tags = ['Sync'];

export const PushRequest = PushRequestSchema.meta({
  id: 'PushRequest',
  description:
    'mutations: { id, name, args, base, createdAt } each (protocol 2), or the API calls of protocol 1. Each is checked on its own: a bad one is answered rejected with its field errors, the others run.',
});
export const PushResponse = PushResponseSchema.meta({ id: 'PushResponse' });
export const PullResponse = PullResponseSchema.meta({ id: 'PullResponse' });

export const push = {
  method: 'post',
  path: '/sync/push',
  tags,
  summary: 'Runs queued named mutations in order, one result each (applied, merged, conflict or rejected)',
  request: { body: jsonBody(PushRequest) },
  responses: { 200: jsonContent(PushResponse, 'A result for each mutation, in order'), ...writeErrors },
} as const satisfies RouteConfig;

export const pull = {
  method: 'get',
  path: '/sync/pull',
  tags,
  summary: 'The rows the caller may read changed since the cursor, oldest Version first, with tombstones',
  request: { query: PullQuerySchema },
  responses: {
    200: {
      ...jsonContent(PullResponse, 'A page of changes and the cursor of the next'),
      headers: z.object({ [PULL_NEXT_CURSOR_HEADER]: z.string().optional().meta({ description: 'On a page with more after it: its cursor, before the body (ask for the next page at once)' }) }),
    },
    ...errors,
  },
} as const satisfies RouteConfig;

export const events = {
  method: 'get',
  path: '/sync/events',
  tags,
  summary: `Server-sent events: 'ready' once, then '${POKE_EVENT}' { "version": n } after each commit in the organization (time to pull), keep-alive comments between`,
  responses: {
    200: { description: 'An event stream, open until the caller closes it', content: { 'text/event-stream': { schema: z.string() } } },
    ...errors,
  },
} as const satisfies RouteConfig;
