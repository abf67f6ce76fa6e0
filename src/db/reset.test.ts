import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalDb, type CastawayDb } from './db.ts';
import { resetLocalData } from './reset.ts';

const opened: Dexie[] = [];
afterEach(async () => {
  for (const d of opened.splice(0)) await d.delete();
});

function dexie(name: string, stores: Record<string, string>): Dexie {
  const d = new Dexie(name);
  d.version(1).stores(stores);
  opened.push(d);
  return d;
}

describe('resetLocalData (log-out on a shared device)', () => {
  it('leaves no row of the user in the local store or in any other castaway database', async () => {
    const main: CastawayDb = openLocalDb('castaway-reset-main');
    opened.push(main);
    await main.clips.put({ Id: 'c1', OrganizationId: 'o1', ProgramId: 'p1', ModifiedAtUtc: '2025-01-01T00:00:00.000Z', Version: 1 } as never);
    await main.outbox.add({ id: 'm1', entity: 'clips', entityId: 'c1', name: 'clip.update', args: { clipId: 'c1', fields: { Title: 'x' } }, base: null, createdAt: 1 });
    await main.syncState.put({ key: 'cursor', value: '12.abc' });
    const uploads = dexie('castaway-reset-uploads', { uploads: 'id' });
    await uploads.table('uploads').put({ id: 'u1', fileName: 'take.wav' });
    const unrelated = dexie('another-app', { things: 'id' });
    await unrelated.table('things').put({ id: 't1' });

    await resetLocalData(main);

    for (const table of main.tables) expect(await table.count(), table.name).toBe(0);
    expect(await uploads.table('uploads').count()).toBe(0);
    // Only the studio's own databases are touched.
    expect(await unrelated.table('things').count()).toBe(1);
    // The store still works for the next user (tables cleared, not deleted).
    await main.clips.put({ Id: 'c2', OrganizationId: 'o2', ProgramId: 'p2', ModifiedAtUtc: '2025-01-02T00:00:00.000Z', Version: 2 } as never);
    expect(await main.clips.count()).toBe(1);
  });
});
