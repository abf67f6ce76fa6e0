import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalDb, SCHEMA_VERSIONS, type CastawayDb } from './db.ts';
import { createWrites } from './writes.ts';
import { applyPullPage, applyPushResults, computeStatus, readBatch, setCurrentOrganization } from './sync-store.ts';
import { conflictsApi, needsAttentionApi } from './conflicts.ts';
import { oldestUnsyncedEdit } from './owner.ts';

const ORG = '00000000-0000-4000-8000-000000000001';
const PROGRAM = '00000000-0000-4000-8000-000000000002';
const CLIP = '00000000-0000-4000-8000-000000000003';
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';

let n = 0;
const opened: CastawayDb[] = [];
function freshDb(): CastawayDb {
  const d = openLocalDb(`test-${Date.now()}-${n++}`);
  opened.push(d);
  return d;
}
afterEach(async () => {
  for (const d of opened.splice(0)) {
    d.close();
    await d.delete();
  }
});

const clip = (over: Record<string, unknown> = {}) => ({ Id: CLIP, OrganizationId: ORG, ProgramId: PROGRAM, Title: 'Pilot', Description: 'd', Tags: [], Deleted: false, ModifiedAtUtc: T0, Version: 5, ...over });

async function seeded() {
  const d = freshDb();
  await applyPullPage(d, {
    cursor: 'c1',
    rows: [
      { entity: 'programs', row: { Id: PROGRAM, OrganizationId: ORG, Name: 'Show', ModifiedAtUtc: T0, Version: 1 } },
      { entity: 'clips', row: clip() },
    ],
    tombstones: [],
    hasMore: false,
    rebuild: false,
    permissions: [{ ObjectType: 'Organization', ObjectId: ORG, Permissions: { HasContentAccess: true } }],
  });
  return d;
}

describe('local writes', () => {
  it('an edit shows at once and is queued with its base ModifiedAtUtc in the same transaction', async () => {
    const d = await seeded();
    const w = createWrites(d);
    await w.updateClip(CLIP, { Title: 'Mine', ModifiedAtUtc: 'ignored' });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Mine');
    const [m] = await readBatch(d, 10);
    expect(m).toMatchObject({ entity: 'clips', entityId: CLIP, name: 'clip.update', args: { clipId: CLIP, fields: { Title: 'Mine' } }, base: T0 });
  });

  it('a clip created offline has a client UUID, can be edited and deleted before it syncs', async () => {
    const d = await seeded();
    const w = createWrites(d);
    const id = await w.createClip(PROGRAM, { Title: 'New' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await w.updateClip(id, { Title: 'Newer' });
    expect(await d.clips.get(id)).toMatchObject({ Id: id, ProgramId: PROGRAM, Title: 'Newer', Deleted: false });
    await w.deleteClip(id);
    expect(await d.clips.get(id)).toBeUndefined();
    expect((await readBatch(d, 10)).map((m) => m.name)).toEqual(['clip.create', 'clip.update', 'clip.delete']);
  });

  it('a clip created offline is dated by the edit until the server row arrives, so lists sorted by date can place it', async () => {
    const d = await seeded();
    const before = new Date().toISOString();
    const id = await createWrites(d).createClip(PROGRAM, { Title: null });
    const row = await d.clips.get(id);
    expect(typeof row?.['CreatedAtUtc']).toBe('string');
    expect(row?.['CreatedAtUtc'] as string >= before).toBe(true);
    expect(row?.['ModifiedAtUtc']).toBe(row?.['CreatedAtUtc']);
    // Every field the server gives a new clip, so the clip screen has what it reads before the sync.
    expect(row).toMatchObject({ State: 'Draft', Visibility: 'Private', Tags: [], Urls: { AudioPrivateUrl: null, WaveformHighResUrl: null } });
  });

  it('editing a row that is not in the local store fails and queues nothing', async () => {
    const d = await seeded();
    const absent = '00000000-0000-4000-8000-0000000000ff';
    await expect(createWrites(d).updateClip(absent, { Title: 'x' })).rejects.toThrow(`clips ${absent} is not in the local store`);
    expect(await d.outbox.count()).toBe(0);
  });

  it('the first local edit asks for persistent storage once', async () => {
    const d = await seeded();
    let asked = 0;
    const w = createWrites(d, { onFirstEdit: () => asked++ });
    await w.updateClip(CLIP, { Title: 'a' });
    await w.updateClip(CLIP, { Title: 'b' });
    expect(asked).toBe(1);
  });
});

describe('rebase', () => {
  it('a pulled row with a pending edit is stored with the edit re-applied, the server copy kept', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: 'Mine' });
    await applyPullPage(d, { cursor: 'c2', rows: [{ entity: 'clips', row: clip({ Description: 'theirs', ModifiedAtUtc: T1, Version: 9 }) }], tombstones: [], hasMore: false, rebuild: false, permissions: [] });
    expect(await d.clips.get(CLIP)).toMatchObject({ Title: 'Mine', Description: 'theirs' });
    expect((await d.shadows.get(`clips:${CLIP}`))?.row).toMatchObject({ Title: 'Pilot', Description: 'theirs' });
  });

  it('an older pulled copy never replaces a newer one', async () => {
    const d = await seeded();
    await applyPullPage(d, { cursor: 'c2', rows: [{ entity: 'clips', row: clip({ Title: 'Old', Version: 2 }) }], tombstones: [], hasMore: false, rebuild: false, permissions: [] });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Pilot');
  });

  it('a rebuild drops synced rows but keeps the outbox and rows created offline', async () => {
    const d = await seeded();
    const w = createWrites(d);
    await w.updateClip(CLIP, { Title: 'Mine' });
    const created = await w.createClip(PROGRAM, { Title: 'Offline' });
    await applyPullPage(d, { cursor: 'c3', rows: [], tombstones: [], hasMore: false, rebuild: true, permissions: [] });
    expect(await d.programs.count()).toBe(0);
    expect(await d.clips.get(CLIP)).toBeUndefined();
    expect((await d.clips.get(created))?.['Title']).toBe('Offline');
    expect(await d.outbox.count()).toBe(2);
    await applyPullPage(d, { cursor: 'c4', rows: [{ entity: 'clips', row: clip() }], tombstones: [], hasMore: false, rebuild: false, permissions: [] });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Mine');
  });
});

