// /api/sync: push (queued named mutations through their server runs), pull (rows by Version) and
// events (server-sent pokes after each commit).
//
// The push body skips the body reader's string checks (sync-server/app.ts checksOwnStrings): its
// route validates only the envelope; each mutation is read and checked on its own
// (sync/push.ts), so a NUL in one edit is that mutation's rejection, not a 400 for the batch.
import { streamSSE } from 'hono/streaming';
import * as routes from '../../src/protocol/api/sync.ts';
import { POKE_EVENT, PULL_NEXT_CURSOR_HEADER } from '../../src/protocol/sync.ts';
import { now, type AppDeps } from '../app.ts';
import { callerChecks, getAuth, loadCaller, onSessionEnded, type SessionUser } from '../auth.ts';
import { textPartsResponse } from '../compress.ts';
import { processPush } from '../sync/push.ts';
import { pullPage, pullPageParts } from '../sync/pull.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

/** Processed mutation ids are remembered this long. A mutation sent again later still cannot
 * apply twice: its stale base turns it into a merge with its own earlier values (a no-op), a
 * repeated create finds its row (409 → the caller's own row), a repeated delete finds none. */
export const MUTATION_RESULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Seconds between SSE keep-alive comments (proxies close idle streams). */
const KEEPALIVE_MS = 25_000;
/** How old the stream's last look at its credentials may be when it sends a poke. A sign-out on
 * this instance closes the stream at once; one on another instance, an expiry or a revoked key
 * within this time of the next poke, or at the next keep-alive. */
export const SSE_CREDENTIALS_RECHECK_MS = 5_000;

export function syncRoutes() {
  // One batching credentials checker for the app's streams (an app makes its routes once): the
  // streams of one instance look up together.
  let checker: ((caller: SessionUser) => Promise<boolean>) | null = null;
  const stillHolds = (deps: AppDeps) => (checker ??= callerChecks(deps.store, () => now(deps)));
  // One push at a time per client: a duplicated request waits and then finds the stored results.
  const clientQueues = new Map<string, Promise<unknown>>();
  let prunedAt = 0;
  async function prune(deps: AppDeps): Promise<void> {
    const at = now(deps);
    if (at.getTime() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at.getTime();
    await deps.store.query(`DELETE FROM sync_mutations WHERE processed_at_utc < $1`, [new Date(at.getTime() - MUTATION_RESULT_RETENTION_MS)]);
  }

  return resourceApp()
    .openapi(guarded(routes.push, guard.member()), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const { clientId, mutations, patches, protocolVersion } = c.req.valid('json');
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
            now: now(deps),
            onCommit: (version) => deps.bus.publish({ organizationId: auth.organizationId, version }),
          }),
        );
      clientQueues.set(clientId, run);
      const started = performance.now();
      try {
        const results = await run;
        c.get('metrics').push(mutations.length, (performance.now() - started) / 1000);
        await prune(deps);
        return c.json({ results }, 200);
      } finally {
        if (clientQueues.get(clientId) === run) clientQueues.delete(clientId);
      }
    })
    .openapi(guarded(routes.pull, guard.member()), async (c) => {
      const auth = getAuth(c);
      const { cursor, limit } = c.req.valid('query');
      const started = performance.now();
      const page = await pullPage(c.get('deps').store, {
        organizationId: auth.organizationId,
        userId: auth.user.Id,
        permissions: auth.permissions,
        cursor,
        limit,
      });
      c.get('metrics').pull(page.rows.length, (performance.now() - started) / 1000);
      // The page goes out piece by piece (compress.ts), never as one string of the page.
      const res = await textPartsResponse(c, pullPageParts(page), 'application/json');
      // The next page's cursor ahead of the body: the client asks for that page at once.
      if (page.hasMore) res.headers.set(PULL_NEXT_CURSOR_HEADER, page.cursor);
      return res;
    })
    .openapi(guarded(routes.events, guard.member()), async (c) => {
      const deps = c.get('deps');
      const { organizationId } = getAuth(c);
      const caller = (await loadCaller(c))!;
      return streamSSE(c, async (stream) => {
        let wake: (() => void) | null = null;
        let latest = 0;
        // Ended: its session signed out here. The stream then closes, and the device's next
        // request learns it is signed out (a stream that went on poking would keep a signed-out
        // tab pulling, and hear the organization's changes).
        let ended = false;
        let checkedAt = Date.now();
        const unsubscribe = deps.bus.subscribe((change) => {
          if (change.organizationId !== null && change.organizationId !== organizationId) return;
          latest = Math.max(latest, change.version);
          wake?.();
        });
        const stopHearing = onSessionEnded((tokenHash) => {
          if ('tokenHash' in caller && caller.tokenHash === tokenHash) {
            ended = true;
            wake?.();
          }
        });
        const stillValid = async (): Promise<boolean> => {
          if (Date.now() - checkedAt < SSE_CREDENTIALS_RECHECK_MS) return true;
          checkedAt = Date.now();
          return stillHolds(deps)(caller);
        };
        stream.onAbort(() => wake?.());
        const closed = c.get('metrics').sseOpened();
        try {
          await stream.writeSSE({ event: 'ready', data: '{}' });
          while (!stream.aborted && !stream.closed) {
            const sent = latest;
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, KEEPALIVE_MS);
            });
            wake = null;
            if (stream.aborted || stream.closed || ended || !(await stillValid())) break;
            if (latest > sent) await stream.writeSSE({ event: POKE_EVENT, data: JSON.stringify({ version: latest }) });
            else await stream.write(': keep-alive\n\n');
          }
        } finally {
          closed();
          unsubscribe();
          stopHearing();
        }
      });
    });
}
