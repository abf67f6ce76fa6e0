import 'fake-indexeddb/auto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openLocalDb, type CastawayDb, type SyncStatus } from '../../src/db/db.ts';
import { createWrites } from '../../src/db/writes.ts';
import { refuseWritesWhileFull } from '../../src/db/full-disk.testing.ts';
import { applyPullPage, readStatus } from '../../src/db/sync-store.ts';
import { createSyncEngine, MAX_BACKOFF_MS, pullPageSize, type Transport, type TransportResponse } from './engine.ts';
import * as z from 'zod';
import { parsePullResponse, PullResponseSchema, type Mutation } from '../../src/protocol/sync.ts';
import type { OutboxEntry } from '../../src/db/db.ts';
import { MIN_COMPRESS_BYTES } from '../../src/protocol/errors.ts';

const ORG = '00000000-0000-4000-8000-000000000001';
const CLIP = '00000000-0000-4000-8000-000000000003';

const CLIP_2 = '00000000-0000-4000-8000-000000000004';

/** The server's copy of a clip, as a pull stores it. */
function pullClip(d: CastawayDb, id: string, title: string, version: number) {
  const row = { Id: id, OrganizationId: ORG, Title: title, ModifiedAtUtc: '2026-01-01T00:00:00.000Z', Version: version };
  return applyPullPage(d, { cursor: 'c', rows: [{ entity: 'clips', row }], tombstones: [], hasMore: false, rebuild: false, permissions: [] });
}

async function dbWithEdit(now?: () => number) {
  const d = openLocalDb(`engine-${Date.now()}-${Math.random()}`);
  await pullClip(d, CLIP, 'Pilot', 1);
  await createWrites(d, now ? { now } : {}).updateClip(CLIP, { Title: 'Offline' });
  return d;
}

const answer = (status: number, body: unknown): TransportResponse => ({
  status,
  json: async () => body,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});
const EMPTY_PULL = { cursor: 'c2', rows: [], tombstones: [], hasMore: false, rebuild: false, permissions: [] };

/** A server that hands out XSRF tokens t1, t2, … and answers pushes with `onPush` (the token sent
 * and the mutations); pulls bring nothing new. */
function fakeServer(onPush: (token: string | undefined, mutations: Mutation[]) => TransportResponse) {
  const log = { tokens: 0, pushes: [] as Array<{ token: string | undefined; ids: string[] }> };
  const transport: Transport = async (url, init) => {
    if (url.includes('/xsrf')) return answer(200, { XsrfToken: `t${++log.tokens}` });
    if (url.includes('/sync/pull')) return answer(200, EMPTY_PULL);
    // This server never says it takes gzip (no Accept-Encoding on its answers): bodies come as text.
    if (typeof init.body !== 'string') throw new Error('a compressed push to a server that never offered to take one');
    const { mutations } = JSON.parse(init.body) as { mutations: Mutation[] };
    const token = init.headers['x-xsrf-token'];
    log.pushes.push({ token, ids: mutations.map((m) => m.id) });
    return onPush(token, mutations);
  };
  return { transport, log };
}
/** Engine timer options in which only the request timeout (`ms`) is a real timer: retries are not
 * scheduled, the test calls flush(). */
const onlyRequestTimer = (ms: number) => ({
  requestTimeoutMs: ms,
  setTimer: (fn: () => void, delay: number) => (delay === ms ? setTimeout(fn, delay) : null),
  clearTimer: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
});
const applied = (mutations: Mutation[]) => answer(200, { results: mutations.map((m) => ({ mutationId: m.id, status: 'applied', row: null })) });