describe('permissions pulled', () => {
  const page = (permissions: Array<{ ObjectType: 'Organization' | 'Program'; ObjectId: string; Permissions: Record<string, boolean> }>, rebuild = false) =>
    ({ cursor: 'c', rows: [], tombstones: [], hasMore: false, rebuild, permissions });
  const changedAt = async (d: CastawayDb) => (await d.syncState.get('permissionsChangedAt'))?.value;

  it('the first download stores them without saying they changed; a later change (a right taken away) says when', async () => {
    const d = freshDb();
    await applyPullPage(d, page([{ ObjectType: 'Program', ObjectId: PROGRAM, Permissions: { HasContentAccess: true } }]), { initial: true });
    expect(await changedAt(d)).toBeUndefined();
    await applyPullPage(d, page([{ ObjectType: 'Program', ObjectId: PROGRAM, Permissions: { HasContentAccess: true } }]));
    expect(await changedAt(d)).toBeUndefined();
    const before = Date.now();
    await applyPullPage(d, page([], true));
    expect(await changedAt(d)).toBeGreaterThanOrEqual(before);
    expect(await d.permissions.count()).toBe(0);
  });
});

describe('answers for an organization the device no longer keeps', () => {
  // A tab whose sync lock another tab took for its organization may still be storing a page or a
  // push answer of the organization it synced (workers/sync/sync.worker.ts claim).
  const OTHER = '00000000-0000-4000-8000-0000000000ff';

  it('a pulled page is not stored: no rows, the cursor stays', async () => {
    const d = await seeded();
    await setCurrentOrganization(d, OTHER);
    await applyPullPage(d, { cursor: 'c9', rows: [{ entity: 'clips', row: clip({ Title: 'From the other organization', Version: 9 }) }], tombstones: [], hasMore: false, rebuild: false, permissions: [] }, { organizationId: ORG });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Pilot');
    expect(await d.syncState.get('cursor')).toMatchObject({ value: 'c1' });
    // For the organization it keeps, the same page is stored.
    await setCurrentOrganization(d, ORG);
    await applyPullPage(d, { cursor: 'c9', rows: [{ entity: 'clips', row: clip({ Title: 'From the other organization', Version: 9 }) }], tombstones: [], hasMore: false, rebuild: false, permissions: [] }, { organizationId: ORG });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('From the other organization');
  });

  it('a push answer is not stored: the edit stays queued, to be answered again when its organization is synced', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: 'Mine' });
    const [m] = await readBatch(d, 10);
    await setCurrentOrganization(d, OTHER);
    await applyPushResults(d, [{ mutationId: m!.id, status: 'applied', row: clip({ Title: 'Mine', ModifiedAtUtc: T1, Version: 9 }) }], [m!], Date.now(), ORG);
    expect(await d.outbox.count()).toBe(1);
    expect(await d.clips.get(CLIP)).toMatchObject({ Title: 'Mine', Version: 5 });
  });
});

