// Structured logs (pino): one JSON line per event on stdout, for whatever collects an instance's
// output (journald, a container runtime, a log shipper). Every request gets an id, answered in
// X-Request-Id and carried by each line logged while it is answered, so one line of an error finds
// the request that caused it, across the instances behind a load balancer too (an id the balancer
// already gave is kept).
//
// What is never written: cookies, Authorization, the XSRF token, bodies (passwords, profile data),
// and the values of path segments and query parameters that are credentials (a member feed's
// token file, an API key, a signature). Lines name the route's pattern, the path with those
// values replaced, and the user's id, never a session token.
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Metrics } from './metrics.ts';

export type { Logger };

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id (X-Request-Id). */
    requestId: string;
    /** The app's logger bound to this request's id. */
    log: Logger;
  }
}

/** LOG_LEVEL, else info; warn under NODE_ENV=test (the test servers' requests are not news). */
export function defaultLogLevel(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'warn' : 'info');
}

let fallback: Logger | undefined;

/** The app's logger (createApp puts it in deps); for deps made without one (a module's own tests),
 *  one that says warnings and errors, as an app made without a logger does. */
export function logOf(deps: { log?: Logger | undefined }): Logger {
  return deps.log ?? (fallback ??= createLogger({ level: process.env.LOG_LEVEL || 'warn' }));
}

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  const level = options.level ?? defaultLogLevel();
  if (!pino.levels.values[level] && level !== 'silent') throw new Error(`LOG_LEVEL must be one of ${Object.keys(pino.levels.values).join(', ')} or silent (got "${level}")`);
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      // Belt and braces: a caller that logs a whole headers or request object still writes none of these.
      redact: {
        paths: ['headers.cookie', 'headers.authorization', 'headers["x-xsrf-token"]', 'req.headers.cookie', 'req.headers.authorization', 'password', 'Password', 'token', 'apiKey'],
        censor: '[redacted]',
      },
    },
    options.destination,
  );
}

/** An id another hop gave the request, when it looks like one (else a new UUID). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Names of path parameters and query parameters whose values are credentials. */
const SECRET_NAME = /token|secret|signature|password|api[-_]?key|^key$|^code$|^auth/i;

/** The route that answered: the first matched route of a method (middleware is 'ALL'; a route's
 * own middleware and validators carry its method and path; the studio's catch-all file route,
 * '/*', is matched last and answers only what no route took). */
export function routeOf(c: Context): string {
  return matchedRoutes(c).find((r) => r.method !== 'ALL')?.path ?? 'unmatched';
}

/** The request's path and query with every credential's value replaced. */
export function loggedPath(c: Context): string {
  let path = c.req.path;
  const params = c.req.param() as Record<string, string | undefined>;
  for (const [name, value] of Object.entries(params)) {
    if (value && SECRET_NAME.test(name)) path = path.split(`/${value}`).join('/[redacted]');
  }
  const url = new URL(c.req.url);
  if (url.search === '') return path;
  const query = [...url.searchParams.entries()].map(([k, v]) => `${encodeURIComponent(k)}=${SECRET_NAME.test(k) ? '[redacted]' : encodeURIComponent(v)}`).join('&');
  return `${path}?${query}`;
}

/**
 * The first middleware: gives the request its id and a logger bound to it, and when the response
 * head is ready logs one line and counts it in the metrics. (A stream's line is written as it
 * starts: its duration is the time to its head.)
 */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export function requestLogging(log: Logger, metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    const bound = log.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', bound);
    const started = performance.now();
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    const seconds = (performance.now() - started) / 1000;
    const route = routeOf(c);
    metrics.request(c.req.method, route, c.res.status, seconds);
    const userId = c.get('caller')?.user.Id;
    const line = { method: c.req.method, route, path: loggedPath(c), status: c.res.status, ms: Math.round(seconds * 10_000) / 10, ...(userId ? { userId } : {}) };
    if (c.res.status >= 500) bound.error(line, 'request failed');
    // A balancer and an orchestrator ask every second or so: their probes that pass would bury the
    // requests of people (still counted in /metrics; a failed probe is a 503, logged at info).
    else if (PROBES.has(route) && c.res.status === 200) bound.debug(line, 'request');
    else bound.info(line, 'request');
  };
}
