// The embedded store's sorts stay in memory for a full pull page: PGlite writes temporary files
// through Node's synchronous file calls, on the thread that serves every request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow, bulkInsert } from '../../sync-server/rows.ts';
import { pullPage } from '../../sync-server/sync/pull.ts';
import { PULL_PAGE_CAP } from '../../workers/sync/engine.ts';
import { sizedClipFields } from './sized-clips.ts';
import { openTestStore, type TestStore } from './test-store.ts';

describe('PGlite work_mem', () => {
  let t: TestStore;
  const organizationId = randomUUID();
  beforeAll(async () => {
    t = await openTestStore('pglite');
    const now = new Date();
    const programId = randomUUID();
    await t.store.tx(async (q) => {
      await insertRow(q, 'organization', organizationId, { organizationId, userId: null, now }, { Name: 'Work mem FM', IsDemoOrganization: false, Provider: 'Podcaster' });
      await bulkInsert(q, 'program', organizationId, [{ id: programId, createdById: null, createdAt: now, modifiedAt: now, fields: { Name: 'Show', NetworkId: null, Slug: null } }]);
      // A full page of the sync worker's of clips as bench:sync seeds them (~2 KB as stored, just
      // under the size PostgreSQL compresses a row's data at, so the sorts carry it whole).
      await bulkInsert(q, 'clip', organizationId, Array.from({ length: PULL_PAGE_CAP }, (_, i) => {
        const id = randomUUID();
        return { id, createdById: null, createdAt: now, modifiedAt: now, fields: sizedClipFields(id, programId, i, now) };
      }));
    });
  }, 120_000);
  afterAll(() => t?.drop());

  it('a full pull page is sorted without temporary files', async () => {
    const temp = async () => {
      await t.store.query('SELECT pg_stat_force_next_flush()');
      const [row] = await t.store.query<{ files: number | string }>(`SELECT temp_files AS files FROM pg_stat_database WHERE datname = current_database()`);
      return Number(row!.files);
    };
    const before = await temp();
    const page = await pullPage(t.store, {
      organizationId, userId: randomUUID(), cursor: undefined, limit: PULL_PAGE_CAP,
      permissions: [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: { HasContentAccess: true } }],
    });
    expect(page.rows.filter((r) => r.entity === 'clips')).toHaveLength(PULL_PAGE_CAP);
    expect(await temp()).toBe(before);
  });
});