describe('push results', () => {
  it('applied removes the mutation and stores the server row; status counts drop to zero', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: 'Mine' });
    const [m] = await readBatch(d, 10);
    await applyPushResults(d, [{ mutationId: m!.id, status: 'applied', row: clip({ Title: 'Mine', ModifiedAtUtc: T1, Version: 9 }) }], [m!]);
    expect(await d.clips.get(CLIP)).toMatchObject({ Title: 'Mine', ModifiedAtUtc: T1 });
    expect(await d.shadows.count()).toBe(0);
    const status = await computeStatus(d, { online: true, paused: null, lastSyncedAt: 1, lastError: null, storageFull: false });
    expect(status).toMatchObject({ pendingCount: 0, conflictCount: 0, needsAttentionCount: 0, oldestPendingAgeMs: null });
  });

  it('an applied patch is laid over the server copy it was written on; the next edit of the row gets its ModifiedAtUtc as base', async () => {
    const d = await seeded();
    const writes = createWrites(d);
    await writes.updateClip(CLIP, { Title: 'Mine' });
    await writes.updateClip(CLIP, { Description: 'Later' });
    const [first, second] = await readBatch(d, 10);
    expect(second!.base).toBe(T0);
    await applyPushResults(d, [{ mutationId: first!.id, status: 'applied', patch: { fromVersion: 5, fields: { Title: 'Mine', ModifiedAtUtc: T1, Version: 9 } } }], [first!]);
    // The server copy is the pulled row with the patch over it; the pending Description stays on top.
    expect((await d.shadows.toArray())[0]!.row).toEqual(clip({ Title: 'Mine', ModifiedAtUtc: T1, Version: 9 }));
    expect(await d.clips.get(CLIP)).toEqual(clip({ Title: 'Mine', Description: 'Later', ModifiedAtUtc: T1, Version: 9 }));
    expect((await readBatch(d, 10)).map((m) => m.base)).toEqual([T1]);
  });

  it('a patch over a Version the device does not hold is not laid over another copy: the edit shows until the next pull', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: 'Mine' });
    const [m] = await readBatch(d, 10);
    await applyPushResults(d, [{ mutationId: m!.id, status: 'applied', patch: { fromVersion: 7, fields: { Title: 'Mine', Season: 4, ModifiedAtUtc: T1, Version: 9 } } }], [m!]);
    const row = await d.clips.get(CLIP);
    expect(row).toMatchObject({ Title: 'Mine', ModifiedAtUtc: T0, Version: 5 });
    expect(row).not.toHaveProperty('Season');
    expect(await d.outbox.count()).toBe(0);
  });

  it('a patch to a Version older than the copy the device holds leaves that copy', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: 'Mine' });
    const [m] = await readBatch(d, 10);
    // Our write became Version 9; someone else's title over it, Version 12, was pulled before the
    // push answer came.
    const theirs = clip({ Title: 'Theirs', ModifiedAtUtc: T1, Version: 12 });
    await applyPullPage(d, { cursor: 'c2', rows: [{ entity: 'clips', row: theirs }], tombstones: [], hasMore: false, rebuild: false, permissions: [] });
    await applyPushResults(d, [{ mutationId: m!.id, status: 'applied', patch: { fromVersion: 5, fields: { Title: 'Mine', ModifiedAtUtc: '2026-01-01T00:00:00.500Z', Version: 9 } } }], [m!]);
    expect(await d.clips.get(CLIP)).toEqual(theirs);
    expect(await d.shadows.count()).toBe(0);
  });

  it('a rejected mutation goes to needs attention with the errors and the row shows the server copy', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: '' });
    const [m] = await readBatch(d, 10);
    const errors = [{ Field: 'Title', Code: 'required', Message: 'Title is required' }];
    await applyPushResults(d, [{ mutationId: m!.id, status: 'rejected', httpStatus: 400, errors }], [m!]);
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Pilot');
    expect(await d.needsAttention.get(m!.id)).toMatchObject({ httpStatus: 400, errors });
  });

  it('a conflict keeps the user values visible; keepTheirs shows the server values and queues nothing', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: 'Mine' });
    const [m] = await readBatch(d, 10);
    const serverRow = clip({ Title: 'Theirs', ModifiedAtUtc: T1, Version: 9 });
    await applyPushResults(d, [{ mutationId: m!.id, status: 'conflict', serverRow, fields: [{ field: 'Title', base: 'Pilot', mine: 'Mine', theirs: 'Theirs' }] }], [m!]);
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Mine');
    expect(await d.outbox.count()).toBe(0);
    await conflictsApi(d).keepTheirs(m!.id);
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Theirs');
    expect(await d.conflicts.count()).toBe(0);
    expect(await d.outbox.count()).toBe(0);
  });

  it('keepMine and resolveFields queue a new mutation on the new base', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Title: 'Mine', Description: 'mine' });
    const [m] = await readBatch(d, 10);
    const serverRow = clip({ Title: 'Theirs', Description: 'theirs', ModifiedAtUtc: T1, Version: 9 });
    const fields = [
      { field: 'Title', base: 'Pilot', mine: 'Mine', theirs: 'Theirs' },
      { field: 'Description', base: 'd', mine: 'mine', theirs: 'theirs' },
    ];
    await applyPushResults(d, [{ mutationId: m!.id, status: 'conflict', serverRow, fields }], [m!]);
    await conflictsApi(d).resolveFields(m!.id, { Title: 'mine', Description: 'theirs' });
    const [next] = await readBatch(d, 10);
    expect(next).toMatchObject({ name: 'clip.update', args: { clipId: CLIP, fields: { Title: 'Mine' } }, base: T1 });
    expect(await d.clips.get(CLIP)).toMatchObject({ Title: 'Mine', Description: 'theirs' });
    await expect(conflictsApi(d).keepMine(m!.id)).rejects.toThrow('no longer exists');
  });
});

