// The audit trail's recording (issue 31, migration 0530), on both stores: a sign-in is recorded in
// each organization of the user, a content write by its author with the changed field names (the
// trigger on row_revisions, same transaction), and an API key's use once per day however often
// it is used. Then the audit-events routes (section 7): the required range, the filters and paging,
// one object's events with and without what it holds, and section 6 (audit needs content access)
// at Organization and at Program scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO, PROGRAMS, seedId } from '../../sync-server/seed.ts';
import type { AuditEvent } from '../../src/protocol/api/audit.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type Row = { event_type: string; object_type: string; object_id: string; user_id: string | null; api_key_id: string | null; program_id: string | null; detail: string };

describe.each(storeKinds)('audit events on %s', (kind) => {
  let t: TestStore;
  let s: SeededApp;
  beforeAll(async () => {
    t = await openTestStore(kind);
    s = await seededApp(t.store);
  }, 120_000);
  afterAll(() => t?.drop());

  const events = (where: string, params: unknown[]) => t.store.query<Row>(`SELECT * FROM audit_events WHERE ${where} ORDER BY date_utc, id`, params);

  it('records a sign-in, a clip title edit by its author, and a key use once a day', async () => {
    const admin = new AppClient(s.app);
    await admin.login('admin@example.com');
    admin.organizationId = ORG_DEMO;
    const me = (await admin.get('/api/internal/session')).body as { User: { Id: string } };
    const userId = me.User.Id;
    const signIns = await events(`event_type = 'SignedIn' AND user_id = $1 AND organization_id = $2`, [userId, ORG_DEMO]);
    expect(signIns).toHaveLength(1);

    const page = (await admin.get('/api/v1/clips')).body as { Items: Array<{ Id: string; ProgramId: string }> };
    const clip = page.Items[0]!;
    const edit = await admin.send('PATCH', `/api/v1/clips/${clip.Id}`, { json: { Title: 'Audited title' } });
    expect(edit.status, edit.text).toBe(200);
    const updates = await events(`object_id = $1 AND event_type = 'Updated'`, [clip.Id]);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ object_type: 'Clip', user_id: userId, program_id: clip.ProgramId });
    expect(updates[0]!.detail).toContain('Title');

    const made = await admin.post('/api/internal/api-keys', { Name: 'audit' });
    expect(made.status, made.text).toBe(201);
    const key = made.body as { Id: string; Key: string };
    for (let i = 0; i < 3; i++) {
      const r = await s.app.request('/api/v1/programs', { headers: { authorization: `Bearer ${key.Key}` } });
      expect(r.status).toBe(200);
    }
    expect(await events(`object_id = $1 AND event_type = 'Created'`, [key.Id])).toHaveLength(1);
    const uses = await events(`object_id = $1 AND event_type = 'Used'`, [key.Id]);
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ object_type: 'ApiKey', api_key_id: key.Id, user_id: userId });
  });

  it('records a permission change by who made it, naming the scope and flags', async () => {
    const demo = new AppClient(s.app);
    await demo.login('demo@example.com');
    demo.organizationId = ORG_DEMO;
    const analystId = seedId('user:analyst@example.com');
    const entries = [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasContentAccess: true, HasAuditAccess: true } }];
    const put = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, { json: entries });
    expect(put.status, put.text).toBe(200);
    const changes = await events(`object_id = $1 AND event_type = 'PermissionsChanged'`, [analystId]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ object_type: 'User', user_id: seedId('user:demo@example.com'), detail: 'Organization: HasAuditAccess HasContentAccess' });
  });
  it('records an invitation with its scope, a key revoked, and a member removed, each by who did it', async () => {
    const demo = new AppClient(s.app);
    await demo.login('demo@example.com');
    demo.organizationId = ORG_DEMO;
    const demoId = seedId('user:demo@example.com');
    const invited = await demo.post('/api/v1/users/invitation', { Email: 'audited.guest@example.com', Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasAnalyticsAccess: true } }] });
    expect(invited.status, invited.text).toBe(201);
    const invitation = invited.body as { UserId: string };
    const invites = await events(`object_id = $1 AND event_type = 'Invited'`, [invitation.UserId]);
    expect(invites).toHaveLength(1);
    expect(invites[0]).toMatchObject({ object_type: 'User', user_id: demoId, detail: 'audited.guest@example.com; Organization: HasAnalyticsAccess' });

    const key = (await demo.post('/api/internal/api-keys', { Name: 'to revoke' })).body as { Id: string };
    expect((await demo.send('DELETE', `/api/internal/api-keys/${key.Id}`)).status).toBe(204);
    expect(await events(`object_id = $1 AND event_type = 'Revoked'`, [key.Id])).toMatchObject([{ object_type: 'ApiKey', user_id: demoId }]);

    // Removing the analyst (no other test here needs them afterwards); a failed removal records nothing.
    const analystId = seedId('user:analyst@example.com');
    expect((await demo.send('DELETE', `/api/v1/users/${analystId}`)).status).toBe(204);
    expect(await events(`object_id = $1 AND event_type = 'Removed'`, [analystId])).toMatchObject([{ object_type: 'User', user_id: demoId }]);
    expect((await demo.send('DELETE', `/api/v1/users/${analystId}`)).status).toBe(404);
    expect(await events(`object_id = $1 AND event_type = 'Removed'`, [analystId])).toHaveLength(1);
  });

  describe('the routes', () => {
    const DAY = 'startDate=2025-06-01&endDate=2025-06-01';
    const clipOf = (key: string) => seedId(`clip:${PROGRAMS.findIndex((p) => p.key === key)}`);
    const morning = seedId('program:morning');
    let demo: AppClient;
    const page = (reply: { status: number; text: string; body: unknown }) => {
      expect(reply.status, reply.text).toBe(200);
      return reply.body as { Items: AuditEvent[]; HasNext: boolean; Page: number };
    };

    beforeAll(async () => {
      demo = new AppClient(s.app);
      await demo.login('demo@example.com');
      demo.organizationId = ORG_DEMO;
      for (const key of ['morning', 'world']) {
        const edit = await demo.send('PATCH', `/api/v1/clips/${clipOf(key)}`, { json: { Title: `Audited ${key}` } });
        expect(edit.status, edit.text).toBe(200);
      }
    });

    it('needs startDate and endDate, in order, each refusal naming its field', async () => {
      expect(fields(await demo.get('/api/v1/audit-events'))).toEqual(expect.arrayContaining([['startDate', 'required'], ['endDate', 'required']]));
      expect(fields(await demo.get('/api/v1/audit-events?startDate=2025-06-02&endDate=2025-06-01'))).toEqual([['endDate', 'reversed']]);
      expect(fields(await demo.get('/api/v1/audit-events?startDate=June&endDate=2025-06-01'))).toEqual([['startDate', 'dateInvalid']]);
      expect(fields(await demo.get(`/api/v1/clips/${clipOf('morning')}/audit-events`))).toEqual(expect.arrayContaining([['startDate', 'required']]));
      expect(fields(await demo.get(`/api/v1/audit-events?${DAY}&eventType=Exploded`))).toEqual([['eventType', 'invalid']]);
      expect(fields(await demo.get(`/api/v1/audit-events?${DAY}&objectId=nope`))).toEqual([['objectId', 'invalid']]);
    });

    it('lists the organization’s events newest first with names, filtered and paged', async () => {
      const all = page(await demo.get(`/api/v1/audit-events?${DAY}`)).Items;
      const updates = all.filter((e) => e.EventType === 'Updated' && e.ObjectType === 'Clip');
      const mine = updates.find((e) => e.ObjectId === clipOf('world'))!;
      expect(mine).toMatchObject({ ObjectName: 'Audited world', UserName: 'Dana Demo', ProgramName: 'World Tonight', Detail: 'Title' });
      // Sign-ins and key events belong to no program: the Organization scope shows them.
      expect(all.some((e) => e.EventType === 'SignedIn')).toBe(true);
      const times = all.map((e) => e.DateUtc);
      expect(times).toEqual([...times].sort().reverse());
      // Outside the range: nothing of today.
      expect(page(await demo.get('/api/v1/audit-events?startDate=2025-06-02&endDate=2025-06-30')).Items.filter((e) => e.DateUtc.startsWith('2025-06-01'))).toEqual([]);

      const onlyClipUpdates = page(await demo.get(`/api/v1/audit-events?${DAY}&eventType=Updated&objectType=Clip`)).Items;
      expect(onlyClipUpdates.length).toBeGreaterThanOrEqual(2);
      expect(onlyClipUpdates.every((e) => e.EventType === 'Updated' && e.ObjectType === 'Clip')).toBe(true);
      const one = page(await demo.get(`/api/v1/audit-events?${DAY}&objectId=${clipOf('morning').toUpperCase()}`)).Items;
      expect(one.map((e) => e.ObjectId)).toEqual([clipOf('morning')]);

      const first = page(await demo.get(`/api/v1/audit-events?${DAY}&pageSize=1`));
      const second = page(await demo.get(`/api/v1/audit-events?${DAY}&pageSize=1&page=2`));
      expect(first.HasNext).toBe(true);
      expect([first.Items[0]!.Id, second.Items[0]!.Id]).toEqual(all.slice(0, 2).map((e) => e.Id));
    });

    it('lists one object’s events, and with includeRelated what it holds', async () => {
      const clip = page(await demo.get(`/api/v1/clips/${clipOf('morning')}/audit-events?${DAY}`)).Items;
      expect(clip.map((e) => [e.EventType, e.ObjectId])).toEqual([['Updated', clipOf('morning')]]);
      const program = page(await demo.get(`/api/v1/programs/${morning}/audit-events?${DAY}`)).Items;
      expect(program.some((e) => e.ObjectId === clipOf('morning'))).toBe(false);
      const held = page(await demo.get(`/api/v1/programs/${morning}/audit-events?${DAY}&includeRelated=true`)).Items;
      expect(held.map((e) => e.ObjectId)).toContain(clipOf('morning'));
      expect(held.map((e) => e.ObjectId)).not.toContain(clipOf('world'));
      const network = page(await demo.get(`/api/v1/networks/${seedId('network:news')}/audit-events?${DAY}&includeRelated=true`)).Items;
      expect(network.map((e) => e.ObjectId)).toEqual(expect.arrayContaining([clipOf('morning'), clipOf('world')]));
      const playlist = seedId('playlist:morning:feed');
      expect(page(await demo.get(`/api/v1/playlists/${playlist}/audit-events?${DAY}`)).Items).toEqual([]);
    });

    it('follows section 6: audit needs content access, and below Organization scope shows only that scope', async () => {
      const newbie = new AppClient(s.app);
      await newbie.login('newbie@example.com');
      newbie.organizationId = ORG_DEMO;
      // Content access without audit access.
      expect((await newbie.get(`/api/v1/audit-events?${DAY}`)).status).toBe(403);
      expect((await newbie.get(`/api/v1/programs/${morning}/audit-events?${DAY}`)).status).toBe(403);

      // The producer: audit and content on Morning Briefing, content alone on Book Club.
      const producerId = seedId('user:producer@example.com');
      const entries = [
        { ObjectType: 'Program', ObjectId: morning, Permissions: { HasContentAccess: true, HasAuditAccess: true } },
        { ObjectType: 'Program', ObjectId: seedId('program:bookclub'), Permissions: { HasContentAccess: true } },
      ];
      const put = await demo.send('PUT', `/api/v1/users/${producerId}/permissions`, { json: entries });
      expect(put.status, put.text).toBe(200);
      const producer = new AppClient(s.app);
      await producer.login('producer@example.com');
      producer.organizationId = ORG_DEMO;
      const seen = page(await producer.get(`/api/v1/audit-events?${DAY}`)).Items;
      expect(seen.map((e) => e.ObjectId)).toContain(clipOf('morning'));
      expect(seen.every((e) => e.ProgramId === morning)).toBe(true);
      expect((await producer.get(`/api/v1/clips/${clipOf('morning')}/audit-events?${DAY}`)).status).toBe(200);
      expect((await producer.get(`/api/v1/programs/${seedId('program:bookclub')}/audit-events?${DAY}`)).status).toBe(403);
      // A program the producer does not see at all is one that does not exist.
      const unseen = await producer.get(`/api/v1/clips/${clipOf('world')}/audit-events?${DAY}`);
      expect([unseen.status, unseen.text]).toEqual([404, '']);
      expect((await producer.get(`/api/v1/networks/${seedId('network:news')}/audit-events?${DAY}`)).status).toBe(403);
    });
  });
});