describe('sync engine', () => {
  it('offline: retries back off exponentially, capped at 30 s, and the edit stays queued', async () => {
    const d = await dbWithEdit();
    const delays: number[] = [];
    let pending: (() => void) | null = null;
    const offline: Transport = async () => {
      throw new TypeError('Failed to fetch');
    };
    const engine = createSyncEngine({
      db: d,
      organizationId: ORG,
      transport: offline,
      requestTimeoutMs: 12_345,
      random: () => 1,
      setTimer: (fn, ms) => {
        if (ms !== 12_345) {
          delays.push(ms);
          pending = fn;
        }
        return ms;
      },
      clearTimer: () => undefined,
    });
    await engine.flush();
    for (let i = 0; i < 12; i++) {
      const fire = pending as (() => void) | null;
      pending = null;
      fire?.();
      await engine.idle();
    }
    expect(delays.slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    expect(Math.max(...delays)).toBe(MAX_BACKOFF_MS);
    expect(await d.outbox.count()).toBe(1);
    expect(await readStatus(d)).toMatchObject({ online: false, pendingCount: 1 });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Offline');
    engine.stop();
  });

  it('a 401 after an offline spell pauses the sync for sign-in and says online: the server answered', async () => {
    const d = await dbWithEdit();
    let networkUp = false;
    const transport: Transport = async () => {
      if (!networkUp) throw new TypeError('Failed to fetch');
      return { status: 401, json: async () => null };
    };
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: () => null, clearTimer: () => undefined });
    await engine.flush();
    expect(await readStatus(d)).toMatchObject({ online: false, paused: null, pendingCount: 1 });
    networkUp = true;
    await engine.nudge();
    expect(await readStatus(d)).toMatchObject({ online: true, paused: 'auth', pendingCount: 1 });
    engine.stop();
  });

  it('five server errors in a row (503, a push cut off, one change failing with 500, no progress) retry with a growing, capped, jittered backoff; the edit lands, never in needs attention', async () => {
    const d = await dbWithEdit();
    let clock = 1_000_000;
    const delays: number[] = [];
    let fire: (() => void) | null = null;
    const statuses: SyncStatus[] = [];
    // The server's answers to the pushes, in order: five failures of different kinds, then it works.
    const failures: Array<(mutations: Mutation[]) => TransportResponse> = [
      () => answer(503, { Errors: [] }),
      () => {
        throw new TypeError('network error: the connection was reset');
      },
      (ms) => answer(200, { results: ms.map((x) => ({ mutationId: x.id, status: 'rejected', httpStatus: 500, errors: [] })) }),
      () => answer(200, { results: [] }),
      () => answer(502, undefined),
    ];
    const { transport, log } = fakeServer((_token, mutations) => (failures.shift() ?? applied)(mutations));
    let jitter = 0;
    const engine = createSyncEngine({
      db: d,
      organizationId: ORG,
      transport,
      now: () => clock,
      maxBackoffMs: 4_000,
      // The jitter: each delay lies in the upper half of its step, drawn at random.
      random: () => [0, 1, 0.5, 0.25, 1][jitter++ % 5]!,
      setTimer: (fn, ms) => {
        if (ms === 30_000) return null; // the request timeout
        delays.push(ms);
        fire = fn;
        return ms;
      },
      clearTimer: () => undefined,
      onStatus: (s) => statuses.push(s),
    });
    await engine.flush();
    for (let i = 0; i < 5; i++) {
      expect(await d.needsAttention.count()).toBe(0);
      expect(await d.outbox.count()).toBe(1);
      const next = fire as (() => void) | null;
      fire = null;
      clock += delays.at(-1)!;
      next?.();
      await engine.idle();
    }
    // 500 · 2^n, capped at 4 s, each between half and all of its step.
    expect(delays).toEqual([250, 1000, 1500, 2500, 4000]);
    expect(log.pushes).toHaveLength(6);
    expect(await d.outbox.count()).toBe(0);
    expect(await d.needsAttention.count()).toBe(0);
    // Meanwhile the badge could say the server was unavailable and when it would be tried again.
    expect(statuses[0]).toMatchObject({ online: true, serverError: 503, retryAt: 1_000_250, pendingCount: 1 });
    expect(statuses[1]).toMatchObject({ online: false, serverError: null, pendingCount: 1 });
    expect(statuses[2]).toMatchObject({ online: true, serverError: 500, pendingCount: 1 });
    expect(statuses.at(-1)).toMatchObject({ online: true, serverError: null, retryAt: null, pendingCount: 0, needsAttentionCount: 0 });
    engine.stop();
  });

  it('a refusal (422 of one change) still goes to needs attention at once, with no retry', async () => {
    const d = await dbWithEdit();
    const { transport, log } = fakeServer((_t, ms) => answer(200, { results: ms.map((x) => ({ mutationId: x.id, status: 'rejected', httpStatus: 422, errors: [{ Field: 'Title', Code: 'invalid', Message: 'No' }] })) }));
    const delays: number[] = [];
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: (_fn, ms) => (ms === 30_000 ? null : delays.push(ms)), clearTimer: () => undefined });
    await engine.flush();
    expect(log.pushes).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(await d.outbox.count()).toBe(0);
    expect(await d.needsAttention.toArray()).toMatchObject([{ httpStatus: 422 }]);
    engine.stop();
  });
});

