// The people of one network or program (issue 31; section 7: GET /internal/networks/{networkId}/
// user-profiles/eligible and /internal/programs/{programId}/user-profiles/eligible), on both stores:
// the members the object's user manager could add — none who holds a flag there already, none at
// Organization scope (they hold everything), none at another scope (section 6: one object type per
// user) — filtered by name or e-mail, paged; 403 without Manage users there, 404 for an object of
// another organization or one the caller does not see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createLogger } from '../../sync-server/observability/log.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import type { PermissionEntry } from '../../src/domain/permissions.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type App = ReturnType<typeof createApp>;
type Page = { Items: Array<{ Id: string; Name: string; Email: string }>; HasNext: boolean; Page: number };

const NEWS = seedId('network:news');
const SPORT = seedId('network:sport');
const MORNING = seedId('program:morning'); // in Castaway News
const WORLD = seedId('program:world'); // in Castaway News
const MATCHDAY = seedId('program:matchday'); // in Castaway Sport
const BOOKCLUB = seedId('program:bookclub');
const DEEP_DIVE = seedId('program:deepdive'); // Castaway Podcasts
const ORIGINALS = seedId('network:originals'); // Castaway Podcasts

const programs = (path: string, query = '') => `/api/internal/programs/${path}/user-profiles/eligible${query}`;
const networks = (path: string, query = '') => `/api/internal/networks/${path}/user-profiles/eligible${query}`;
const names = (reply: { body: unknown }) => (reply.body as Page).Items.map((u) => u.Name);

