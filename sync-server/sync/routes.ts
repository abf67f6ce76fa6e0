// /api/sync: push (queued named mutations through their server runs), pull (rows by Version) and
// events (server-sent pokes after each commit). Mounted in createApp with one line.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppDeps } from '../app.ts';
import { getAuth, requireSession } from '../auth.ts';
import { AppError, badRequest, malformedJson, zodFieldErrors } from '../errors.ts';
import { POKE_EVENT, PullQuerySchema, PushRequestSchema } from '../../src/protocol/sync.ts';
import { processPush, PushUnauthorized } from './push.ts';
import { pullPage, pullPageParts } from './pull.ts';
import { textPartsResponse } from '../compress.ts';

/** Processed mutation ids are remembered this long. A mutation sent again later still cannot
 * apply twice: its stale base turns it into a merge with its own earlier values (a no-op), a
 * repeated create finds its row (409 → the caller's own row), a repeated delete finds none. */
export const MUTATION_RESULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Seconds between SSE keep-alive comments (proxies close idle streams). */
const KEEPALIVE_MS = 25_000;

export function syncRoutes(deps: AppDeps) {
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
      // Each mutation is checked on its own (processPush): one bad entry is rejected, not the batch.
      const parsed = PushRequestSchema.safeParse(json);
      if (!parsed.success) throw badRequest(zodFieldErrors(parsed.error, json));
      const { clientId, mutations, patches, protocolVersion } = parsed.data;
      const previous = clientQueues.get(clientId) ?? Promise.resolve();
      const run = previous
        .catch(() => undefined)
        .then(() =>
          processPush({
            store: deps.store,
            runs: c.get('mutations'),
            protocolVersion,
            origin: new URL(c.req.url).origin,
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
