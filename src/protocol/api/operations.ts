// What an operator's tools call, outside the specification's API: a load balancer's liveness and
// readiness probes and Prometheus's scrape. Served at the root (/healthz, /readyz, /metrics), the
// paths those tools expect by default, and answered without a session.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { jsonContent } from './common.ts';

/** The readiness checks, each 'ok' or why not, in words an operator acts on. */
export const ReadinessSchema = z
  .object({
    Status: z.enum(['ready', 'unready']),
    Checks: z.object({
      Database: z.string().meta({ description: "'ok', or 'unreachable' / 'timed out'" }),
      Migrations: z.string().meta({ description: "'ok', or how many of this build's migrations the database lacks" }),
      Jobs: z.string().meta({ description: "'ok', or 'stopped' / 'cannot claim jobs'" }),
      Shutdown: z.string().meta({ description: "'ok', or 'draining' once the instance was told to stop" }),
    }),
  })
  .meta({ id: 'Readiness' });

export const healthz = {
  method: 'get',
  path: '/healthz',
  tags: ['Operations'],
  summary: 'Liveness: the process is up and answers (no database call); 503 once its embedded database (PGlite) stopped for good, which only a restart mends',
  responses: {
    200: jsonContent(z.object({ Status: z.literal('ok') }).meta({ id: 'Liveness' }), 'The process answers'),
    503: jsonContent(z.object({ Status: z.literal('stopped') }).meta({ id: 'LivenessStopped' }), 'The embedded database stopped: restart the process (the log says why)'),
  },
} as const satisfies RouteConfig;

export const readyz = {
  method: 'get',
  path: '/readyz',
  tags: ['Operations'],
  summary: 'Readiness: the database answers, every migration of this build is applied, the job runner is alive and the instance is not shutting down',
  responses: { 200: jsonContent(ReadinessSchema, 'Ready for traffic'), 503: jsonContent(ReadinessSchema, 'Not ready: the failing checks say why') },
} as const satisfies RouteConfig;

export const metrics = {
  method: 'get',
  path: '/metrics',
  tags: ['Operations'],
  summary:
    'Prometheus metrics (text exposition format): requests by route, push and pull sizes and durations, job queue depth and age, SSE connections, database connections, process figures. With CASTAWAY_METRICS_TOKEN set, only with Authorization: Bearer <that token>',
  responses: {
    200: { description: 'The metrics', content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: z.string().meta({ description: 'Prometheus text format' }) } } },
    401: { description: 'CASTAWAY_METRICS_TOKEN is set and the request does not carry it' },
  },
} as const satisfies RouteConfig;

/** The paths above: served outside /api, and walked by the OpenAPI tests like the API's own. */
export const OPERATIONS_PATHS = [healthz.path, readyz.path, metrics.path] as const;
