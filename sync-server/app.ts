// The Hono application: every route of the API under /api (specification section 7), composed
// with app.route() per resource; errors are thrown (AppError, HTTPException) and mapped to
// responses in the one onError below. createApp takes its dependencies so tests run it on any
// store through app.request, and main.ts serves it over HTTP.
import type { Context } from 'hono';
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Store } from './store/store.ts';
import type { ChangeBus } from './bus.ts';
import { AppError, fieldError, malformedJson } from './errors.ts';
import { advertiseRequestEncodings, compression } from './compress.ts';
import { bodyReader } from './body.ts';
import { publicCors, securityHeaders } from './security-headers.ts';
import { formError } from '../src/domain/form-errors.ts';
import { sessionRoutes } from './api/session.ts';
import { clipRoutes } from './api/clips.ts';
import { programRoutes } from './api/programs.ts';
import { networkRoutes } from './api/networks.ts';
import { playlistRoutes } from './api/playlists.ts';
import { playlistSettingsRoutes } from './api/playlist-settings.ts';
import { recordingRoutes } from './api/recordings.ts';
import { searchRoutes } from './api/search.ts';
import { userRoutes } from './api/users.ts';
import { apiDocsRoutes } from './api/docs.ts';
import { CONTENT_RUNS } from './mutations/content.ts';
import { PLAYLIST_RUNS } from './mutations/playlists.ts';
import { DIRECTORY_RUNS } from './mutations/directories.ts';
import { directoryRoutes } from './api/directories.ts';
import { AD_MARKER_RUNS } from './mutations/ad-markers.ts';
import { adMarkerRoutes } from './api/ad-markers.ts';
import { suggestionJobs } from './audio/suggestions-job.ts';
import { SETTINGS_RUNS } from './mutations/settings.ts';
import { mutationRegistry, type ServerMutation } from './mutations/run.ts';
import { audioMutationRuns } from './audio/mutations.ts';
import { referenceDataRoutes } from './api/reference.ts';
import { syncRoutes } from './api/sync.ts';
import { audioService, type AudioService } from './audio/service.ts';
import { tusUploads } from './uploads/tus.ts';
import { mediaRoutes } from './api/media.ts';
import { uploadRoutes } from './api/uploads.ts';
import { adminRoutes } from './api/admin.ts';
import { enterpriseRoutes } from './api/enterprises.ts';
import { brandSafetyRoutes } from './api/brand-safety.ts';
import { TRANSCRIPT_RUNS } from './mutations/transcripts.ts';
import { brandSafetyJobs } from './brand-safety/job.ts';
import { demoDataRoutes } from './api/demo-data.ts';
import { feedRoutes } from './api/feeds.ts';
import { loudnessRoutes } from './api/loudness.ts';
import { publicTranscriptRoutes, transcriptRoutes } from './api/transcripts.ts';
import { transcriptionRoutes } from './api/transcription.ts';
import { configuredEngine } from './transcription/engine.ts';
import { transcriptionJobs } from './transcription/job.ts';
import { headlinerVideoRoutes } from './api/headliner-videos.ts';
import { headlinerJobs } from './headliner/job.ts';
import { feedItemJobs } from './feeds/feed-items.ts';
import { feedDropRoutes } from './api/feed-drops.ts';
import { memberFeedRoutes, memberRoutes } from './api/members.ts';
import { settingsRoutes } from './api/settings.ts';
import { applePremiumRoutes } from './api/apple-premium.ts';
import { programAudioRoutes } from './api/program-audio.ts';
import { introOutroJobs } from './audio/intro-outro.ts';
import { webhookRoutes } from './api/webhooks.ts';
import { webhookJobs } from './webhooks/jobs.ts';
import { webhookSettings, type WebhookSettings } from './webhooks/webhooks.ts';
import { accountRoutes } from './api/account.ts';
import { accountSecurityRoutes } from './api/account-security.ts';
import { apiKeyRoutes } from './api/api-keys.ts';
import { recordingAgentRoutes } from './api/recording-agents.ts';
import { liveRecordingRoutes } from './api/live-recordings.ts';
import { recordingSummaryRoutes } from './api/recording-summary.ts';
import { productionMemoRoutes } from './api/production-memos.ts';
import { programSettingsRoutes } from './api/program-settings.ts';
import { mfaRoutes } from './api/mfa.ts';
import { supportRoutes } from './api/support.ts';
import { auditRoutes } from './api/audit.ts';
import { sessionsRoutes } from './api/sessions.ts';
import { invitationRoutes } from './api/invitations.ts';
import { userImportRoutes } from './api/user-import.ts';
import { passwordResetJobs } from './accounts/password-resets.ts';
import { accountSettings, type AccountSettings } from './accounts/settings.ts';
import { mailJobs, mailSettings, type MailSettings } from './mail/outbox.ts';
import { createJobRunner, type JobRunnerSettings } from './jobs/runner.ts';
import { sessionSweepJobs } from './jobs/session-sweep.ts';
import { retentionJobs } from './jobs/retention.ts';
import { storeStatisticsJobs } from './jobs/store-statistics.ts';
import { countingJobs } from './analytics/counting.ts';
import { publishingRuns, withScheduledVisibility } from './publishing/publishing.ts';
import { publishingService } from './publishing/service.ts';
import { publicAudioRoutes, publishingRoutes } from './api/publishing.ts';
import { importRoutes } from './api/imports.ts';
import { importService, type ImportSettings } from './imports/service.ts';
import { pageRoutes } from './pages/routes.ts';
import { imageRoutes, publicImageRoutes } from './api/images.ts';
import { imageService, isImageUpload } from './images/service.ts';
import { fetchPolicyFromEnv } from './images/fetch.ts';
import { analyticsRoutes } from './api/analytics-api.ts';
import { analyticsRollupJobs } from './analytics/analytics-rollup.ts';
import { demoListenersJobs } from './analytics/listeners.ts';
import { reachEstimateJobs } from './analytics/reach-estimate.ts';
import { reportJobs } from './reports/report-job.ts';
import { reportRoutes } from './api/reports.ts';
import { analyticsInsightsRoutes } from './api/analytics-insights.ts';
import { billingRoutes } from './api/billing.ts';
import { configRoutes } from './api/config.ts';
import { billingJobs } from './billing/notices.ts';
import { logOf, requestLogging, type Logger } from './observability/log.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { operationsRoutes, type Operations } from './observability/health.ts';
import type { TrustedProxies } from './client-address.ts';
import type { BlobStore } from './audio/blob-store.ts';
import type { LiveStreamOverrides } from './audio/live-ingest.ts';

