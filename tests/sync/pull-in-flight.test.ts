// A pull never moves its cursor past a row whose writing transaction is still open.
//
// Versions come from one sequence, but transactions commit in any order: a clip written with
// Version 100 in a slow transaction can commit after a clip with Version 101. A pull that saw 101
// and moved its cursor there would never send 100 to anyone. PostgreSQL only: PGlite has one
// connection, so a second write cannot commit while the first transaction is open (its per-table
// reads are covered by the same settled-Version bound, which this test would not tell apart).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../../sync-server/rows.ts';
import { pull } from '../../sync-server/sync/pull.ts';
import { allPermissions } from '../../src/domain/permissions.ts';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';

let t: TestStore;
const organizationId = randomUUID();
const programId = randomUUID();
const userId = randomUUID();
const permissions = [{ ObjectType: 'Organization' as const, ObjectId: organizationId, Permissions: allPermissions() }];
const clip = (Title: string) => ({ ...clipDefaults(), ProgramId: programId, Title });
const ctx = () => ({ organizationId, userId: null, now: new Date() });

beforeAll(async () => {
  t = await openTestStore('postgres');
  await t.store.tx(async (q) => {
    await insertRow(q, 'organization', organizationId, ctx(), { Name: 'Castaway FM', IsDemoOrganization: false, Provider: 'Podcaster' });
    await insertRow(q, 'program', programId, ctx(), { Name: 'Morning Show', NetworkId: null });
  });
});
afterAll(async () => {
  await t.drop();
});

const pullFrom = (cursor: string | undefined) => pull(t.store, { organizationId, userId, permissions, cursor, limit: 1000 });

describe('pull and transactions still in flight (PostgreSQL)', () => {
  it('a clip whose transaction commits after a later Version is still pulled', async () => {
    const first = await pullFrom(undefined);

    // A slow transaction takes its Version, then waits before committing.
    const slowId = randomUUID();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const slow = t.store.tx(async (q) => {
      await insertRow(q, 'clip', slowId, ctx(), clip('Written first, committed last'));
      written();
      await gate;
    });
    await wrote;

    // A quick one takes the next Version and commits at once.
    const quickId = randomUUID();
    const quick = await t.store.tx((q) => insertRow(q, 'clip', quickId, ctx(), clip('Written second')));

    // A pull starts while the slow transaction is open; the slow one commits a moment later.
    const during = pullFrom(first.cursor);
    await new Promise((resolve) => setTimeout(resolve, 150));
    release();
    await slow;
    const second = await during;
    const third = await pullFrom(second.cursor);

    const seen = [...second.rows, ...third.rows].map((r) => r.row.Id);
    expect(seen).toContain(quickId);
    expect(seen).toContain(slowId);
    expect(Number(third.cursor.split('.')[0])).toBeGreaterThanOrEqual(quick.Version);
  });

  it('a pull with nothing new moves its cursor to the settled Version, not past a rolled-back one', async () => {
    const before = await pullFrom(undefined);
    await expect(
      t.store.tx(async (q) => {
        await insertRow(q, 'clip', randomUUID(), ctx(), clip('Rolled back'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const after = await pullFrom(before.cursor);
    expect(after.rows).toEqual([]);
    expect(Number(after.cursor.split('.')[0])).toBeGreaterThan(Number(before.cursor.split('.')[0]));
  });
});

describe('where Versions come from', () => {
  it('every server write takes its Version through next_row_version(), never the sequence itself', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|sql)$/.test(entry.name) && !entry.name.startsWith('0001_') && !entry.name.startsWith('0101_')) {
          if (readFileSync(path, 'utf8').includes("nextval('row_version')")) offenders.push(path);
        }
      }
    };
    walk('sync-server');
    expect(offenders).toEqual([]);
  });
});