describe('a push refused with 403', () => {
  it('with a stale XSRF token (403, no body): a fresh token, the same batch again, and it goes out', async () => {
    const d = await dbWithEdit();
    const { transport, log } = fakeServer((token, mutations) => (token === 't1' ? answer(403, undefined) : applied(mutations)));
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: () => null, clearTimer: () => undefined });
    await engine.flush();
    expect(log.pushes.map((p) => p.token)).toEqual(['t1', 't2']);
    expect(await d.outbox.count()).toBe(0);
    expect(await d.needsAttention.count()).toBe(0);
  });

  it('still refused with a fresh token: that change needs attention with the server’s reason, the others go out', async () => {
    const d = await dbWithEdit();
    await pullClip(d, CLIP_2, 'Second', 2);
    await createWrites(d).updateClip(CLIP_2, { Title: 'Second, edited' });
    const [refused] = await d.outbox.orderBy('seq').toArray();
    const reason = { Field: '', Code: 'forbidden', Message: 'Edits to this clip are locked by your organization' };
    const { transport, log } = fakeServer((_token, mutations) => (mutations.some((m) => m.id === refused!.id) ? answer(403, { Errors: [reason] }) : applied(mutations)));
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: () => null, clearTimer: () => undefined });
    await engine.flush();
    expect(await d.outbox.count()).toBe(0);
    const items = await d.needsAttention.toArray();
    expect(items).toEqual([expect.objectContaining({ id: refused!.id, entityId: CLIP, httpStatus: 403, errors: [reason] })]);
    // The refused edit is undone locally; the other one was sent and is kept.
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Pilot');
    expect(log.pushes.some((p) => p.ids.length === 1 && p.ids[0] !== refused!.id)).toBe(true);
    expect(await readStatus(d)).toMatchObject({ pendingCount: 0, needsAttentionCount: 1, lastError: null });
  });

  it('a 403 without a body that a fresh token does not cure is not retried forever', async () => {
    const d = await dbWithEdit();
    const { transport, log } = fakeServer(() => answer(403, undefined));
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: () => null, clearTimer: () => undefined });
    await engine.flush();
    expect(log.pushes).toHaveLength(2);
    expect(await d.outbox.count()).toBe(0);
    expect(await d.needsAttention.toArray()).toEqual([expect.objectContaining({ entityId: CLIP, httpStatus: 403, errors: [] })]);
  });
});

describe('the status', () => {
  it('the last successful sync survives a restart, even one that starts offline', async () => {
    const d = await dbWithEdit();
    const { transport } = fakeServer((_t, mutations) => applied(mutations));
    const first = createSyncEngine({ db: d, organizationId: ORG, transport, now: () => 1_000_000, setTimer: () => null, clearTimer: () => undefined });
    await first.flush();
    expect(await readStatus(d)).toMatchObject({ lastSyncedAt: 1_000_000 });
    first.stop();
    const offline: Transport = async () => {
      throw new TypeError('Failed to fetch');
    };
    const second = createSyncEngine({ db: d, organizationId: ORG, transport: offline, now: () => 5_000_000, setTimer: () => null, clearTimer: () => undefined });
    expect(await second.status()).toMatchObject({ lastSyncedAt: 1_000_000 });
    await second.flush();
    expect(await readStatus(d)).toMatchObject({ online: false, lastSyncedAt: 1_000_000 });
    second.stop();
  });

  it('the age of the oldest pending edit is read from the outbox, not frozen when the status was written', async () => {
    const d = await dbWithEdit(() => 2_000_000);
    const offline: Transport = async () => {
      throw new TypeError('Failed to fetch');
    };
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport: offline, now: () => 2_000_500, setTimer: () => null, clearTimer: () => undefined });
    await engine.flush();
    engine.stop();
    // Read an hour later, with no status written since.
    expect(await readStatus(d, 2_000_000 + 3_600_000)).toMatchObject({ pendingCount: 1, oldestPendingAgeMs: 3_600_000 });
  });
});

