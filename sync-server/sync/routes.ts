// /api/sync: push (queued mutations through the REST API's own operations), pull (rows by Version) and
// events (server-sent pokes after each commit). Mounted in createApp with one line.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppDeps } from '../app.ts';
import { createApp } from '../app.ts';
import { getAuth, ORGANIZATION_HEADER, requireSession, XSRF_HEADER } from '../auth.ts';
import { AppError, badRequest, malformedJson, zodFieldErrors } from '../errors.ts';
import { POKE_EVENT, PullQuerySchema, PUSH_BATCH_MAX, PushRequestSchema } from '../../src/protocol/sync.ts';
import * as z from 'zod';
import { processPush, PushUnauthorized, type Dispatch } from './push.ts';
import { pullPage, pullPageParts } from './pull.ts';
import { textPartsResponse } from '../compress.ts';

/** The push request with its mutations left unchecked: each is checked on its own (processPush),
 * so one bad entry is rejected, not the batch. */
const PushEnvelope = PushRequestSchema.extend({ mutations: z.array(z.unknown()).min(1).max(PUSH_BATCH_MAX) });

/** Processed mutation ids are remembered this long. A mutation sent again later still cannot
 * apply twice: its stale base turns it into a merge with its own earlier values (a no-op), a
 * repeated create finds its row (409 → the caller's own row), a repeated delete finds none. */
export const MUTATION_RESULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Seconds between SSE keep-alive comments (proxies close idle streams). */
const KEEPALIVE_MS = 25_000;

export function syncRoutes(deps: AppDeps) {
  // The mutations run through the API's own handlers: an app instance on the same deps (store,
  // bus, clock), created on first use (createApp mounts these routes, so not at construction).
  let inner: ReturnType<typeof createApp> | null = null;
  const dispatch: Dispatch = async (path, init, env) => (inner ??= createApp(deps)).request(path, init, env);
  // One push at a time per client: a duplicated request waits and then finds the stored results.
  const clientQueues = new Map<string, Promise<unknown>>();
  let prunedAt = 0;
  async function prune(now: Date): Promise<void> {
    if (now.getTime() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now.getTime();
    await deps.store.query(`DELETE FROM sync_mutations WHERE processed_at_utc < $1`, [new Date(now.getTime() - MUTATION_RESULT_RETENTION_MS)]);
  }

  return new Hono()
    .post('/push', requireSession, async (c) => {
      const auth = getAuth(c);
      let json: unknown;
      try {
        json = await c.req.json();
      } catch {
        throw malformedJson();
      }
      const parsed = PushEnvelope.safeParse(json);
      if (!parsed.success) throw badRequest(zodFieldErrors(parsed.error, json));
      const { clientId, mutations, patches } = parsed.data;
      const forward: Record<string, string> = { [ORGANIZATION_HEADER]: auth.organizationId };
      for (const h of ['cookie', 'authorization', XSRF_HEADER]) {
        const v = c.req.header(h);
        if (v !== undefined) forward[h] = v;
      }
      const previous = clientQueues.get(clientId) ?? Promise.resolve();
      const run = previous
        .catch(() => undefined)
        .then(() =>
          processPush({
            store: deps.store,
            dispatch,
            forward,
            auth,
            clientId,
            mutations,
            patches: patches === true,
            now: deps.clock ? deps.clock() : new Date(),
            onCommit: (version) => deps.bus.publish({ organizationId: auth.organizationId, version }),
          }),
        );
      clientQueues.set(clientId, run);
      try {
        const results = await run;
        await prune(deps.clock ? deps.clock() : new Date());
        return c.json({ results });
      } catch (err) {
        if (err instanceof PushUnauthorized) throw new AppError(401);
        throw err;
      } finally {
        if (clientQueues.get(clientId) === run) clientQueues.delete(clientId);
      }
    })
    .get('/pull', requireSession, async (c) => {
      const auth = getAuth(c);
      const raw = { cursor: c.req.query('cursor'), limit: c.req.query('limit') };
      const query = PullQuerySchema.safeParse(raw);
      if (!query.success) throw badRequest(zodFieldErrors(query.error, raw));
      const page = await pullPage(deps.store, {
        organizationId: auth.organizationId,
        userId: auth.user.Id,
        permissions: auth.permissions,
        cursor: query.data.cursor,
        limit: query.data.limit,
      });
      return textPartsResponse(c, pullPageParts(page), 'application/json');
    })
    .get('/events', requireSession, (c) => {
      const { organizationId } = getAuth(c);
      return streamSSE(c, async (stream) => {
        let wake: (() => void) | null = null;
        let latest = 0;
        const unsubscribe = deps.bus.subscribe((change) => {
          if (change.organizationId !== null && change.organizationId !== organizationId) return;
          latest = Math.max(latest, change.version);
          wake?.();
        });
        stream.onAbort(() => wake?.());
        try {
          await stream.writeSSE({ event: 'ready', data: '{}' });
          while (!stream.aborted && !stream.closed) {
            const sent = latest;
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, KEEPALIVE_MS);
            });
            wake = null;
            if (stream.aborted || stream.closed) break;
            if (latest > sent) await stream.writeSSE({ event: POKE_EVENT, data: JSON.stringify({ version: latest }) });
            else await stream.write(': keep-alive\n\n');
          }
        } finally {
          unsubscribe();
        }
      });
    });
}
