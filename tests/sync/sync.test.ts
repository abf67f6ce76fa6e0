// The sync engine against the real server (createApp on PGlite): push, pull, merge, conflicts,
// rejections, idempotency, auth pause and rebuild, as two users on two devices see them.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addUser, ALL_FLAGS, api, appTransport, comparable, login, makeClient, requestText, setPermissions, startServer, type Client, type Server } from './harness.ts';
import { applyPullPage, getClientId, readStatus, setCurrentOrganization } from '../../src/db/sync-store.ts';
import { readFirstSync } from '../../src/db/first-sync.ts';
import { claimStore } from '../../src/db/owner.ts';
import { resetLocalData } from '../../src/db/reset.ts';
import { parsePullResponse, PULL_NEXT_CURSOR_HEADER, SYNC_PROTOCOL_VERSION } from '../../src/protocol/sync.ts';
import type { OutboxEntry } from '../../src/db/db.ts';
import { REVISIONS_KEPT, type WireRow } from '../../sync-server/rows.ts';
import { revisionRows } from '../../sync-server/sync/revisions.ts';
import type { EngineOptions, Transport } from '../../workers/sync/engine.ts';

let server: Server;
let programId: string;
let clipId: string;
let annaCookie: string;
let annaId: string;
let benId: string;
let n = 0;
/** Users are per test (one server for the file: PGlite takes seconds to start). */
const email = (name: string) => `${name}.${n}@example.com`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  n++;
  await server.newOrganization();
  annaId = await addUser(server, email('anna'));
  benId = await addUser(server, email('ben'));
  annaCookie = await login(server, email('anna'));
  const program = await api(server, annaCookie, 'POST', '/v1/programs', { Name: 'Morning Show' });
  programId = program.json!['Id'] as string;
  const clip = await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'Pilot', Tags: ['news'] });
  expect(clip.status).toBe(201);
  clipId = clip.json!['Id'] as string;
});

async function device(name: string, email: string): Promise<Client> {
  const c = makeClient(server, name, await login(server, email));
  await c.engine.flush();
  return c;
}

async function serverClip(id = clipId) {
  return (await api(server, annaCookie, 'GET', `/v1/clips/${id}`)).json!;
}

/** Anna's device with one clip edit queued: the device and the mutation as the wire carries it. */
async function queuedEdit(fields: Record<string, unknown>) {
  const a = await device('a', email('anna'));
  await a.writes.updateClip(clipId, fields);
  const [{ seq: _s, attempts: _a, organizationId: _o, userId: _u, entity: _e, entityId: _i, ...mutation }] = (await a.db.outbox.toArray()) as [OutboxEntry];
  return { a, mutation };
}

type PushAnswer = { results: Array<{ status: string; row: Record<string, unknown> | null }> };
/** POST /api/sync/push as a client sends it (a fresh clientId: not the sender's own writes). */
async function push(cookie: string, mutations: unknown[], protocolVersion: number = SYNC_PROTOCOL_VERSION): Promise<PushAnswer> {
  const res = await api(server, cookie, 'POST', '/sync/push', { protocolVersion, clientId: crypto.randomUUID(), mutations });
  expect(res.status).toBe(200);
  return res.json as unknown as PushAnswer;
}