export type AppDeps = {
  store: Store;
  bus: ChangeBus;
  /** The server clock; tests pass a fixed or stepping one. */
  clock?: (() => Date) | undefined;
  /** Mark cookies Secure even when the request URL is http (behind a TLS proxy). */
  secureCookies?: boolean | undefined;
  /** The load balancers and proxies whose X-Forwarded-For is believed (client-address.ts). */
  trustedProxies?: TrustedProxies | null | undefined;
  /** How the app's job runner (`app.jobs`) runs: server.ts starts it, tests drain it. */
  jobs?: JobRunnerSettings | undefined;
  /** Imports from other hosts: limits, and (tests only) feeds and audio on 127.0.0.1. */
  imports?: ImportSettings | undefined;
  /** Where the structured logs go (default: stdout, warnings and errors only; observability/log.ts). */
  log?: Logger | undefined;
  /** When set, GET /metrics answers only requests that carry it as a bearer token. */
  metricsToken?: string | undefined;
  /** Where audio, waveforms and artwork are kept (default: configuredBlobStore(), from the environment). */
  blobs?: BlobStore | undefined;
  /** Webhooks' delivery (tests: loopback targets, a retry schedule in milliseconds); the rest from the environment. */
  webhooks?: Partial<WebhookSettings> | undefined;
  /** E-mail delivery (tests: an SMTP server on 127.0.0.1, a retry schedule in milliseconds); the rest from the environment (SMTP_URL). */
  mail?: Partial<MailSettings> | undefined;
  /** Account creation (tests: the location rule); the rest from the environment (CASTAWAY_LOCATION_HEADER). */
  accounts?: Partial<AccountSettings> | undefined;
  /** Live streams' lost time (tests: seconds); else from the environment (CASTAWAY_LIVE_STREAM_LOST_MS). */
  live?: LiveStreamOverrides | undefined;
};

