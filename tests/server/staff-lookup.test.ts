// Object search for staff (issue 33; section 6: the Admin section, admin or support users), on
// PGlite and PostgreSQL: every organization's rows found by a title's words, a slug, an id, an
// address of the studio (what was looked at first) or a person's e-mail (one row per organization
// they are in); deleted rows found and marked; LIKE's own characters taken literally; a query too
// short, too long or missing refused at `query`; each row saying whether the caller is a member and
// where it opens; and nobody else may ask (403 with no body, 401 signed out).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffLookupResult } from '../../src/protocol/api/admin.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe.each(storeKinds)('object search on %s', (kind) => {
  let test: TestStore;
  let seeded: SeededApp;
  let admin: AppClient;
  let clip: { id: string; title: string; program_id: string };
  let deleted: { id: string };

  beforeAll(async () => {
    test = await openTestStore(kind);
    seeded = await seededApp(test.store);
    admin = new AppClient(seeded.app);
    await admin.login('admin@example.com');
    admin.organizationId = ORG_DEMO;
    // A clip of Castaway Podcasts, of which the admin is not a member.
    [clip] = (await test.store.query<{ id: string; title: string; program_id: string }>(
      `SELECT id, title, program_id FROM clips WHERE organization_id = $1 AND NOT deleted AND title IS NOT NULL ORDER BY id LIMIT 1`,
      [ORG_PODCASTS],
    )) as [typeof clip];
    // A clip the demo organization deleted (as a user deletes one).
    [deleted] = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id DESC LIMIT 1`, [ORG_DEMO])) as [typeof deleted];
    const gone = await admin.delete(`/api/v1/clips/${deleted.id}`);
    expect(gone.status, gone.text).toBe(204);
  }, 180_000);

  afterAll(async () => {
    await test?.drop();
  });

  const lookUp = async (query: string, who = admin): Promise<StaffLookupResult> => {
    const reply = await who.get(`/api/admin/lookup?query=${encodeURIComponent(query)}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as StaffLookupResult;
  };

  it('finds another organization’s clip by words of its title, says the admin is not a member there and where it opens', async () => {
    const words = clip.title.split(' ').slice(0, 3).join(' ').toUpperCase();
    const found = await lookUp(words);
    expect(found.ReadAs).toBe('text');
    const row = found.Results.find((r) => r.Id === clip.id);
    expect(row).toMatchObject({
      Kind: 'Clip',
      OrganizationId: ORG_PODCASTS,
      OrganizationName: 'Castaway Podcasts',
      CallerIsMember: false,
      Deleted: false,
      Href: `/${ORG_PODCASTS}/programs/${clip.program_id}/clips/${clip.id}`,
    });
    for (const r of found.Results.filter((r) => r.Kind === 'Clip')) expect(r.Title.toUpperCase()).toContain(words);
  });

  it('reads an address of the studio: what was being looked at first, then its program and organization', async () => {
    const address = `https://studio.example/${ORG_PODCASTS}/programs/${clip.program_id}/clips/${clip.id}?tab=audio`;
    const found = await lookUp(address);
    expect(found.ReadAs).toBe('ids');
    expect(found.Results.map((r) => [r.Kind, r.Id])).toEqual([
      ['Clip', clip.id],
      ['Program', clip.program_id],
      ['Organization', ORG_PODCASTS],
    ]);
    expect(found.Results[2]).toMatchObject({ Href: `/${ORG_PODCASTS}`, CallerIsMember: false });
  });

  it('finds a person by e-mail with a row per organization they are in, a program by its slug, and a deleted clip marked deleted', async () => {
    const demo = await lookUp('Demo@Example.com');
    expect(demo.ReadAs).toBe('email');
    expect(demo.Results.map((r) => [r.Kind, r.Detail, r.OrganizationId]).sort()).toEqual(
      [
        ['User', 'demo@example.com', ORG_DEMO],
        ['User', 'demo@example.com', ORG_PODCASTS],
      ].sort(),
    );
    expect(demo.Results.find((r) => r.OrganizationId === ORG_DEMO)).toMatchObject({ CallerIsMember: true, Href: `/${ORG_DEMO}/users` });
    const program = await lookUp('deep-dive');
    expect(program.Results.find((r) => r.Kind === 'Program')).toMatchObject({ Id: seedId('program:deepdive'), Detail: 'deep-dive', Href: `/${ORG_PODCASTS}/programs/${seedId('program:deepdive')}` });
    expect((await lookUp(deleted.id)).Results).toMatchObject([{ Kind: 'Clip', Id: deleted.id, Deleted: true }]);
  });

  it('takes LIKE’s own characters literally and refuses a query it cannot search at `query`', async () => {
    expect((await lookUp('%%%')).Results).toEqual([]);
    expect((await lookUp('___')).Results).toEqual([]);
    const short = await admin.get('/api/admin/lookup?query=ab');
    expect(short.status).toBe(400);
    expect(fields(short)).toEqual([['query', 'tooShort']]);
    expect(short.text).toContain('at least 3 characters');
    const missing = await admin.get('/api/admin/lookup');
    expect(missing.status).toBe(400);
    expect(fields(missing)[0]?.[0]).toBe('query');
    const long = await admin.get(`/api/admin/lookup?query=${'x'.repeat(501)}`);
    expect(fields(long)).toEqual([['query', 'tooLong']]);
  });

  it('answers support users too; anyone else is refused with no body, and a signed-out caller is 401', async () => {
    const support = new AppClient(seeded.app);
    await support.login('support@example.com');
    expect((await lookUp(clip.id, support)).Results[0]).toMatchObject({ Id: clip.id, CallerIsMember: false });
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    const refused = await producer.get(`/api/admin/lookup?query=${clip.id}`);
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('');
    expect((await new AppClient(seeded.app).get(`/api/admin/lookup?query=${clip.id}`)).status).toBe(401);
  });
});