describe('a full disk', () => {
  it('says storage full (and online: the server answered, after an offline spell), still resolves the flush, retries, and stores the pulled change once space is freed', async () => {
    const d = openLocalDb(`engine-full-${Date.now()}-${Math.random()}`);
    const { full } = refuseWritesWhileFull(d);
    await pullClip(d, CLIP, 'Pilot', 1);
    const theirs = { Id: CLIP, OrganizationId: ORG, Title: 'From the server', ModifiedAtUtc: '2026-01-02T00:00:00.000Z', Version: 2 };
    let network = false;
    const transport: Transport = async (url) => {
      if (!network) throw new TypeError('Failed to fetch');
      if (url.includes('/xsrf')) return answer(200, { XsrfToken: 't' });
      return answer(200, { ...EMPTY_PULL, rows: [{ entity: 'clips', row: theirs }] });
    };
    const statuses: Array<SyncStatus & { stored: boolean }> = [];
    const retries: number[] = [];
    const engine = createSyncEngine({
      db: d,
      organizationId: ORG,
      transport,
      requestTimeoutMs: 12_345,
      random: () => 1,
      onStatus: (status, stored) => statuses.push({ ...status, stored }),
      setTimer: (_fn, ms) => {
        if (ms !== 12_345) retries.push(ms);
        return ms;
      },
      clearTimer: () => undefined,
    });
    await engine.flush();
    expect(statuses.at(-1)).toMatchObject({ storageFull: false, online: false, stored: true });

    network = true;
    full.now = true;
    await engine.nudge();
    // The store refused this status: onStatus is the only way it reaches the screens.
    expect(statuses.at(-1)).toMatchObject({ storageFull: true, online: true, stored: false });
    expect(retries).toEqual([500, 500]);
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Pilot');

    full.now = false;
    await engine.nudge();
    expect(statuses.at(-1)).toMatchObject({ storageFull: false, online: true, lastError: null, stored: true });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('From the server');
    expect(await readStatus(d)).toMatchObject({ storageFull: false });
    engine.stop();
  });
});