describe('pulled pages', () => {
  const page = (rows: Array<Record<string, unknown>>) => ({
    cursor: 'c2',
    rows: rows.map((row) => ({ entity: 'clips' as const, row: row as { Id: string } })),
    tombstones: [],
    hasMore: false,
    rebuild: false,
    permissions: [{ ObjectType: 'Organization' as const, ObjectId: ORG, Permissions: { HasContentAccess: true } }],
  });
  const many = (n: number, version: number) =>
    Array.from({ length: n }, (_, i) => clip({ Id: `00000000-0000-4000-8000-${String(1000 + i).padStart(12, '0')}`, Title: `Clip ${i}`, Version: version }));

  // A push result can store a row newer than a page read before it; the page must not undo it,
  // for small pages (rows read back) and large ones (the table's keys read instead).
  for (const size of [3, 500]) {
    it(`a page of ${size} rows keeps a newer local row and stores the rest`, async () => {
      const d = await seeded();
      const rows = many(size, 10);
      const kept = { ...rows[1]!, Title: 'Newer, from a push result', Version: 20 };
      await d.clips.put(kept);
      await applyPullPage(d, page(rows));
      expect(await d.clips.get(kept.Id as string)).toMatchObject({ Title: 'Newer, from a push result', Version: 20 });
      expect(await d.clips.get(rows[0]!.Id as string)).toMatchObject({ Title: 'Clip 0', Version: 10 });
      expect(await d.clips.count()).toBe(size + 1);
    });
  }

  for (const size of [3, 500]) {
    it(`a page of ${size} rows does not write again a row the device holds as it is, and writes one whose PlaylistIds changed at the same Version`, async () => {
      const d = await seeded();
      const rows = many(size, 10).map((r) => ({ ...r, PlaylistIds: [] }));
      await applyPullPage(d, page(rows));
      const written: string[] = [];
      d.clips.hook('creating', (id) => void written.push(String(id)));
      d.clips.hook('updating', (_changes, id) => void written.push(String(id)));
      const inPlaylist = { ...rows[0]!, PlaylistIds: ['00000000-0000-4000-8000-0000000000aa'] };
      await applyPullPage(d, page([inPlaylist, ...rows.slice(1)]));
      expect(written).toEqual([inPlaylist.Id]);
      expect(await d.clips.get(inPlaylist.Id as string)).toMatchObject({ PlaylistIds: inPlaylist.PlaylistIds, Version: 10 });
    });
  }

  it("the organization's recently changed clips come newest first from the compound index", async () => {
    const d = await seeded();
    await applyPullPage(d, page(many(20, 10).map((r, i) => ({ ...r, ModifiedAtUtc: `2026-02-${String(i + 1).padStart(2, '0')}T00:00:00.000Z` }))));
    const recent = await d.clips.where('[OrganizationId+ModifiedAtUtc]').between([ORG, ''], [ORG, '\uffff']).reverse().limit(3).toArray();
    expect(recent.map((r) => r['Title'])).toEqual(['Clip 19', 'Clip 18', 'Clip 17']);
  });
});

