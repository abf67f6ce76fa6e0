// The Hono application: every route of the API under /api (specification section 7), composed
// with app.route() per resource; errors are thrown (AppError, HTTPException) and mapped to
// responses in the one onError below. createApp takes its dependencies so tests run it on any
// store through app.request, and main.ts serves it over HTTP.
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Store } from './store/store.ts';
import type { ChangeBus } from './bus.ts';
import { AppError, payloadTooLarge } from './errors.ts';
import { advertiseRequestEncodings, compression, decodeRequestBody } from './compress.ts';
import { JSON_BODY_LIMIT_BYTES } from '../src/protocol/errors.ts';
import { sessionRoutes } from './routes/session.ts';
import { contentRoutes } from './routes/content.ts';
import { referenceDataRoutes } from './reference/routes.ts';
import { syncRoutes } from './sync/routes.ts';
import { audioRoutes } from './audio/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { adminRoutes } from './routes/admin.ts';
import { demoDataRoutes } from './demo-data/routes.ts';
import { createJobRunner, type JobRunnerSettings } from './jobs/runner.ts';
import { sessionSweepJobs } from './jobs/session-sweep.ts';

export type AppDeps = {
  store: Store;
  bus: ChangeBus;
  /** The server clock; tests pass a fixed or stepping one. */
  clock?: (() => Date) | undefined;
  /** Mark cookies Secure even when the request URL is http (behind a TLS proxy). */
  secureCookies?: boolean | undefined;
  /** How the app's job runner (`app.jobs`) runs: server.ts starts it, tests drain it. */
  jobs?: JobRunnerSettings | undefined;
};

declare module 'hono' {
  interface ContextVariableMap {
    deps: AppDeps;
  }
}

/**
 * The Hono env of a call the sync server makes to the API in process (a push's mutation over the
 * router): the sync client whose push makes the call, so the route's write records its revision
 * as that client's own. An HTTP request cannot set it: its env is the Node request and response.
 */
export type InProcessEnv = { syncClientId: string };

/** The sync client an in-process call is made for (null for every HTTP request). */
export function syncClientOf(c: Context): string | null {
  const id = (c.env as Partial<InProcessEnv> | undefined)?.syncClientId;
  return typeof id === 'string' ? id : null;
}

export function now(deps: AppDeps): Date {
  return deps.clock ? deps.clock() : new Date();
}

const jsonBodyLimit = bodyLimit({
  maxSize: JSON_BODY_LIMIT_BYTES,
  onError: () => {
    throw payloadTooLarge();
  },
});

export function createApp(deps: AppDeps) {
  const audio = audioRoutes(deps);
  const uploads = uploadRoutes(deps, audio);
  const app = new Hono()
    .use('*', compression())
    .use('*', async (c, next) => {
      c.set('deps', deps);
      await next();
    })
    .use('/api/*', async (c, next) => {
      const type = c.req.header('content-type') ?? '';
      // Only JSON and text bodies are capped here: audio and image uploads stream with their own
      // limits. The cap holds for the body as sent and, when it comes compressed, once decoded.
      try {
        if (type === '' || type.includes('json') || type.startsWith('text/')) await jsonBodyLimit(c, () => decodeRequestBody(c, next));
        else await next();
      } catch (err) {
        // Refused before any route ran (a body too large, not gzip, another coding): answered here
        // (a route's errors are answered where they are thrown), so the offer goes on it too.
        c.res = errorResponse(err, c);
      }
      advertiseRequestEncodings(c.res.headers);
    })
    .route('/api', sessionRoutes())
    .route('/api', contentRoutes())
    .route('/api', adminRoutes())
    .route('/api', demoDataRoutes())
    .route('/api/v1/reference-data', referenceDataRoutes({ clock: deps.clock }))
    .route('/api/sync', syncRoutes(deps))
    .route('/api', audio)
    .route('/api', uploads);

  app.notFound((c) => c.body(null, 404));
  app.onError(errorResponse);
  // The side effects the routes queue (sync-server/jobs), by job kind; not started here.
  const jobs = createJobRunner({ ...deps.jobs, store: deps.store, handlers: { ...audio.jobHandlers, ...uploads.jobHandlers, ...sessionSweepJobs(deps) } });
  return Object.assign(app, { jobs });
}

/** The answer to an error thrown while answering (app.onError, and the /api middleware's own refusals). */
function errorResponse(err: unknown, c: Context): Response {
  if (err instanceof AppError) {
    for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
    if (err.body === undefined) return c.body(null, err.status);
    return c.json(err.body as object, err.status as ContentfulStatusCode);
  }
  if (err instanceof HTTPException) return err.getResponse();
  console.error('Unhandled error on', c.req.method, c.req.path, err);
  return c.body(null, 500);
}

export type AppType = ReturnType<typeof createApp>;