describe('pokes', () => {
  /** A server whose writes so far reach Version `version`: each pull brings the device up to it
   * (upToVersion, unless `says` is false: a server of an earlier release). `onPush` runs while a
   * push is on its way, before it is answered. */
  function pokingServer(options: { says?: boolean; onPush?: () => void | Promise<void> } = {}) {
    const server = { version: 10, pulls: 0, pushes: 0 };
    const transport: Transport = async (url, init) => {
      if (url.includes('/xsrf')) return answer(200, { XsrfToken: 't' });
      if (url.includes('/sync/pull')) {
        server.pulls++;
        return answer(200, { ...EMPTY_PULL, cursor: `${server.version}.fp`, ...(options.says === false ? {} : { upToVersion: server.version }) });
      }
      server.pushes++;
      const { mutations } = JSON.parse(init.body as string) as { mutations: Mutation[] };
      server.version++;
      await options.onPush?.();
      return applied(mutations);
    };
    return { server, transport };
  }
  const engineOn = (d: CastawayDb, transport: Transport) => createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: () => null, clearTimer: () => undefined });

  it('a poke for a Version the device has already pulled starts no pull; a newer one pulls once', async () => {
    const d = openLocalDb(`engine-${Date.now()}-${Math.random()}`);
    const { server, transport } = pokingServer();
    const engine = engineOn(d, transport);
    await engine.flush();
    expect(server.pulls).toBe(1);
    await engine.nudge(10);
    await engine.nudge(9);
    expect(server.pulls).toBe(1);
    server.version = 12;
    await engine.nudge(12);
    expect(server.pulls).toBe(2);
    engine.stop();
  });

  it('the poke of its own push, arriving before the push is answered, costs no second pull', async () => {
    const d = openLocalDb(`engine-${Date.now()}-${Math.random()}`);
    await pullClip(d, CLIP, 'Pilot', 1);
    let engine: ReturnType<typeof createSyncEngine> | null = null;
    let poke: Promise<void> | null = null;
    const { server, transport } = pokingServer({ onPush: () => void (poke = engine!.nudge(server.version)) });
    engine = engineOn(d, transport);
    await engine.flush();
    expect(server).toMatchObject({ pushes: 0, pulls: 1 });
    await createWrites(d).updateClip(CLIP, { Title: 'Edited' });
    await engine.flush();
    await poke;
    // The flush pulled once after its push, and that pull brought Version 11: nothing more.
    expect(server).toMatchObject({ pushes: 1, pulls: 2, version: 11 });
    expect(await d.outbox.count()).toBe(0);
    engine.stop();
  });

  it('a poke newer than what the running flush pulled goes round again, once', async () => {
    const d = await dbWithEdit();
    const { server, transport } = pokingServer();
    const engine = engineOn(d, transport);
    await engine.flush(); // the first cycle: the server now says how far its pulls reach
    expect(server).toMatchObject({ pushes: 1, pulls: 1 });
    await createWrites(d).updateClip(CLIP, { Title: 'Again' });
    // Someone else writes (Version 13) while this device's flush is past its pull.
    const flushing = engine.flush();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const during = (async () => {
      while (server.pulls < 2) await new Promise((resolve) => setTimeout(resolve, 1));
      server.version = 13;
      await engine.nudge(13);
    })();
    await Promise.all([flushing, during]);
    await engine.idle();
    expect(server).toMatchObject({ pushes: 2, pulls: 3 });
    engine.stop();
  });

  it('from a server that does not say how far its pulls reach, every poke pulls', async () => {
    const d = openLocalDb(`engine-${Date.now()}-${Math.random()}`);
    const { server, transport } = pokingServer({ says: false });
    const engine = engineOn(d, transport);
    await engine.flush();
    await engine.nudge(10);
    await engine.nudge(10);
    expect(server.pulls).toBe(3);
    engine.stop();
  });

  it('a poke while a retry waits (the network is back) sends the queued edit at once, whatever its Version', async () => {
    const d = await dbWithEdit();
    let up = true;
    const { server, transport: serve } = pokingServer();
    const transport: Transport = async (url, init) => {
      if (!up) throw new TypeError('Failed to fetch');
      return serve(url, init);
    };
    const timers: Array<() => void> = [];
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: (fn) => timers.push(fn), clearTimer: () => undefined });
    await engine.flush();
    await createWrites(d).updateClip(CLIP, { Title: 'In the tunnel' });
    up = false;
    await engine.flush();
    expect(await d.outbox.count()).toBe(1);
    up = true;
    await engine.nudge(5);
    expect(await d.outbox.count()).toBe(0);
    expect(server.pushes).toBe(2);
    engine.stop();
  });
});

describe('pull page sizes', () => {
  it('start at 250 rows and grow fourfold up to 2,500 (half the server maximum: the last page is stored alone)', () => {
    expect([0, 1, 2, 3, 4, 50, 10_000].map((p) => pullPageSize(p))).toEqual([250, 1000, 2500, 2500, 2500, 2500, 2500]);
  });
});

describe('a pulled page', () => {
  const page = () => ({
    cursor: '7.fp',
    rows: [{ entity: 'clips', row: { Id: CLIP, Title: 'Pilot', Tags: ['news'], Version: 7 } }],
    tombstones: [{ entity: 'clips', id: CLIP_2 }],
    hasMore: false,
    rebuild: false,
    permissions: [{ ObjectType: null, ObjectId: null, Permissions: { HasContentAccess: true } }],
  });

  it('reads as the wire schema reads it, its rows kept as they came rather than copied', () => {
    const json = page();
    const parsed = parsePullResponse(json);
    expect(parsed).toEqual(PullResponseSchema.parse(page()));
    expect(parsed.rows[0]!.row).toBe(json.rows[0]!.row);
  });

  it('with a row or a field the wire schema refuses, fails as the schema does', () => {
    const rows = [{ entity: 'clips', row: { Title: 'no Id' } }, { entity: 'clips', row: { Id: 7 } }, { entity: 'clips', row: [CLIP] }, { entity: 'reels', row: { Id: CLIP } }, null];
    const pages: unknown[] = [...rows.map((row) => ({ ...page(), rows: [row] })), { ...page(), cursor: 7 }, { ...page(), rows: null }, null];
    for (const json of pages) {
      expect(() => PullResponseSchema.parse(json)).toThrow(z.ZodError);
      expect(() => parsePullResponse(json)).toThrow(z.ZodError);
    }
  });
});