describe('pull', () => {
  it('pulled rows are exactly what the API serves: a clip in a playlist, its program, the playlist', async () => {
    await api(server, annaCookie, 'PATCH', `/v1/clips/${clipId}`, { Title: 'A "quoted" title\twith a tab', Description: 'Ünïcode “quotes” \\ and\nlines', Season: 3, Episode: null, Tags: ['b', 'a'] });
    const playlist = await api(server, annaCookie, 'POST', `/v1/programs/${programId}/playlists`, { Title: 'Feed' });
    const playlistId = playlist.json!['Id'] as string;
    await api(server, annaCookie, 'PATCH', `/v1/playlists/${playlistId}/clips`, { ClipIds: [clipId] });
    const a = await device('a', email('anna'));
    expect(await a.db.clips.get(clipId)).toEqual(await serverClip());
    expect(await a.db.programs.get(programId)).toEqual((await api(server, annaCookie, 'GET', `/v1/programs/${programId}`)).json);
    expect(await a.db.playlists.get(playlistId)).toEqual((await api(server, annaCookie, 'GET', `/v1/playlists/${playlistId}`)).json);
    expect((await a.db.clips.get(clipId))!['PlaylistIds']).toEqual([playlistId]);
  });

  it('an initial sync brings the organization, its programs and clips, and the user permissions', async () => {
    const a = await device('a', email('anna'));
    expect(await a.db.organizations.count()).toBe(1);
    expect((await a.db.programs.get(programId))?.['Name']).toBe('Morning Show');
    expect((await a.db.clips.get(clipId))?.['Title']).toBe('Pilot');
    expect((await a.db.permissions.toArray())[0]?.Permissions).toMatchObject({ HasContentAccess: true });
    expect(await readStatus(a.db)).toMatchObject({ online: true, pendingCount: 0, paused: null });
  });

  it('a program-scoped user without content access sees the program but none of its clips', async () => {
    const cid = await addUser(server, email('carl'), [{ ObjectType: 'Program', ObjectId: programId, Permissions: { HasAnalyticsAccess: true } }]);
    expect(cid).toBeTruthy();
    const c = await device('c', email('carl'));
    expect(await c.db.programs.count()).toBe(1);
    expect(await c.db.clips.count()).toBe(0);
    // The count the first download announced is what it brought: the clips it may not see are not in it.
    expect(await readFirstSync(c.db)).toEqual({ received: 2, total: 2, done: true });
  });

  it('tombstones name only rows the device may hold: none in a pull from the start, none for rows of a program it cannot see', async () => {
    const other = (await api(server, annaCookie, 'POST', '/v1/programs', { Name: 'Not hers' })).json!['Id'] as string;
    const hidden = (await api(server, annaCookie, 'POST', `/v1/programs/${other}/clips`, { Title: 'Hidden' })).json!['Id'] as string;
    const doomed = (await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'Doomed' })).json!['Id'] as string;
    await api(server, annaCookie, 'DELETE', `/v1/clips/${(await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'Gone before' })).json!['Id']}`);
    await addUser(server, email('pia'), [{ ObjectType: 'Program', ObjectId: programId, Permissions: { HasContentAccess: true } }]);
    const cookie = await login(server, email('pia'));
    type Page = { cursor: string; rows: Array<{ entity: string; row: { Id: string } }>; tombstones: Array<{ entity: string; id: string }> };
    const pull = async (cursor: string) => (await api(server, cookie, 'GET', `/sync/pull?limit=5000&cursor=${encodeURIComponent(cursor)}`)).json as unknown as Page;
    const first = await pull('');
    expect(first.tombstones).toEqual([]);
    expect(first.rows.map((r) => r.row.Id)).not.toContain(hidden);
    // The other program's clip changes and goes; one of hers goes.
    await api(server, annaCookie, 'PATCH', `/v1/clips/${hidden}`, { Title: 'Still hidden' });
    await api(server, annaCookie, 'DELETE', `/v1/clips/${hidden}`);
    await api(server, annaCookie, 'DELETE', `/v1/clips/${doomed}`);
    const next = await pull(first.cursor);
    expect(next.tombstones).toEqual([{ entity: 'clips', id: doomed }]);
    expect(JSON.stringify(next)).not.toContain(hidden);
    expect(JSON.stringify(next)).not.toContain(other);
  });

  it('a permission change makes the next pull rebuild; an edit pending across the rebuild survives it and is sent after', async () => {
    // The engine pushes before it pulls: the edit is made as the pull goes out, so the rebuild
    // arrives while it is still queued.
    const seen = { rebuilds: 0, pushed: [] as string[][], queued: null as string | null };
    const cookie = await login(server, email('anna'));
    const toServer = appTransport(server, () => cookie);
    const a: Client = makeClient(server, 'a', cookie, {
      transport: async (url, init) => {
        if (url.startsWith('/api/sync/pull') && seen.queued === null && seen.pushed.length > 0) {
          await a.writes.updateClip(clipId, { Description: 'offline note' });
          seen.queued = (await a.db.outbox.toArray())[0]!.id;
        }
        const res = await toServer(url, init);
        if (url.startsWith('/api/sync/pull') && ((await (res as Response).clone().json()) as { rebuild: boolean }).rebuild) seen.rebuilds++;
        if (url.startsWith('/api/sync/push')) seen.pushed.push((JSON.parse(requestText(init)) as { mutations: Array<{ id: string }> }).mutations.map((m) => m.id));
        return res;
      },
    });
    await a.engine.flush();
    await a.writes.updateClip(clipId, { Title: 'Before the rebuild' });
    // A row the server no longer shows this user: a rebuild drops it.
    await a.db.clips.put({ ...(await a.db.clips.get(clipId))!, Id: crypto.randomUUID() });
    await setPermissions(server, annaId, [{ ObjectType: 'Organization', ObjectId: server.organizationId, Permissions: { ...ALL_FLAGS, HasAuditAccess: false } }]);
    await a.engine.flush();
    expect(seen.rebuilds).toBe(1);
    expect(seen.queued).not.toBeNull();
    // Pushed once the rebuild was stored: the outbox entry survived it.
    expect(seen.pushed.at(-1)).toEqual([seen.queued]);
    expect(await a.db.clips.count()).toBe(1);
    expect(await serverClip()).toMatchObject({ Title: 'Before the rebuild', Description: 'offline note' });
    expect(await a.db.clips.get(clipId)).toMatchObject({ Title: 'Before the rebuild', Description: 'offline note' });
    expect(await a.db.outbox.count()).toBe(0);
  });

  describe('a program moved to another network', () => {
    let n1: string;
    let n2: string;
    const move = async (networkId: string | null) =>
      expect((await api(server, annaCookie, 'PATCH', `/v1/programs/${programId}`, { NetworkId: networkId })).status).toBe(200);
    beforeEach(async () => {
      n1 = (await api(server, annaCookie, 'POST', '/v1/networks', { Name: 'North' })).json!['Id'] as string;
      n2 = (await api(server, annaCookie, 'POST', '/v1/networks', { Name: 'South' })).json!['Id'] as string;
      await move(n1);
    });
    /** A device that counts the pull answers telling it to rebuild. */
    async function counting(name: string, who: string, engine: Partial<EngineOptions> = {}) {
      const cookie = await login(server, who);
      const toServer = appTransport(server, () => cookie);
      const seen = { rebuilds: 0 };
      const c = makeClient(server, name, cookie, {
        engine,
        transport: async (url, init) => {
          const res = await toServer(url, init);
          if (url.startsWith('/api/sync/pull') && ((await (res as Response).clone().json()) as { rebuild: boolean }).rebuild) seen.rebuilds++;
          return res;
        },
      });
      await c.engine.flush();
      return { c, seen };
    }
    const networkScoped = () =>
      addUser(server, email('nina'), [{ ObjectType: 'Network', ObjectId: n1, Permissions: { HasContentAccess: true } }]);

    it('out of a Network-scope user’s network: their next pull rebuilds without it and its clips; moved back, they return', async () => {
      await networkScoped();
      const { c, seen } = await counting('nina', email('nina'));
      expect(await c.db.programs.get(programId)).toBeDefined();
      expect(await c.db.clips.get(clipId)).toBeDefined();
      expect((await api(server, await login(server, email('nina')), 'GET', `/v1/clips/${clipId}`)).status).toBe(200);

      await move(n2);
      await c.engine.flush();
      expect(seen.rebuilds).toBe(1);
      // What the API now refuses her is gone from the device too.
      expect((await api(server, await login(server, email('nina')), 'GET', `/v1/clips/${clipId}`)).status).toBe(404);
      expect(await c.db.programs.count()).toBe(0);
      expect(await c.db.clips.count()).toBe(0);
      expect((await c.db.networks.toArray()).map((x) => x.Id)).toEqual([n1]);

      await move(n1);
      await c.engine.flush();
      expect(seen.rebuilds).toBe(2);
      expect(await c.db.programs.get(programId)).toMatchObject({ NetworkId: n1 });
      expect(await c.db.clips.get(clipId)).toMatchObject({ Title: 'Pilot' });
      // Nothing moved since: no more rebuilds.
      await c.engine.flush();
      expect(seen.rebuilds).toBe(2);
    });

    it('for a Program-scope user the program’s new network arrives and the old one goes; an Organization-scope user never rebuilds', async () => {
      await addUser(server, email('pia'), [{ ObjectType: 'Program', ObjectId: programId, Permissions: { HasContentAccess: true } }]);
      const pia = await counting('pia', email('pia'));
      const anna = await counting('anna', email('anna'));
      expect((await pia.c.db.networks.toArray()).map((x) => x.Id)).toEqual([n1]);

      await move(n2);
      await pia.c.engine.flush();
      await anna.c.engine.flush();
      expect((await pia.c.db.networks.toArray()).map((x) => x.Id)).toEqual([n2]);
      expect(await pia.c.db.clips.get(clipId)).toMatchObject({ Title: 'Pilot' });
      expect(pia.seen.rebuilds).toBe(1);
      expect(anna.seen.rebuilds).toBe(0);
      expect(await anna.c.db.programs.get(programId)).toMatchObject({ NetworkId: n2 });
      expect(await anna.c.db.networks.count()).toBe(2);
    });

    it('a rebuild of many pages after a move ends: the pages after the first are not taken for a new move', async () => {
      await networkScoped();
      for (let i = 0; i < 4; i++) await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: `More ${i}` });
      const { c, seen } = await counting('nina', email('nina'), { pullLimit: 2 });
      expect(await c.db.clips.count()).toBe(5);
      await move(n2);
      await move(n1);
      await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'After the moves' });
      await c.engine.flush();
      expect(seen.rebuilds).toBe(0); // back where it was: nothing she sees changed
      await move(n2);
      await c.engine.flush();
      expect(seen.rebuilds).toBe(1);
      expect(await c.db.clips.count()).toBe(0);
      await move(n1);
      await c.engine.flush();
      expect(seen.rebuilds).toBe(2);
      expect(await c.db.clips.count()).toBe(6);
    });

    it('a move between two pages of one pull is seen by the next page, which answers with a rebuild', async () => {
      await networkScoped();
      const cookie = await login(server, email('nina'));
      const pull = async (cursor: string, limit: number) =>
        (await api(server, cookie, 'GET', `/sync/pull?limit=${limit}&cursor=${encodeURIComponent(cursor)}`)).json as unknown as { cursor: string; hasMore: boolean; rebuild: boolean };
      const synced = await pull('', 5000);
      expect(synced.hasMore).toBe(false);
      for (let i = 0; i < 4; i++) await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: `Later ${i}` });
      const first = await pull(synced.cursor, 2);
      expect(first).toMatchObject({ hasMore: true, rebuild: false });
      await move(n2);
      expect(await pull(first.cursor, 2)).toMatchObject({ rebuild: true });
    });

    it(`when the program’s revisions since the device’s cursor are no longer kept (${REVISIONS_KEPT} later edits), a user whose view depends on its network rebuilds`, async () => {
      await networkScoped();
      const nina = await counting('nina', email('nina'));
      const anna = await counting('anna', email('anna'));
      for (let i = 0; i <= REVISIONS_KEPT; i++) await api(server, annaCookie, 'PATCH', `/v1/programs/${programId}`, { Name: `Morning Show ${i}` });
      await nina.c.engine.flush();
      await anna.c.engine.flush();
      // Where the program was at her cursor is not known: her device rebuilds (and finds it where
      // it was); Anna sees every network whatever it was, and does not.
      expect(nina.seen.rebuilds).toBe(1);
      expect(anna.seen.rebuilds).toBe(0);
      expect(await nina.c.db.programs.get(programId)).toMatchObject({ Name: `Morning Show ${REVISIONS_KEPT}` });
      expect(await nina.c.db.clips.get(clipId)).toBeDefined();
    });
  });

  it('small pages bring every row exactly once, in Version order', async () => {
    for (let i = 0; i < 5; i++) await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: `Clip ${i}` });
    const seen: string[] = [];
    let cursor = '';
    let versions: number[] = [];
    const totals: Array<number | undefined> = [];
    for (let page = 0; page < 20; page++) {
      const res = await api(server, annaCookie, 'GET', `/sync/pull?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      const body = res.json as unknown as { cursor: string; rows: Array<{ row: { Id: string; Version: number } }>; hasMore: boolean; total?: number };
      totals.push(body.total);
      seen.push(...body.rows.map((r) => r.row.Id));
      versions = versions.concat(body.rows.map((r) => r.row.Version));
      cursor = body.cursor;
      if (!body.hasMore) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(1 + 1 + 6); // organization, program, six clips
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(totals).toEqual([8, ...totals.slice(1).map(() => undefined)]);
    const c = makeClient(server, 'paged', annaCookie, { engine: { pullLimit: 2 } });
    await c.engine.flush();
    expect(await c.db.clips.count()).toBe(6);
    expect(await readFirstSync(c.db)).toEqual({ received: 8, total: 8, done: true });
  });

  it('the next page is asked for once an answer’s headers name its cursor, before its body is read; a header that is not the body’s cursor is not followed', async () => {
    for (let i = 0; i < 5; i++) await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: `Clip ${i}` });
    /** The engine's pulls as the server sees them and reads of their bodies, in order; `header`
     * rewrites the next-cursor header on the way (something on the way that spoils it). */
    const traced = (header?: (cursor: string) => string) => {
      const log: string[] = [];
      const real = appTransport(server, () => annaCookie);
      const transport: Transport = async (url, init) => {
        const pull = url.includes('/sync/pull') ? (new URL(url, 'http://x').searchParams.get('cursor') ?? 'start') : null;
        if (pull) log.push(`ask ${pull}`);
        const res = (await real(url, init)) as Response;
        if (!pull) return res;
        const next = res.headers.get(PULL_NEXT_CURSOR_HEADER);
        const headers = new Headers(res.headers);
        if (next && header) headers.set(PULL_NEXT_CURSOR_HEADER, header(next));
        return {
          status: res.status,
          headers,
          json: () => res.json(),
          text: async () => {
            log.push(`read ${pull}`);
            return res.text();
          },
        };
      };
      return { log, transport };
    };
    const { log, transport } = traced();
    const c = makeClient(server, 'ahead', annaCookie, { transport, engine: { pullLimit: 2 } });
    await c.engine.flush();
    expect(await c.db.clips.count()).toBe(6);
    const asks = log.filter((x) => x.startsWith('ask ')).map((x) => x.slice(4));
    expect(asks).toHaveLength(4); // 8 rows in pages of 2
    // Each page with one after it: the next is asked for before this one's body is read.
    for (const [i, cursor] of asks.slice(0, 3).entries()) expect(log.indexOf(`ask ${asks[i + 1]}`)).toBeLessThan(log.indexOf(`read ${cursor}`));
    expect(new Set(asks).size).toBe(asks.length);

    const spoiled = traced((cursor) => `${cursor}9`);
    const d = makeClient(server, 'spoiled', annaCookie, { transport: spoiled.transport, engine: { pullLimit: 2 } });
    await d.engine.flush();
    expect(await d.db.clips.count()).toBe(6);
    expect(await readFirstSync(d.db)).toEqual({ received: 8, total: 8, done: true });
    // Every page the body's cursors name was asked for and stored; the spoiled ones only asked for.
    for (const cursor of asks.slice(1, 4)) expect(spoiled.log).toContain(`read ${cursor}`);
    expect((await readStatus(d.db)).lastError).toBeNull();
  });

  it('a first download cut off after its first page is still counted as under way after a reload, and ends when the rest arrives', async () => {
    for (let i = 0; i < 5; i++) await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: `Clip ${i}` });
    const c = makeClient(server, 'cut-off', annaCookie);
    await setCurrentOrganization(c.db, server.organizationId);
    const first = await api(server, annaCookie, 'GET', '/sync/pull?limit=3');
    expect(await applyPullPage(c.db, parsePullResponse(first.json), { initial: true, organizationId: server.organizationId })).toBe(true);
    const page = parsePullResponse(first.json);
    expect(page.hasMore).toBe(true);
    expect(await readFirstSync(c.db)).toEqual({ received: page.rows.length, total: 8, done: false });
    // The next start has a cursor (not a pull from the start) and finishes the count.
    await c.engine.flush();
    expect(await readFirstSync(c.db)).toEqual({ received: 8, total: 8, done: true });
    expect(await c.db.clips.count()).toBe(6);
    // A later pull of changes is not a first download.
    await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'Later' });
    await c.engine.flush();
    expect(await readFirstSync(c.db)).toEqual({ received: 8, total: 8, done: true });
  });

  it('a malformed pull limit is a 400 naming the field; an unknown cursor means rebuild', async () => {
    const bad = await api(server, annaCookie, 'GET', '/sync/pull?limit=0');
    expect(bad.status).toBe(400);
    expect((bad.json as { Errors: Array<{ Field: string }> }).Errors[0]?.Field).toBe('limit');
    const unknown = await api(server, annaCookie, 'GET', '/sync/pull?cursor=garbage');
    expect(unknown.json).toMatchObject({ rebuild: true });
  });

  it('a deleted clip arrives as a tombstone', async () => {
    const a = await device('a', email('anna'));
    expect((await api(server, annaCookie, 'DELETE', `/v1/clips/${clipId}`)).status).toBe(204);
    await a.engine.flush();
    expect(await a.db.clips.get(clipId)).toBeUndefined();
  });
});

describe('push', () => {
  it('an offline edit is applied and the device ends with the server row', async () => {
    const a = await device('a', email('anna'));
    await a.writes.updateClip(clipId, { Title: 'Episode 1' });
    await a.engine.flush();
    const row = await serverClip();
    expect(row['Title']).toBe('Episode 1');
    expect(await a.db.clips.get(clipId)).toMatchObject({ Title: 'Episode 1', ModifiedAtUtc: row['ModifiedAtUtc'] });
  });

  it('two offline edits of the same field by one device do not conflict with each other', async () => {
    const a = await device('a', email('anna'));
    await a.writes.updateClip(clipId, { Title: 'One' });
    await a.writes.updateClip(clipId, { Title: 'Two' });
    await a.engine.flush();
    expect((await serverClip())['Title']).toBe('Two');
    expect(await a.db.conflicts.count()).toBe(0);
  });

  it('edits of different fields on two devices merge', async () => {
    const a = await device('a', email('anna'));
    const b = await device('b', email('ben'));
    await a.writes.updateClip(clipId, { Title: 'From A' });
    await b.writes.updateClip(clipId, { Description: 'From B' });
    await b.engine.flush();
    await a.engine.flush();
    await b.engine.flush();
    expect(await serverClip()).toMatchObject({ Title: 'From A', Description: 'From B' });
    for (const d of [a, b]) expect(await d.db.clips.get(clipId)).toMatchObject({ Title: 'From A', Description: 'From B' });
  });

  it('Tags edited on two devices merge as a set', async () => {
    const a = await device('a', email('anna'));
    const b = await device('b', email('ben'));
    await a.writes.updateClip(clipId, { Tags: ['news', 'a'] });
    await b.writes.updateClip(clipId, { Tags: ['b'] });
    await a.engine.flush();
    await b.engine.flush();
    expect((await serverClip())['Tags']).toEqual(['a', 'b']);
  });

  it('the same field edited on two devices is a conflict with yours and theirs; keep mine converges', async () => {
    const a = await device('a', email('anna'));
    const b = await device('b', email('ben'));
    await a.writes.updateClip(clipId, { Title: 'Mine' });
    await b.writes.updateClip(clipId, { Title: 'Theirs' });
    await b.engine.flush();
    await a.engine.flush();
    const [conflict] = await a.db.conflicts.toArray();
    expect(conflict?.fields).toEqual([{ field: 'Title', base: 'Pilot', mine: 'Mine', theirs: 'Theirs', theirsById: benId, theirsAtUtc: expect.any(String) }]);
    expect((await a.db.clips.get(clipId))?.['Title']).toBe('Mine');
    expect(await readStatus(a.db)).toMatchObject({ conflictCount: 1, pendingCount: 0 });
    await a.conflicts.keepMine(conflict!.id);
    await a.engine.flush();
    await b.engine.flush();
    expect((await serverClip())['Title']).toBe('Mine');
    expect((await b.db.clips.get(clipId))?.['Title']).toBe('Mine');
    expect(await a.db.conflicts.count()).toBe(0);
  });

  it('a conflict names who made the change it is against, even when the device’s other fields merged after it', async () => {
    const a = await device('a', email('anna'));
    const b = await device('b', email('ben'));
    await a.writes.updateClip(clipId, { Title: 'Anna offline', Description: 'From Anna', ShortSummary: 'Anna’s summary' });
    await b.writes.updateClip(clipId, { Title: 'Ben online' });
    await b.engine.flush();
    const bensWrite = (await serverClip())['ModifiedAtUtc'];
    await a.engine.flush();
    // Description and ShortSummary were written by Anna's mutation: she is the row's last writer.
    expect(await serverClip()).toMatchObject({ Title: 'Ben online', Description: 'From Anna', ShortSummary: 'Anna’s summary', ModifiedById: annaId });
    const [conflict] = await a.db.conflicts.toArray();
    expect(conflict?.serverRow['ModifiedById']).toBe(annaId);
    expect(conflict?.fields).toEqual([{ field: 'Title', base: 'Pilot', mine: 'Anna offline', theirs: 'Ben online', theirsById: benId, theirsAtUtc: bensWrite }]);
  });

  it('a delete over someone else’s edit is a conflict, not a silent loss', async () => {
    const a = await device('a', email('anna'));
    const b = await device('b', email('ben'));
    await a.writes.deleteClip(clipId);
    await b.writes.updateClip(clipId, { Title: 'Still wanted' });
    await b.engine.flush();
    await a.engine.flush();
    expect((await serverClip())['Title']).toBe('Still wanted');
    const [conflict] = await a.db.conflicts.toArray();
    expect(conflict?.fields.map((f) => f.field)).toEqual(['Deleted']);
    expect(conflict?.fields[0]).toMatchObject({ theirsById: benId, theirsAtUtc: (await serverClip())['ModifiedAtUtc'] });
    // What would go with the clip: Ben's title, as it was when Anna deleted and as it is now.
    expect(conflict?.fields[0]?.theirChanges).toEqual([{ field: 'Title', base: 'Pilot', theirs: 'Still wanted' }]);
    await a.conflicts.keepTheirs(conflict!.id);
    expect((await a.db.clips.get(clipId))?.['Title']).toBe('Still wanted');
  });

  it('a delete over someone else’s edit resolved field by field: the clip stays, one of their changes undone, one kept; both devices converge', async () => {
    const a = await device('a', email('anna'));
    const b = await device('b', email('ben'));
    await a.writes.deleteClip(clipId);
    await b.writes.updateClip(clipId, { Title: 'Renamed by Ben', Description: 'Ben’s notes' });
    await b.engine.flush();
    await a.engine.flush();
    const [conflict] = await a.db.conflicts.toArray();
    expect(conflict?.fields[0]?.theirChanges).toEqual([
      { field: 'Title', base: 'Pilot', theirs: 'Renamed by Ben' },
      { field: 'Description', base: null, theirs: 'Ben’s notes' },
    ].sort((x, y) => (x.field < y.field ? -1 : 1)));
    // Keep the clip; its title as it was when Anna deleted it, Ben's description.
    await a.conflicts.resolveFields(conflict!.id, { Deleted: 'theirs', Title: 'mine', Description: 'theirs' });
    expect((await a.db.outbox.toArray()).map((o) => o.name)).toEqual(['clip.update']);
    await a.engine.flush();
    await b.engine.flush();
    expect(await a.db.conflicts.count()).toBe(0);
    expect(await a.db.outbox.count()).toBe(0);
    const server = await serverClip();
    expect(server).toMatchObject({ Title: 'Pilot', Description: 'Ben’s notes', Deleted: false });
    expect(comparable(await a.db.clips.get(clipId))).toEqual(comparable(server as WireRow));
    expect(comparable(await b.db.clips.get(clipId))).toEqual(comparable(server as WireRow));
  });

  it('a rejected edit goes to needs attention and does not block the next one', async () => {
    const a = await device('a', email('anna'));
    await a.writes.updateClip(clipId, { Episode: -5 });
    await a.writes.updateClip(clipId, { Description: 'kept going' });
    await a.engine.flush();
    const [item] = await a.db.needsAttention.toArray();
    expect(item?.httpStatus).toBe(400);
    expect(item?.errors[0]?.Field).toBe('Episode');
    expect((await serverClip())['Description']).toBe('kept going');
    expect(await readStatus(a.db)).toMatchObject({ needsAttentionCount: 1, pendingCount: 0 });
  });

  it('one push giving two clips the same slug: the first applies, the second is rejected with SlugExists, as two API calls would be', async () => {
    const second = await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'Second' });
    const secondId = second.json!['Id'] as string;
    const a = await device('a', email('anna'));
    await a.writes.updateClip(clipId, { Slug: 'pilot-episode' });
    await a.writes.updateClip(secondId, { Slug: 'pilot-episode' });
    await a.writes.updateClip(secondId, { Description: 'still sent' });
    await a.engine.flush();
    expect((await serverClip())['Slug']).toBe('pilot-episode');
    expect(await serverClip(secondId)).toMatchObject({ Slug: null, Description: 'still sent' });
    const items = await a.db.needsAttention.toArray();
    expect(items.map((i) => [i.entityId, i.httpStatus, i.errors.map((e) => [e.Field, e.Code])])).toEqual([[secondId, 400, [['Slug', 'SlugExists']]]]);
    const online = await api(server, annaCookie, 'PATCH', `/v1/clips/${secondId}`, { Slug: 'pilot-episode' });
    expect(online.json).toEqual({ Errors: items[0]!.errors });
  });

  it('edits that together exceed the server’s 1 MB request limit all arrive: the device sends them in pushes that fit', async () => {
    const a = await device('a', email('anna'));
    // Each description is DESCRIPTION_MAX_LENGTH (10,000) characters of 2-byte UTF-8: ~20 KB a
    // mutation, so 80 of them are ~1.6 MB, past the server's 1 MB limit for a JSON body.
    const long = (i: number) => `${i} ${'é'.repeat(9_990)}`.slice(0, 10_000);
    const ids: string[] = [];
    for (let i = 0; i < 80; i++) ids.push(await a.writes.createClip(programId, { Title: `Long notes ${i}`, Description: long(i) }));
    await a.engine.flush();
    expect(await readStatus(a.db)).toMatchObject({ pendingCount: 0, needsAttentionCount: 0 });
    for (const i of [0, 41, 79]) expect(await serverClip(ids[i])).toMatchObject({ Title: `Long notes ${i}`, Description: long(i) });
  });

  it('a single edit larger than the server’s 1 MB request limit goes to needs attention with the server’s message, and the next one is sent', async () => {
    const a = await device('a', email('anna'));
    // Far past any field's limit: the server refuses the body before reading it (413).
    await a.writes.updateClip(clipId, { Description: 'x'.repeat(1_100_000) });
    await a.writes.updateClip(clipId, { Title: 'Sent after it' });
    await a.engine.flush();
    const [item] = await a.db.needsAttention.toArray();
    expect(item).toMatchObject({ httpStatus: 413, errors: [{ Code: 'payloadTooLarge', Message: 'The request body is larger than 1 MB', MessageKey: 'domain_body_too_large' }] });
    expect((await serverClip())['Title']).toBe('Sent after it');
    expect(await readStatus(a.db)).toMatchObject({ pendingCount: 0, needsAttentionCount: 1 });
  });

  it('behind a proxy that refuses bodies over 64 KB with its own 413 page, pushes shrink until they pass; an edit that never fits waits in needs attention', async () => {
    const sizes: number[] = [];
    const direct = appTransport(server, () => annaCookie);
    // The proxy passes on neither compressed bodies nor the server's offer to take them (its
    // Accept-Encoding), so the engine sends its pushes as they are.
    const proxy: typeof direct = async (url, init) => {
      if (init.method === 'POST') {
        if (typeof init.body !== 'string') throw new Error('a compressed push though the proxy hid the offer');
        sizes.push(init.body.length);
        if (init.body.length > 64 * 1024) {
          return new Response('<html><head><title>413 Request Entity Too Large</title></head><body><h1>413</h1></body></html>', { status: 413, headers: { 'content-type': 'text/html' } });
        }
      }
      const res = (await direct(url, init)) as Response;
      const headers = new Headers(res.headers);
      headers.delete('accept-encoding');
      return new Response(res.body, { status: res.status, headers });
    };
    const a = makeClient(server, 'a', annaCookie, { transport: proxy });
    await a.engine.flush();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await a.writes.createClip(programId, { Title: `Notes ${i}`, Description: `${i} ${'n'.repeat(9_000)}` }));
    await a.writes.updateClip(clipId, { Description: 'x'.repeat(70_000) });
    await a.writes.updateClip(clipId, { Title: 'After the big one' });
    await a.engine.flush();
    expect(await readStatus(a.db)).toMatchObject({ pendingCount: 0, needsAttentionCount: 1 });
    expect((await serverClip(ids[19]))['Title']).toBe('Notes 19');
    expect((await serverClip())['Title']).toBe('After the big one');
    const [item] = await a.db.needsAttention.toArray();
    expect(item).toMatchObject({ entityId: clipId, httpStatus: 413, errors: [{ Code: 'payloadTooLarge', Message: 'The change is larger than the server accepts', MessageKey: 'domain_change_too_large' }] });
    // The body size halves until a push passes (~257 KB, ~128 KB, then under 64 KB), and stays
    // learnt: later bodies are under 64 KB but for the one edit that never fits, alone.
    expect(sizes.slice(0, 3).map((s) => s > 64 * 1024)).toEqual([true, true, false]);
    const over = sizes.slice(3).filter((s) => s > 64 * 1024);
    expect(over).toHaveLength(1);
    expect(over[0]).toBeLessThan(71_000); // the 70,000-character edit alone
  });

  it('a clip created offline, put in a playlist and edited arrives whole', async () => {
    const a = await device('a', email('anna'));
    const playlist = await api(server, annaCookie, 'POST', `/v1/programs/${programId}/playlists`, { Title: 'Main feed', Visibility: 'Public' });
    expect(playlist.status).toBe(201);
    await a.engine.flush();
    const id = await a.writes.createClip(programId, { Title: 'Made offline' });
    await a.writes.setPlaylistClips(playlist.json!['Id'] as string, [id, clipId]);
    await a.writes.updateClip(id, { Description: 'then edited' });
    await a.engine.flush();
    expect(await serverClip(id)).toMatchObject({ Title: 'Made offline', Description: 'then edited' });
    const pl = await api(server, annaCookie, 'GET', `/v1/playlists/${playlist.json!['Id']}`);
    expect(pl.json!['ClipIds']).toEqual([id, clipId]);
  });

  it('a mutation pushed twice is applied once and answered the same', async () => {
    const { a, mutation } = await queuedEdit({ Title: 'Once' });
    const first = await push(a.cookie, [mutation]);
    const version = (await serverClip())['Version'];
    const second = await push(a.cookie, [mutation]);
    expect(second).toEqual(first);
    expect((await serverClip())['Version']).toBe(version);
  });

  it('a mutation answered again after 50 later writes: applied, without a later row taken for its own; the row keeps its last 50 revisions', async () => {
    const { a, mutation } = await queuedEdit({ Title: 'Early' });
    const first = await push(a.cookie, [mutation]);
    expect(first.results[0]).toMatchObject({ status: 'applied', row: { Title: 'Early' } });
    for (let i = 0; i < 50; i++) expect((await api(server, annaCookie, 'PATCH', `/v1/clips/${clipId}`, { Description: `Later ${i}` })).status).toBe(200);
    const [{ n: kept } = { n: 0 }] = await server.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM row_revisions WHERE entity = 'clip' AND id = $1`, [clipId]);
    expect(kept).toBe(50);
    expect((await push(a.cookie, [mutation])).results[0]).toEqual({ mutationId: mutation.id, status: 'applied', row: null });
  });

  it('an edit of an earlier release’s push (protocol 1, converted) is that device’s own: its later edit from the same base is not a conflict with it', async () => {
    const base = (await serverClip())['ModifiedAtUtc'] as string;
    const clientId = crypto.randomUUID();
    const send = async (mutations: unknown[]) => {
      const res = await api(server, annaCookie, 'POST', '/sync/push', { protocolVersion: 1, clientId, mutations });
      expect(res.status).toBe(200);
      return (res.json as unknown as PushAnswer).results;
    };
    const m = (method: string, path: string, body: Record<string, unknown>, baseModifiedAtUtc: string | null) => ({
      id: crypto.randomUUID(), entity: 'clips', entityId: clipId, method, path, body, baseModifiedAtUtc, createdAt: Date.now(),
    });
    // A create of a clip that already exists (the run's 409, then the clip as its reader sees it:
    // answered with the clip), then an edit.
    const first = await send([m('POST', `/v1/programs/${programId}/clips`, { Id: clipId, Title: 'Again' }, null), m('PATCH', `/v1/clips/${clipId}`, { Title: 'First' }, base)]);
    expect(first.map((r) => r.status)).toEqual(['applied', 'applied']);
    // The device did not hear the answer and edits the title again on the same base.
    const [second] = await send([m('PATCH', `/v1/clips/${clipId}`, { Title: 'Second' }, base)]);
    expect(second!.status).not.toBe('conflict');
    expect((await serverClip())['Title']).toBe('Second');
  });

  it('the rows a push answers are exactly the rows the API then serves (an edit, a create, a playlist order)', async () => {
    const playlist = await api(server, annaCookie, 'POST', `/v1/programs/${programId}/playlists`, { Title: 'Feed' });
    const newClip = crypto.randomUUID();
    const m = (entity: string, entityId: string, method: string, path: string, body: Record<string, unknown>) => ({
      id: crypto.randomUUID(), entity, entityId, method, path, body, baseModifiedAtUtc: null, createdAt: Date.now(),
    });
    const { results } = await push(annaCookie, [
      m('clips', clipId, 'PATCH', `/v1/clips/${clipId}`, { Title: 'Edited', Tags: ['b', 'a'], Season: 2 }),
      m('clips', newClip, 'POST', `/v1/programs/${programId}/clips`, { Id: newClip.toUpperCase(), Title: 'Made offline', Description: null }),
      m('playlists', playlist.json!['Id'] as string, 'PATCH', `/v1/playlists/${playlist.json!['Id']}/clips`, { ClipIds: [newClip, clipId] }),
    ], 1);
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    const [edited, created, reordered] = results.map((r) => r.row!);
    expect(edited).toMatchObject({ Id: clipId, Title: 'Edited', Tags: ['b', 'a'], Season: 2, ModifiedById: annaId, OrganizationId: server.organizationId, Deleted: false });
    expect(created).toMatchObject({ Id: newClip, ProgramId: programId, Title: 'Made offline', CreatedById: annaId, ModifiedById: annaId, Deleted: false });
    expect(created!['CreatedAtUtc']).toBe(created!['ModifiedAtUtc']);
    // PlaylistIds follow the playlist write that came after the clip writes: compare the rest.
    const withoutPlaylists = ({ PlaylistIds: _p, ...rest }: Record<string, unknown>) => rest;
    expect(withoutPlaylists(edited!)).toEqual(withoutPlaylists(await serverClip()));
    expect(withoutPlaylists(created!)).toEqual(withoutPlaylists(await serverClip(newClip)));
    expect(reordered).toEqual((await api(server, annaCookie, 'GET', `/v1/playlists/${playlist.json!['Id']}`)).json);
  });

  it('asked for patches, a push answers an applied edit with the fields it changed over the Version it was written on, and a create with its whole row', async () => {
    const playlistId = (await api(server, annaCookie, 'POST', `/v1/programs/${programId}/playlists`, { Title: 'Feed' })).json!['Id'] as string;
    const before = await serverClip();
    const newClip = crypto.randomUUID();
    const m = (entityId: string, method: string, path: string, body: Record<string, unknown>, entity = 'clips') => ({
      id: crypto.randomUUID(), entity, entityId, method, path, body, baseModifiedAtUtc: null, createdAt: Date.now(),
    });
    const mutations = [
      // The clip joins a playlist first: its PlaylistIds change in this push, its Version does not.
      m(playlistId, 'PATCH', `/v1/playlists/${playlistId}/clips`, { ClipIds: [clipId] }, 'playlists'),
      m(clipId, 'PATCH', `/v1/clips/${clipId}`, { Title: 'Patched' }),
      m(clipId, 'PATCH', `/v1/clips/${clipId}`, { Description: 'Then this' }),
      m(newClip, 'POST', `/v1/programs/${programId}/clips`, { Id: newClip, Title: 'Made offline' }),
    ];
    const res = await api(server, annaCookie, 'POST', '/sync/push', { protocolVersion: 1, clientId: crypto.randomUUID(), patches: true, mutations });
    expect(res.status).toBe(200);
    type Patched = { mutationId: string; status: string; patch?: { fromVersion: number; fields: Record<string, unknown> }; row?: Record<string, unknown> };
    const [playlist, title, description, created] = (res.json as unknown as { results: Patched[] }).results as [Patched, Patched, Patched, Patched];
    expect(playlist.status).toBe('applied');
    expect(title).toEqual({ mutationId: mutations[1]!.id, status: 'applied', patch: { fromVersion: before['Version'], fields: expect.any(Object) } });
    // PlaylistIds always come along: the device's copy at fromVersion predates the playlist write.
    expect(Object.keys(title.patch!.fields).sort()).toEqual(['ModifiedAtUtc', 'PlaylistIds', 'Title', 'Version']);
    expect(title.patch!.fields['PlaylistIds']).toEqual([playlistId]);
    // The second edit of the row is over the first one's write.
    expect(description.patch!.fromVersion).toBe(title.patch!.fields['Version']);
    expect(Object.keys(description.patch!.fields).sort()).toEqual(['Description', 'ModifiedAtUtc', 'PlaylistIds', 'Version']);
    // Laid over the row a device held, the patches make the row the API now serves.
    expect(before['PlaylistIds']).toEqual([]);
    expect({ ...before, ...title.patch!.fields, ...description.patch!.fields }).toEqual(await serverClip());
    expect(created).toEqual({ mutationId: mutations[3]!.id, status: 'applied', row: await serverClip(newClip) });
    // Without the flag (a device of an earlier release), the same edit is answered with its whole row.
    const { results } = await push(annaCookie, [m(clipId, 'PATCH', `/v1/clips/${clipId}`, { Title: 'Whole' })], 1);
    expect(results[0]).toEqual({ mutationId: expect.any(String), status: 'applied', row: await serverClip() });
  });

  it('rows written through pushes keep their last 50 revisions too', async () => {
    const a = await device('a', email('anna'));
    for (let i = 0; i < 55; i++) {
      await a.writes.updateClip(clipId, { Title: `Take ${i}` });
      await a.engine.flush();
    }
    expect(await a.db.outbox.count()).toBe(0);
    const revisions = await revisionRows(server.store, 'clip', (await serverClip()) as WireRow);
    expect(revisions).toHaveLength(50);
    expect(revisions.map((r) => r.row['Title'])).toEqual(Array.from({ length: 50 }, (_, i) => `Take ${i + 5}`));
    // Each is this client's own write (the merge skips those).
    expect(new Set(revisions.map((r) => r.clientId))).toEqual(new Set([await getClientId(a.db)]));
  });

  it('a 401 pauses sync and keeps the outbox until the user signs in again', async () => {
    const a = await device('a', email('anna'));
    await a.writes.updateClip(clipId, { Title: 'After login' });
    await server.store.query(`DELETE FROM sessions`);
    await a.engine.flush();
    expect(await readStatus(a.db)).toMatchObject({ paused: 'auth', pendingCount: 1 });
    a.cookie = await login(server, email('anna'));
    annaCookie = a.cookie;
    await a.engine.resume();
    expect((await serverClip())['Title']).toBe('After login');
    expect(await readStatus(a.db)).toMatchObject({ paused: null, pendingCount: 0 });
  });

  describe('another user signs in on the same device after a session expired', () => {
    const owner = (name: string, id: string) => ({ userId: id, name, email: email(name) });
    /** Anna's device with an edit queued and her session gone; Ben signs in on the same store. */
    async function sharedDevice() {
      const a = makeClient(server, 'a', await login(server, email('anna')), { engine: { user: owner('anna', annaId) } });
      await a.engine.flush();
      await a.writes.updateClip(clipId, { Title: 'Anna’s unsent title' });
      await server.store.query(`DELETE FROM sessions`);
      await a.engine.flush();
      expect(await readStatus(a.db)).toMatchObject({ paused: 'auth', pendingCount: 1 });
      a.engine.stop();
      annaCookie = await login(server, email('anna')); // the test's own look at the server
      const b = makeClient(server, 'b', await login(server, email('ben')), { dbName: a.db.name, engine: { user: owner('ben', benId) } });
      return { a, b };
    }

    it('Anna’s edits are not sent under Ben’s session and Ben’s rows are not pulled into her store', async () => {
      const { b } = await sharedDevice();
      const cursor = await b.db.syncState.get('cursor');
      await api(server, annaCookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'Made after Anna left' });
      await b.engine.flush();
      expect(await readStatus(b.db)).toMatchObject({ paused: 'otherUser', pendingCount: 1 });
      expect((await serverClip())['Title']).toBe('Pilot');
      expect(await b.db.syncState.get('cursor')).toEqual(cursor);
      expect(await b.db.clips.count()).toBe(1);
      // What the app warns about: whose data this is, and how many of their edits are unsent.
      expect(await claimStore(b.db, owner('ben', benId))).toEqual({ kind: 'otherUser', owner: owner('anna', annaId), unsynced: 1 });
    });

    it('the app’s own check of the store (no engine running yet) says sync is paused for Anna’s data, until she claims it again', async () => {
      const { a } = await sharedDevice();
      expect(await readStatus(a.db)).toMatchObject({ paused: 'auth' }); // Anna’s last status
      expect(await claimStore(a.db, owner('ben', benId))).toMatchObject({ kind: 'otherUser', unsynced: 1 });
      expect(await readStatus(a.db)).toMatchObject({ paused: 'otherUser', pendingCount: 1 });
      expect(await claimStore(a.db, owner('anna', annaId))).toEqual({ kind: 'mine' });
      expect(await readStatus(a.db)).toMatchObject({ paused: null, pendingCount: 1 });
    });

    it('when Anna logs in again her edit goes out; when her data is discarded instead, Ben gets a store of his own', async () => {
      const { a } = await sharedDevice();
      const again = makeClient(server, 'a2', await login(server, email('anna')), { dbName: a.db.name, engine: { user: owner('anna', annaId) } });
      await again.engine.flush();
      expect((await serverClip())['Title']).toBe('Anna’s unsent title');
      expect(await again.db.outbox.count()).toBe(0);
      again.engine.stop();

      const { b } = await sharedDevice();
      await resetLocalData(b.db);
      await b.engine.resume();
      expect(await readStatus(b.db)).toMatchObject({ paused: null, pendingCount: 0 });
      expect((await b.db.syncState.get('owner'))?.value).toEqual(owner('ben', benId));
      expect((await serverClip())['Title']).toBe('Anna’s unsent title'); // her second edit was discarded, not sent
      expect((await b.db.clips.get(clipId))?.['Title']).toBe('Anna’s unsent title');
    });
  });

  it('a page pulled while another tab’s stopped engine made its organization the store’s is not stored, and the engine tries again', async () => {
    // As when one tab takes the sync lock from another (workers/sync/sync.worker.ts claim): the
    // stopped engine's last step writes its organization after the new engine began its pull.
    const cookie = await login(server, email('anna'));
    const toServer = appTransport(server, () => cookie);
    let meddled = false;
    const a: Client = makeClient(server, 'a', cookie, {
      transport: async (url, init) => {
        const res = await toServer(url, init);
        if (!meddled && url.startsWith('/api/sync/pull')) {
          meddled = true;
          await setCurrentOrganization(a.db, '00000000-0000-4000-8000-0000000000ff');
        }
        return res;
      },
    });
    await a.engine.flush();
    expect(meddled).toBe(true);
    await vi.waitFor(async () => expect(await a.db.clips.get(clipId)).toMatchObject({ Title: 'Pilot' }));
    expect(await a.db.syncState.get('organizationId')).toMatchObject({ value: server.organizationId });
  });

  it('edits made in one organization wait while another is synced, and go out on return', async () => {
    const a = await device('a', email('anna'));
    await a.writes.updateClip(clipId, { Title: 'Made in the first organization' });
    const first = server.organizationId;
    const second = await server.newOrganization();
    await server.store.query(
      `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version) VALUES ($1, $2, $3, now(), now(), next_row_version())`,
      [second, annaId, JSON.stringify([{ ObjectType: 'Organization', ObjectId: second, Permissions: ALL_FLAGS }])],
    );
    const inSecond = makeClient(server, 'a2', a.cookie, { dbName: a.db.name });
    await inSecond.engine.flush();
    expect((await inSecond.db.organizations.toArray()).map((o) => o.Id)).toEqual([second]);
    expect(await inSecond.db.outbox.count()).toBe(1);
    server.organizationId = first;
    const back = makeClient(server, 'a3', a.cookie, { dbName: a.db.name });
    await back.engine.flush();
    expect(await back.db.outbox.count()).toBe(0);
    expect((await serverClip())['Title']).toBe('Made in the first organization');
    expect(await back.db.needsAttention.count()).toBe(0);
  });

  it('a cut saved offline is sent as clip.saveCut and shown as pending until then', async () => {
    const a = await device('a', email('anna'));
    const edit = { KeptRegions: [{ StartSeconds: 0, EndSeconds: 12.5 }], CrossfadeMs: 20 };
    await a.writes.saveClipCut(clipId, edit);
    expect((await a.db.clips.get(clipId))?.['PendingCut']).toEqual(edit);
    expect((await a.db.outbox.toArray())[0]).toMatchObject({ name: 'clip.saveCut', args: { clipId, cut: edit }, base: null });
    await a.engine.flush();
    expect(await a.db.outbox.count()).toBe(0);
    expect(await a.db.needsAttention.count()).toBe(0);
    expect((await a.db.clips.get(clipId))?.['PendingCut']).toBeUndefined();
    expect((await api(server, annaCookie, 'GET', `/internal/clips/${clipId}/cut`)).json).toEqual(edit);
  });

  it('a push answers every mutation it carries: one no store can keep (a NUL, half a surrogate pair, a wrong type, an unknown name) is refused naming its field, the others apply', async () => {
    const m = (name: string, args: Record<string, unknown>) => ({ id: crypto.randomUUID(), name, args, base: null, createdAt: Date.now() });
    const mutations = [
      m('clip.update', { clipId, fields: { Title: 'Before the bad ones' } }),
      m('clip.update', { clipId, fields: { Title: 'a\u0000b' } }),
      m('clip.update', { clipId, fields: { Description: 'half \ud800 a pair' } }),
      m('clip.update', { clipId, fields: { Season: 'two' } }),
      m('clip.rename', { clipId }),
      m('clip.update', { clipId, fields: { Description: 'Ünïcode, composed: e\u0301' } }),
    ];
    const { results } = (await push(annaCookie, mutations)) as unknown as { results: Array<{ mutationId: string; status: string; httpStatus?: number; errors?: Array<{ Field: string; Code: string }> }> };
    expect(results.map((r) => r.mutationId)).toEqual(mutations.map((x) => x.id));
    expect(results.map((r) => r.status)).toEqual(['applied', 'rejected', 'rejected', 'rejected', 'rejected', 'applied']);
    expect(results.slice(1, 5).map((r) => [r.httpStatus, r.errors?.map((e) => [e.Field, e.Code])])).toEqual([
      [400, [['Title', 'invalidText']]],
      [400, [['Description', 'invalidText']]],
      [400, [['Season', 'invalid']]],
      [400, [['name', 'invalid']]],
    ]);
    // Strings are kept as the REST body reader keeps them: in Unicode normal form C.
    expect((await serverClip())['Description']).toBe('Ünïcode, composed: \u00e9');
  });

  it('a bad push envelope is a 400 with an Errors body', async () => {
    const xsrf = ((await (await server.app.request('/api/internal/session/xsrf', { headers: { cookie: annaCookie } })).json()) as { XsrfToken: string }).XsrfToken;
    const res = await server.app.request('/api/sync/push', {
      method: 'POST',
      headers: { cookie: annaCookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
      body: JSON.stringify({ protocolVersion: 1, clientId: 'nope', mutations: [] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['clientId', 'mutations']);
  });
});
