// A device that queued edits with the earlier release (protocol 1: each a queued API call) and then
// updates: its database is upgraded (src/db/db.ts, version 3) and every pending edit still
// reaches the server, as the named mutation it was, with nothing lost on the way.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalDb, SCHEMA_VERSIONS } from '../../src/db/db.ts';
import { createSyncEngine } from '../../workers/sync/engine.ts';
import { addUser, api, appTransport, login, makeClient, startServer, type Server } from './harness.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('an outbox written by the earlier release', () => {
  it('is converted to named mutations when the device updates, and flushes: every edit arrives', async () => {
    await server.newOrganization();
    const annaId = await addUser(server, 'anna.upgrade@example.com');
    const cookie = await login(server, 'anna.upgrade@example.com');
    const programId = (await api(server, cookie, 'POST', '/v1/programs', { Name: 'Morning Show' })).json!['Id'] as string;
    const clip = (await api(server, cookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'Pilot' })).json!;
    const gone = (await api(server, cookie, 'POST', `/v1/programs/${programId}/clips`, { Title: 'To delete' })).json!;
    const playlistId = (await api(server, cookie, 'POST', `/v1/programs/${programId}/playlists`, { Title: 'Feed' })).json!['Id'] as string;
    const clipId = clip['Id'] as string;

    // The earlier release's database (versions 1 and 2), synced once by it.
    const dbName = `upgrade-${process.pid}-${Date.now()}`;
    const earlier = openLocalDb(dbName, SCHEMA_VERSIONS.slice(0, 2));
    const engine = createSyncEngine({ db: earlier, organizationId: server.organizationId, transport: appTransport(server, () => cookie), baseBackoffMs: 1, maxBackoffMs: 5 });
    await engine.flush();
    engine.stop();
    expect(await earlier.clips.count()).toBe(2);

    // What that release's writes.ts queued, word for word: API calls with their bases.
    const created = crypto.randomUUID();
    const stamp = { attempts: 0, organizationId: server.organizationId, userId: annaId };
    const at = Date.now();
    const queued = [
      { entity: 'clips', entityId: clipId, method: 'PATCH', path: `/v1/clips/${clipId}`, body: { Title: 'Edited before the update' }, baseModifiedAtUtc: clip['ModifiedAtUtc'] },
      { entity: 'clips', entityId: created, method: 'POST', path: `/v1/programs/${programId}/clips`, body: { Title: 'Made offline', Id: created }, baseModifiedAtUtc: null },
      { entity: 'playlists', entityId: playlistId, method: 'PATCH', path: `/v1/playlists/${playlistId}/clips`, body: { ClipIds: [created, clipId] }, baseModifiedAtUtc: null },
      { entity: 'clips', entityId: clipId, method: 'PUT', path: `/internal/clips/${clipId}/cut`, body: { KeptRegions: [{ StartSeconds: 1, EndSeconds: 4 }], CrossfadeMs: 10 }, baseModifiedAtUtc: null },
      { entity: 'clips', entityId: gone['Id'], method: 'DELETE', path: `/v1/clips/${gone['Id']}`, body: null, baseModifiedAtUtc: gone['ModifiedAtUtc'] },
    ].map((m, i) => ({ id: crypto.randomUUID(), createdAt: at + i, ...m, ...stamp }));
    await earlier.table('outbox').bulkAdd(queued);
    // A refused edit the user has not looked at yet, kept as that release kept it.
    const refused = { id: crypto.randomUUID(), entity: 'clips', entityId: clipId, method: 'PATCH', path: `/v1/clips/${clipId}`, body: { Slug: 'Not A Slug' }, baseModifiedAtUtc: null, createdAt: at };
    await earlier.table('needsAttention').add({ id: refused.id, entity: 'clips', entityId: clipId, mutation: refused, httpStatus: 400, errors: [{ Field: 'Slug', Code: 'invalid', Message: 'x' }], createdAt: at });
    earlier.close();

    // The new release opens the same database: upgraded, then it syncs.
    const device = makeClient(server, 'anna', cookie, { dbName });
    const outbox = await device.db.outbox.orderBy('seq').toArray();
    expect(outbox.map((m) => [m.id, m.name, m.base])).toEqual([
      [queued[0]!.id, 'clip.update', clip['ModifiedAtUtc']],
      [queued[1]!.id, 'clip.create', null],
      [queued[2]!.id, 'playlist.setClips', null],
      [queued[3]!.id, 'clip.saveCut', null],
      [queued[4]!.id, 'clip.delete', gone['ModifiedAtUtc']],
    ]);
    expect(outbox[1]!.args).toEqual({ programId, clipId: created, fields: { Title: 'Made offline' } });
    expect((await device.db.needsAttention.get(refused.id))?.mutation).toMatchObject({ name: 'clip.update', args: { clipId, fields: { Slug: 'Not A Slug' } } });

    await device.engine.flush();
    expect(await device.db.outbox.count()).toBe(0);
    expect(await device.db.needsAttention.count()).toBe(1);
    expect((await api(server, cookie, 'GET', `/v1/clips/${clipId}`)).json).toMatchObject({ Title: 'Edited before the update' });
    expect((await api(server, cookie, 'GET', `/v1/clips/${created}`)).json).toMatchObject({ Title: 'Made offline', CreatedById: annaId });
    expect((await api(server, cookie, 'GET', `/v1/playlists/${playlistId}`)).json).toMatchObject({ ClipIds: [created, clipId] });
    expect((await api(server, cookie, 'GET', `/internal/clips/${clipId}/cut`)).json).toEqual({ KeptRegions: [{ StartSeconds: 1, EndSeconds: 4 }], CrossfadeMs: 10 });
    expect((await api(server, cookie, 'GET', `/v1/clips/${gone['Id']}`)).status).toBe(404);
    device.engine.stop();
  });
});