describe('how much a push carries', () => {
  async function dbWithEdits(n: number) {
    const d = openLocalDb(`engine-sizes-${Date.now()}-${Math.random()}`);
    await pullClip(d, CLIP, 'Pilot', 1);
    const writes = createWrites(d);
    for (let i = 0; i < n; i++) await writes.updateClip(CLIP, { Title: `Take ${i}` });
    return { d, writes };
  }

  /** A link on which a push of n mutations takes `takes(n)` ms of the test's clock; requests time
   * out after 40 ms (the transport fires the engine's timeout itself). Retries are not scheduled:
   * the test calls flush(). */
  function clockedLink(takes: (n: number) => number) {
    let clock = 0;
    let timeout: { fire: () => void } | null = null;
    const sizes: number[] = [];
    const transport: Transport = async (url, init) => {
      if (url.includes('/xsrf')) return answer(200, { XsrfToken: 't' });
      if (url.includes('/sync/pull')) return answer(200, EMPTY_PULL);
      // This server never says it takes gzip (no Accept-Encoding on its answers): bodies come as text.
      if (typeof init.body !== 'string') throw new Error('a compressed push to a server that never offered to take one');
      const { mutations } = JSON.parse(init.body) as { mutations: Mutation[] };
      sizes.push(mutations.length);
      const ms = takes(mutations.length);
      clock += Math.min(ms, 40);
      if (ms > 40) {
        timeout?.fire();
        throw new DOMException('The operation was aborted.', 'AbortError');
      }
      return applied(mutations);
    };
    const options = {
      transport,
      batchSize: 16,
      requestTimeoutMs: 40,
      now: () => clock,
      setTimer: (fn: () => void, ms: number) => (ms === 40 ? (timeout = { fire: fn }) : null),
      clearTimer: (h: unknown) => {
        if (h === timeout) timeout = null;
      },
    };
    return { sizes, options };
  }

  it('on a slow link a push that times out halves the next; answers that come quickly double it back', async () => {
    const { d, writes } = await dbWithEdits(30);
    let msPer = 5;
    const { sizes, options } = clockedLink((n) => n * msPer);
    const engine = createSyncEngine({ db: d, organizationId: ORG, ...options });
    await engine.flush();
    expect(sizes).toEqual([16]);
    expect(await readStatus(d)).toMatchObject({ online: false, pendingCount: 30, lastError: 'POST /api/sync/push: nothing arrived for 40 ms' });
    await engine.flush();
    // 8 take the whole 40 ms: answered, but too slowly to try 16 again.
    expect(sizes).toEqual([16, 8, 8, 8, 6]);
    expect(await readStatus(d)).toMatchObject({ online: true, pendingCount: 0, lastError: null });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Take 29');

    msPer = 0.5; // the link recovers
    sizes.length = 0;
    for (let i = 0; i < 40; i++) await writes.updateClip(CLIP, { Title: `Later ${i}` });
    await engine.flush();
    expect(sizes).toEqual([8, 16, 16]);
    engine.stop();
  });

  it('a tunnel that drops a push of a few edits does not shrink the pushes after it below 8', async () => {
    const { d, writes } = await dbWithEdits(3);
    let tunnel = true;
    const { sizes, options } = clockedLink(() => (tunnel ? Infinity : 0));
    const engine = createSyncEngine({ db: d, organizationId: ORG, ...options });
    await engine.flush();
    tunnel = false;
    for (let i = 0; i < 20; i++) await writes.updateClip(CLIP, { Title: `After the tunnel ${i}` });
    await engine.flush();
    expect(sizes).toEqual([3, 8, 15]);
    engine.stop();
  });

  it('a server of an earlier release that takes fewer mutations a push (400 naming mutations): pushes halve until it takes them', async () => {
    const { d } = await dbWithEdits(13);
    const { transport, log } = fakeServer((_, mutations) =>
      mutations.length > 4
        ? answer(400, { Errors: [{ Field: 'mutations', Code: 'invalid', Message: 'Too big: expected array to have <=4 items' }] })
        : applied(mutations),
    );
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, batchSize: 16, setTimer: () => null, clearTimer: () => undefined });
    await engine.flush();
    expect(log.pushes.map((p) => p.ids.length)).toEqual([13, 7, 4, 4, 4, 1]);
    expect(await readStatus(d)).toMatchObject({ pendingCount: 0, needsAttentionCount: 0, lastError: null });
    engine.stop();
  });

  it('an answer stalled halfway is a timeout, however the transport reads bodies', async () => {
    for (const reads of ['stream', 'text', 'json'] as const) {
      const { d } = await dbWithEdits(1);
      const transport: Transport = async (url, init) => {
        if (url.includes('/xsrf')) return answer(200, { XsrfToken: 't' });
        const stalled = () => new Promise<never>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
        if (reads === 'stream') {
          // Half an answer, then nothing: the stream errors when the request is aborted.
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"results":['));
              init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
            },
          });
          return { status: 200, json: stalled, body };
        }
        return reads === 'text' ? { status: 200, json: stalled, text: stalled } : { status: 200, json: stalled };
      };
      const engine = createSyncEngine({ db: d, organizationId: ORG, transport, ...onlyRequestTimer(30) });
      await engine.flush();
      expect(await readStatus(d), reads).toMatchObject({ online: false, pendingCount: 1, lastError: 'POST /api/sync/push: nothing arrived for 30 ms' });
      engine.stop();
    }
  });

  it('a slow answer that keeps arriving is read to the end, however long it takes in all', async () => {
    const { d } = await dbWithEdits(1);
    const [m] = (await d.outbox.toArray()) as [OutboxEntry];
    const text = JSON.stringify({ results: [{ mutationId: m.id, status: 'applied', row: null }] });
    const transport: Transport = async (url, init) => {
      if (url.includes('/xsrf')) return answer(200, { XsrfToken: 't' });
      if (url.includes('/sync/pull')) return answer(200, EMPTY_PULL);
      // Five bytes every 10 ms against a 100 ms timeout: over 200 ms in all. As with fetch, aborting
      // the request errors the body.
      const bytes = new TextEncoder().encode(text);
      let at = 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
        async pull(controller) {
          await new Promise((r) => setTimeout(r, 10));
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, at + 5));
          at += 5;
        },
      });
      return { status: 200, json: async () => JSON.parse(text), body };
    };
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, ...onlyRequestTimer(100) });
    await engine.flush();
    expect(text.length).toBeGreaterThan(90);
    expect(await readStatus(d)).toMatchObject({ online: true, pendingCount: 0, lastError: null });
    engine.stop();
  });
});