declare module 'hono' {
  interface ContextVariableMap {
    deps: AppDeps;
    /** The named mutations' server runs, by name (sync-server/mutations). */
    mutations: ReadonlyMap<string, ServerMutation>;
    /** The app's Prometheus metrics (observability/metrics.ts). */
    metrics: Metrics;
  }
}

export function now(deps: AppDeps): Date {
  return deps.clock ? deps.clock() : new Date();
}

/** Bodies that are files, streamed to storage with limits of their own (sync-server/body.ts). */
function isUpload(method: string, path: string, contentType: string | undefined): boolean {
  if (path.startsWith('/api/internal/uploads') || isImageUpload(method, path)) return true;
  // A recording agent's live stream (PUT or POST, as encoders send): read as it arrives, never whole.
  if ((method === 'PUT' || method === 'POST') && /^\/api\/v1\/programs\/[^/]+\/recordings\/live$/.test(path)) return true;
  if (method !== 'PUT') return false;
  // PUT clip audio takes a file, or (audioUrl) a JSON body that the body reader reads as any other.
  if (/^\/api\/v1\/clips\/[^/]+\/audio$/.test(path)) return !(contentType ?? '').toLowerCase().includes('json');
  // A program's intro or outro (sync-server/api/program-audio.ts; a JSON body is read and refused there: 415).
  if (/^\/api\/v1\/programs\/[^/]+\/settings\/audio\/[^/]+$/.test(path)) return !(contentType ?? '').toLowerCase().includes('json');
  return /^\/api\/internal\/recordings\/[^/]+\/audio$/.test(path);
}

/** Every named mutation's server run, as the app serves them: one list, so that a test mounting a
 * part of the app (tests/audio/server-harness.ts) runs the same ones. */
export function serverMutations(audio: Pick<AudioService, 'blobs' | 'maxUploadBytes' | 'mediaGraceMs'>) {
  return mutationRegistry([...withScheduledVisibility(CONTENT_RUNS), ...publishingRuns, ...PLAYLIST_RUNS, ...DIRECTORY_RUNS, ...AD_MARKER_RUNS, ...TRANSCRIPT_RUNS, ...SETTINGS_RUNS, ...audioMutationRuns(audio.blobs, audio.maxUploadBytes, audio.mediaGraceMs)]);
}