describe('schema upgrades', () => {
  it('a new schema version keeps the outbox', async () => {
    const name = `upgrade-${Date.now()}`;
    const v1 = openLocalDb(name);
    await v1.clips.put(clip());
    await createWrites(v1).updateClip(CLIP, { Title: 'Mine' });
    v1.close();
    const v2 = openLocalDb(name, [...SCHEMA_VERSIONS, { version: 99, stores: { clips: 'Id, OrganizationId, ProgramId, ModifiedAtUtc, Title' } }]);
    opened.push(v2);
    expect((await readBatch(v2, 10)).map((m) => m.args)).toEqual([{ clipId: CLIP, fields: { Title: 'Mine' } }]);
  });
});

describe('needs attention', () => {
  it('retry queues the same change again as a new mutation on the current base; dismiss forgets it', async () => {
    const d = await seeded();
    await createWrites(d).updateClip(CLIP, { Episode: -1 });
    const [m] = await readBatch(d, 10);
    await applyPushResults(d, [{ mutationId: m!.id, status: 'rejected', httpStatus: 400, errors: [] }], [m!]);
    const api = needsAttentionApi(d);
    await api.retry(m!.id);
    const [again] = await readBatch(d, 10);
    expect(again).toMatchObject({ name: 'clip.update', args: { clipId: CLIP, fields: { Episode: -1 } }, base: T0 });
    expect(again!.id).not.toBe(m!.id);
    expect((await d.clips.get(CLIP))?.['Episode']).toBe(-1);
    await applyPushResults(d, [{ mutationId: again!.id, status: 'rejected', httpStatus: 400, errors: [] }], [again!]);
    await api.dismiss(again!.id);
    expect(await d.needsAttention.count()).toBe(0);
    await expect(api.retry(again!.id)).rejects.toThrow('no longer exists');
  });
});

describe('the oldest edit not on the server', () => {
  it('counts a conflict and a refused edit, not only the queue: nothing to lose only when all three are empty', async () => {
    const d = await seeded();
    expect(await oldestUnsyncedEdit(d)).toBeNull();
    const writes = createWrites(d);
    await writes.updateClip(CLIP, { Title: 'Mine' });
    const [m] = await readBatch(d, 10);
    expect(await oldestUnsyncedEdit(d)).toBe(m!.createdAt);
    // The server answers with a conflict: the edit leaves the queue and waits for a decision.
    await applyPushResults(d, [{ mutationId: m!.id, status: 'conflict', serverRow: clip({ Title: 'Theirs', ModifiedAtUtc: T1, Version: 9 }), fields: [{ field: 'Title', base: 'Pilot', mine: 'Mine', theirs: 'Theirs' }] }], [m!]);
    expect(await d.outbox.count()).toBe(0);
    expect(await oldestUnsyncedEdit(d)).toBe(m!.createdAt);
    await conflictsApi(d).keepTheirs(m!.id);
    expect(await d.outbox.count()).toBe(0);
    expect(await oldestUnsyncedEdit(d)).toBeNull();
    await writes.updateClip(CLIP, { Episode: -1 });
    const [refused] = await readBatch(d, 10);
    await applyPushResults(d, [{ mutationId: refused!.id, status: 'rejected', httpStatus: 400, errors: [] }], [refused!]);
    expect(await d.outbox.count()).toBe(0);
    expect(await oldestUnsyncedEdit(d)).toBe(refused!.createdAt);
  });
});