describe('pushes sent compressed', () => {
  /** A server whose answers say it takes gzip bodies (`offers`), and which refuses them with a
   *  415 while `refuses` says so (a proxy on the way). Records each push as it came. */
  function gzipServer(options: { offers: boolean; refuses?: () => boolean; earlierReleaseTakesPushes?: boolean }) {
    const pushes: Array<{ encoding: string | undefined; sentBytes: number; jsonBytes?: number; ids: string[] }> = [];
    const headers = { get: (name: string) => (options.offers && name.toLowerCase() === 'accept-encoding' ? 'gzip' : null) };
    const withOffer = (res: TransportResponse): TransportResponse => ({ ...res, headers });
    const transport: Transport = async (url, init) => {
      if (url.includes('/xsrf')) return withOffer(answer(200, { XsrfToken: 't1' }));
      if (url.includes('/sync/pull')) return withOffer(answer(200, EMPTY_PULL));
      const encoding = init.headers['content-encoding'];
      const sent = init.body!;
      if (encoding === 'gzip' && options.refuses?.()) {
        pushes.push({ encoding, sentBytes: (sent as Uint8Array).byteLength, ids: [] });
        return withOffer(answer(415, { Errors: [{ Field: 'Content-Encoding', Code: 'invalid', Message: 'unsupported' }] }));
      }
      if (options.earlierReleaseTakesPushes) {
        // A balancer in a rolling deploy sends pushes to a server of an earlier release: it reads
        // the bytes as JSON (a 400 for the whole body) and offers nothing.
        if (encoding === 'gzip') {
          pushes.push({ encoding, sentBytes: (sent as Uint8Array).byteLength, ids: [] });
          return answer(400, { Errors: [{ Field: '', Code: 'malformedJson', Message: 'The value is not valid' }] });
        }
        const { mutations } = JSON.parse(sent as string) as { mutations: Mutation[] };
        pushes.push({ encoding, sentBytes: (sent as string).length, ids: mutations.map((m) => m.id) });
        return applied(mutations);
      }
      const text = typeof sent === 'string' ? sent : gunzipSync(sent).toString('utf8');
      if (typeof sent !== 'string') expect(encoding).toBe('gzip');
      const { mutations } = JSON.parse(text) as { mutations: Mutation[] };
      const jsonBytes = new TextEncoder().encode(text).byteLength;
      pushes.push({ encoding, sentBytes: typeof sent === 'string' ? jsonBytes : sent.byteLength, jsonBytes, ids: mutations.map((m) => m.id) });
      return withOffer(applied(mutations));
    };
    return { transport, pushes };
  }
  async function tenEdits() {
    const d = openLocalDb(`engine-gzip-${Date.now()}-${Math.random()}`);
    const writes = createWrites(d);
    for (let i = 0; i < 10; i++) {
      const id = `00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`;
      await pullClip(d, id, `Clip ${i}`, i + 1);
      await writes.updateClip(id, { Title: `Renamed on the train ${i}`, Description: `Notes for episode ${i}: guests, timings and the sponsor read.` });
    }
    return d;
  }
  /** Ten edits flushed to a gzipServer with `options`: the device's store, the pushes as they came. */
  async function flushTenEdits(options: Parameters<typeof gzipServer>[0]) {
    const d = await tenEdits();
    const { transport, pushes } = gzipServer(options);
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport, setTimer: () => null, clearTimer: () => undefined });
    await engine.flush();
    expect(await d.outbox.count()).toBe(0);
    expect(await d.needsAttention.count()).toBe(0);
    return { d, engine, pushes };
  }

  it('go gzip-compressed once the server has said it takes them, several times smaller; a push under 1 KB goes as it is', async () => {
    const { d, engine, pushes } = await flushTenEdits({ offers: true });
    // The XSRF token's answer already said so: the first push of ten edits is compressed.
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ encoding: 'gzip' });
    expect(pushes[0]!.ids).toHaveLength(10);
    expect(pushes[0]!.jsonBytes).toBeGreaterThan(MIN_COMPRESS_BYTES);
    expect(pushes[0]!.sentBytes).toBeLessThan(pushes[0]!.jsonBytes! / 2);

    await createWrites(d).updateClip('00000000-0000-4000-8000-000000000100', { Title: 'One small edit' });
    await engine.flush();
    expect(pushes[1]).toMatchObject({ encoding: undefined, ids: [expect.any(String)] });
    expect(pushes[1]!.sentBytes).toBeLessThan(MIN_COMPRESS_BYTES);
  });

  it('are sent as they are to a server that never says it takes them', async () => {
    const { pushes } = await flushTenEdits({ offers: false });
    expect(pushes.map((p) => p.encoding)).toEqual([undefined]);
    expect(pushes[0]!.sentBytes).toBeGreaterThan(MIN_COMPRESS_BYTES);
  });

  it('a 415 (something on the way refuses them) sends the same push again as it is, and later pushes too', async () => {
    const { d, engine, pushes } = await flushTenEdits({ offers: true, refuses: () => true });
    expect(pushes.map((p) => [p.encoding, p.ids.length])).toEqual([
      ['gzip', 0],
      [undefined, 10],
    ]);
    for (let i = 0; i < 10; i++) await createWrites(d).updateClip(`00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`, { Title: `Again ${i}` });
    await engine.flush();
    expect(pushes.slice(2).map((p) => [p.encoding, p.ids.length])).toEqual([[undefined, 10]]);
  });

  it('a push that reaches a server of an earlier release (a 400 for its bytes) goes again as it is, and no edit is lost', async () => {
    const { pushes } = await flushTenEdits({ offers: true, earlierReleaseTakesPushes: true });
    expect(pushes.map((p) => [p.encoding, p.ids.length])).toEqual([
      ['gzip', 0],
      [undefined, 10],
    ]);
  });
});