export function createApp(deps: AppDeps) {
  // A server process passes its logger (main.ts: info, a line per request); an app made in a
  // test, a bench or the simulation says only warnings and errors unless LOG_LEVEL asks for more.
  // Modules log through logOf(deps): this logger, or one of that same level. (deps stays the
  // caller's object, not a copy: tests swap its store after the app is made.)
  const log = logOf(deps);
  const audio = audioService(deps, deps.blobs ? { blobs: deps.blobs } : {});
  // The speech-to-text engine CASTAWAY_TRANSCRIPTION_ENGINE names (a wrong name stops start-up).
  const transcriptionEngine = configuredEngine();
  const uploads = tusUploads(deps, audio);
  const imageFetch = fetchPolicyFromEnv();
  const images = imageService(deps, audio.blobs, imageFetch);
  const publishing = publishingService(deps, audio.blobs);
  const mutations = serverMutations(audio);
  const imports = importService(deps, audio, mutations, deps.imports, (target, url) => images.enqueueFetch(target, url));
  const readBody = bodyReader({
    isUpload: (c) => isUpload(c.req.method, c.req.path, c.req.header('content-type')),
    // A transcript file's JSON is read by its own parser, which says at which line it breaks.
    checksOwnStrings: (c) => c.req.path === '/api/sync/push' || /^\/api\/internal\/(clips|recordings)\/[^/]+\/transcript\/import$/.test(c.req.path),
  });
  const metrics = createMetrics(deps.store);
  const ops: Operations = { draining: false };
  const webhooks = webhookSettings(deps.webhooks, deps.jobs?.leaseMs);
  // The root collects the OpenAPI declarations of every resource module mounted on it.
  const root = new OpenAPIHono();
  const app = root
    // First: the request's id and logger, and its line and metrics once its answer is known.
    .use('*', requestLogging(log, metrics))
    .use('*', compression())
    .use('*', securityHeaders())
    .use('*', publicCors())
    .use('*', async (c, next) => {
      c.set('deps', deps);
      c.set('mutations', mutations);
      c.set('metrics', metrics);
      await next();
    })
    .use('/api/*', async (c, next) => {
      // Refused before any route ran (a body too large, not gzip, another coding, a NUL in a
      // query): answered here (a route's errors are answered where they are thrown), so the offer
      // of request encodings goes on it too.
      try {
        await readBody(c, next);
      } catch (err) {
        c.res = errorResponse(err, c);
      }
      advertiseRequestEncodings(c.res.headers);
    })
    .route('/api', sessionRoutes())
    .route('/api', networkRoutes())
    .route('/api', programRoutes())
    // Before the playlist, clip and recording routes: /v1/clips/search is not /v1/clips/{clipId}.
    .route('/api', searchRoutes())
    .route('/api', playlistRoutes())
    .route('/api', playlistSettingsRoutes())
    .route('/api', clipRoutes())
    .route('/api', recordingRoutes())
    .route('/api', userRoutes())
    .route('/api', adminRoutes(audio))
    .route('/api', demoDataRoutes())
    .route('/api', referenceDataRoutes())
    .route('/api', syncRoutes())
    .route('/api', mediaRoutes(audio))
    .route('/api', uploadRoutes(uploads))
    .route('/api', publishingRoutes())
    .route('/', publicAudioRoutes(publishing))
    .route('/api', importRoutes(imports))
    .route('/api', imageRoutes(images, imageFetch))
    .route('/', publicImageRoutes(images));
  // The public pages listeners open (show pages, the embed player): outside /api, no session.
  app.route('/', feedRoutes());
  app.route('/api', feedDropRoutes());
  app.route('/api', adMarkerRoutes(audio.blobs));
  app.route('/api', transcriptRoutes());
  app.route('/api', transcriptionRoutes(audio.blobs, transcriptionEngine));
  app.route('/', publicTranscriptRoutes());
  app.route('/api', loudnessRoutes());
  app.route('/api', brandSafetyRoutes());
  app.route('/api', headlinerVideoRoutes(audio.blobs));
  app.route('/api', memberRoutes());
  app.route('/api', webhookRoutes(webhooks));
  // Before settingsRoutes: its specific settings/playlist-premium-feed-urls wins over settings/{name}.
  app.route('/api', directoryRoutes());
  app.route('/api', settingsRoutes());
  app.route('/api', applePremiumRoutes());
  app.route('/api', enterpriseRoutes());
  app.route('/api', programAudioRoutes(audio));
  app.route('/api', accountRoutes(accountSettings(deps.accounts)));
  app.route('/api', accountSecurityRoutes());
  app.route('/api', apiKeyRoutes());
  app.route('/api', recordingAgentRoutes());
  app.route('/api', programSettingsRoutes());
  app.route('/api', liveRecordingRoutes(audio));
  app.route('/api', recordingSummaryRoutes());
  app.route('/api', productionMemoRoutes());
  app.route('/api', mfaRoutes());
  app.route('/api', supportRoutes());
  app.route('/api', auditRoutes());
  app.route('/api', sessionsRoutes());
  app.route('/api', invitationRoutes(mailSettings(deps.mail)));
  app.route('/api', userImportRoutes());
  app.route('/api', analyticsRoutes());
  app.route('/api', analyticsInsightsRoutes());
  app.route('/api', reportRoutes());
  app.route('/api', billingRoutes());
  app.route('/api', configRoutes({ mail: mailSettings(deps.mail), blobKind: audio.blobs.kind, transcription: transcriptionEngine }));
  app.route('/', memberFeedRoutes(publishing));
  app.route('/', pageRoutes());
  // The side effects the routes queue (sync-server/jobs), by job kind; not started here.
  const onJobError = (err: unknown, job: { id: number; kind: string; attempt: number } | null) =>
    job ? log.error({ err, job }, `job ${job.kind} #${job.id} attempt ${job.attempt} failed`) : log.error({ err }, 'jobs: cannot claim jobs');
  // Webhooks' deliveries wait on other hosts (up to their timeout each): a few at once, in a pool of their own.
  const concurrency = { webhooks: 4, ...deps.jobs?.concurrency };
  const jobs = createJobRunner({ onError: onJobError, onRun: metrics.jobRun, ...deps.jobs, concurrency, store: deps.store, handlers: { ...audio.jobHandlers, ...introOutroJobs(deps, audio.blobs), ...suggestionJobs(deps, audio.blobs), ...brandSafetyJobs(deps), ...transcriptionJobs(deps, audio.blobs, () => transcriptionEngine), ...headlinerJobs(deps, audio.blobs), ...uploads.jobHandlers, ...sessionSweepJobs(deps), ...retentionJobs(deps, mutations), ...storeStatisticsJobs(deps), ...images.jobHandlers, ...imports.jobHandlers, ...publishing.jobHandlers, ...countingJobs(deps), ...analyticsRollupJobs(deps), ...demoListenersJobs(deps), ...reachEstimateJobs(deps), ...reportJobs(deps), ...feedItemJobs(deps), ...webhookJobs(deps, webhooks), ...mailJobs(deps, mailSettings(deps.mail)), ...passwordResetJobs(deps), ...billingJobs(deps) } });
  app.route('/', operationsRoutes({ jobs, ops, metricsToken: deps.metricsToken }));
  app.route('/api', apiDocsRoutes(root));

  app.notFound((c) => c.body(null, 404));
  app.onError(errorResponse);
  // The download events' buffer: written on shutdown too (server.ts).
  // ops: server.ts marks the instance draining when it is told to stop (readiness fails at once).
  return Object.assign(app, { jobs, downloads: publishing.downloads, ops, log });
}

/** The answer to an error thrown while answering (app.onError, and the /api middleware's own refusals). */
function errorResponse(err: unknown, c: Context): Response {
  if (err instanceof AppError) {
    for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
    if (err.body === undefined) return c.body(null, err.status);
    return c.json(err.body as object, err.status as ContentfulStatusCode);
  }
  if (err instanceof HTTPException) {
    // A body of a type the route does not take (the route's media type gate): a 415 naming it.
    if (err.status === 415) return errorResponse(new AppError(415, { Errors: [fieldError('Content-Type', formError('invalid'))] }), c);
    // A JSON body the route's validator could not parse (a route that reads its own body: the push).
    if (err.status === 400) return errorResponse(malformedJson(), c);
    return err.getResponse();
  }
  // The request's logger (its id is in the line and in the answer's X-Request-Id).
  const log = c.get('log') as Logger | undefined;
  if (log) log.error({ err, method: c.req.method, route: c.req.routePath }, 'unhandled error');
  else console.error('Unhandled error on', c.req.method, c.req.path, err);
  return c.body(null, 500);
}

export type AppType = ReturnType<typeof createApp>;