describe.each(storeKinds)('the people of a network or program on %s', (kind) => {
  let t: TestStore;
  let app: App;
  beforeAll(async () => {
    t = await openTestStore(kind);
    await seed(t.store, { clips: 8 });
    app = createApp({ store: t.store, bus: createMemoryBus(), log: createLogger({ level: 'error' }) });
    // Three more members of Castaway Demo: one with no permissions, one at Program scope on a sport
    // program, one at Network scope on Castaway Sport. (The seed's others are at Organization scope,
    // but the producer: Program scope on Morning Briefing and Book Club.)
    const member = async (email: string, name: string, permissions: PermissionEntry[]) => {
      const id = crypto.randomUUID();
      await t.store.query(
        `INSERT INTO users (id, email, name, first_name, image_url, is_admin, is_admin_or_support, has_reseller_access, interface_language, activated, password_hash, created_at_utc, modified_at_utc, version)
         VALUES ($1, $2, $3, $4, NULL, false, false, false, 'en-US', true, '', now(), now(), next_row_version())`,
        [id, email, name, name.split(' ')[0]],
      );
      await t.store.query(`INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version) VALUES ($1, $2, $3, now(), now(), next_row_version())`, [
        ORG_DEMO,
        id,
        JSON.stringify(permissions),
      ]);
      return id;
    };
    await member('zoe@station.example', 'Zoe Nobody', []);
    await member('piet@station.example', 'Piet Program', [{ ObjectType: 'Program', ObjectId: MATCHDAY, Permissions: { HasContentAccess: true } }]);
    await member('nell@station.example', 'Nell Network', [{ ObjectType: 'Network', ObjectId: SPORT, Permissions: { HasContentAccess: true } }]);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  const signIn = (email: string) => AppClient.signedIn(app, email);

  it('lists those who could be added: no access there, not at Organization scope, not at another scope', async () => {
    const demo = await signIn('demo@example.com');
    // Morning Briefing: the producer holds it already; Nell is at Network scope; the rest at Organization scope.
    const morning = await demo.get(programs(MORNING));
    expect(morning.status, morning.text).toBe(200);
    expect(names(morning)).toEqual(['Piet Program', 'Zoe Nobody']);
    expect((morning.body as Page).Items[0]).toEqual({ Id: expect.any(String) as string, Name: 'Piet Program', FirstName: 'Piet', Email: 'piet@station.example', ImageUrl: null });
    // World Tonight: the producer (Program scope elsewhere) could be.
    expect(names(await demo.get(programs(WORLD)))).toEqual(['Pat Producer', 'Piet Program', 'Zoe Nobody']);
    // Matchday Live: Piet holds it; Nell holds it through Castaway Sport.
    expect(names(await demo.get(programs(MATCHDAY)))).toEqual(['Pat Producer', 'Zoe Nobody']);
    // Castaway News: Nell (Network scope elsewhere) and Zoe; the Program-scope members could not take a network.
    expect(names(await demo.get(networks(NEWS)))).toEqual(['Nell Network', 'Zoe Nobody']);
    expect(names(await demo.get(networks(SPORT)))).toEqual(['Zoe Nobody']);
  });

  it('filters by name or e-mail and pages like the other lists', async () => {
    const demo = await signIn('demo@example.com');
    expect(names(await demo.get(programs(WORLD, '?filter=PIET')))).toEqual(['Piet Program']);
    expect(names(await demo.get(programs(WORLD, '?filter=producer%40example')))).toEqual(['Pat Producer']);
    expect(names(await demo.get(programs(WORLD, '?filter=nobody-here')))).toEqual([]);
    const first = (await demo.get(programs(WORLD, '?page=1&pageSize=2'))).body as Page;
    expect([first.Items.map((u) => u.Name), first.HasNext, first.Page]).toEqual([['Pat Producer', 'Piet Program'], true, 1]);
    const second = (await demo.get(programs(WORLD, '?page=2&pageSize=2'))).body as Page;
    expect([second.Items.map((u) => u.Name), second.HasNext, second.Page]).toEqual([['Zoe Nobody'], false, 2]);
    const bad = await demo.get(programs(WORLD, '?pageSize=0'));
    expect(bad.status).toBe(400);
  });

  it('someone given access leaves the list and joins the users with access; taken out, they are back', async () => {
    const demo = await signIn('demo@example.com');
    const zoe = (await demo.get(programs(WORLD, '?filter=zoe'))).body as Page;
    const zoeId = zoe.Items[0]!.Id;
    const given = await demo.send('PUT', `/api/v1/programs/${WORLD}/users/${zoeId}/permissions`, { json: { HasContentAccess: true } });
    expect(given.status, given.text).toBe(200);
    expect(names(await demo.get(programs(WORLD)))).toEqual(['Pat Producer', 'Piet Program']);
    expect(names(await demo.get(`/api/v1/programs/${WORLD}/users?filter=zoe`))).toEqual(['Zoe Nobody']);
    // Now at Program scope: no network for her.
    expect(names(await demo.get(networks(SPORT)))).toEqual([]);
    expect((await demo.send('PUT', `/api/v1/programs/${WORLD}/users/${zoeId}/permissions`, { json: {} })).status).toBe(200);
    expect(names(await demo.get(programs(WORLD)))).toEqual(['Pat Producer', 'Piet Program', 'Zoe Nobody']);
  });

  it('needs Manage users on the object (403), and an object the caller sees (404, no body)', async () => {
    const demo = await signIn('demo@example.com');
    // Content only on Morning Briefing and Book Club: seen, not managed.
    const producer = await signIn('producer@example.com');
    expect((await producer.get(programs(MORNING))).status).toBe(403);
    expect((await producer.get(networks(NEWS))).status).toBe(403);
    // Analytics at Organization scope: sees everything, manages no one.
    const analyst = await signIn('analyst@example.com');
    expect((await analyst.get(programs(MORNING))).status).toBe(403);
    expect((await analyst.get(networks(SPORT))).status).toBe(403);
    // Given Manage users on Morning Briefing: its people, and only its.
    const producerId = seedId('user:producer@example.com');
    const managed = await demo.send('PUT', `/api/v1/programs/${MORNING}/users/${producerId}/permissions`, { json: { HasContentAccess: true, HasManageUserAccess: true } });
    expect(managed.status, managed.text).toBe(200);
    expect(names(await producer.get(programs(MORNING)))).toEqual(['Piet Program', 'Zoe Nobody']);
    expect((await producer.get(programs(BOOKCLUB))).status).toBe(403);
    for (const reply of [await producer.get(programs(WORLD)), await producer.get(networks(SPORT))]) {
      expect([reply.status, reply.text]).toEqual([404, '']);
    }
    // Another organization's program or network, one that does not exist, or no id at all: not found.
    for (const path of [programs(DEEP_DIVE), networks(ORIGINALS), programs(crypto.randomUUID()), networks('not-an-id')]) {
      const reply = await demo.get(path);
      expect([reply.status, reply.text], path).toEqual([404, '']);
    }
  });
});
