// Bulk user import (issue 31; section 7: POST /internal/users/import/bulk, GET …/report), on both
// stores, with a real SMTP server on 127.0.0.1: a file's rows (as the import dialog sends them) are
// each invited or reported on their own, with the single invitation's messages; exactly the good
// rows get an invitation and a mail; the report is kept and read again; manage-user access at
// organization scope only; Rows between 1 and USER_IMPORT_MAX_ROWS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { createApp } from '../../sync-server/app.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { USER_IMPORT_MAX_ROWS } from '../../src/domain/users.ts';
import type { UserImportReport, UserImportRow } from '../../src/protocol/api/user-import.ts';
import { AppClient, fields } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';
import { openMailApp, type MailApp } from './mail-app.ts';

type App = ReturnType<typeof createApp>;

const IMPORT = '/api/internal/users/import/bulk';
const REPORT = `${IMPORT}/report`;
const MORNING = seedId('program:morning');
const NEWS = seedId('network:news');
const toOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));

describe.each(storeKinds)('bulk user import on %s', (kind) => {
  let opened: MailApp;
  let t: TestStore;
  let smtp: MailApp['smtp'];
  let app: App;
  beforeAll(async () => {
    opened = await openMailApp(kind, { clips: 48 });
    ({ t, smtp, app } = opened);
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });

  const signIn = (email: string, organizationId = ORG_DEMO) => AppClient.signedIn(app, email, organizationId);
  const address = (what: string) => `${what}.${kind}@station.example`;

  it('invites each good row at its scope and reports every other one with the single invitation’s message; the report is read again', async () => {
    const dana = await signIn('demo@example.com');
    const rows: UserImportRow[] = [
      { Email: address('org'), Name: 'Olga Org', ObjectType: 'Organization', Permissions: { HasAnalyticsAccess: true, HasManageUserAccess: true } },
      { Email: ` ${address('network')} `, ObjectType: 'Network', ObjectId: NEWS.toUpperCase(), Permissions: { HasContentAccess: true } },
      { Email: address('program'), Name: 'Pia Program', ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true, HasManageSettingsAccess: true } },
      { Email: 'not an address', ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } },
      { Email: address('elsewhere'), ObjectType: 'Program', ObjectId: seedId('program:deepdive'), Permissions: { HasContentAccess: true } },
      { Email: address('PROGRAM'), ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } },
      { Email: 'Analyst@Example.com', ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } },
      { Email: address('settings'), ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true, HasManageOrganizationSettingsAccess: true } },
      { Email: address('no.program'), ObjectType: 'Program', Permissions: { HasContentAccess: true } },
      { Email: address('not.a.guid'), ObjectType: 'Network', ObjectId: 'news', Permissions: { HasContentAccess: true } },
    ];
    const made = await dana.post(IMPORT, { Rows: rows });
    expect(made.status, made.text).toBe(200);
    const report = made.body as UserImportReport;
    expect(report).toMatchObject({ OrganizationId: ORG_DEMO, CreatedByName: 'Dana Demo', Counts: { Invited: 3, AlreadyMember: 1, Failed: 6 } });
    const summary = report.Rows.map((r) => [r.RowNumber, r.Email, r.Status, r.Errors.map((e) => [e.Field, e.Code, e.Message])]);
    expect(summary).toEqual([
      [1, address('org'), 'Invited', []],
      [2, address('network'), 'Invited', []],
      [3, address('program'), 'Invited', []],
      [4, 'not an address', 'Failed', [['Email', 'emailInvalid', '"not an address" is not a valid email address']]],
      [5, address('elsewhere'), 'Failed', [['ObjectId', 'invalid', expect.any(String)]]],
      [6, address('PROGRAM'), 'Failed', [['Email', 'invalid', 'This address is already in the file, at row 3']]],
      [7, 'Analyst@Example.com', 'AlreadyMember', []],
      [8, address('settings'), 'Failed', [['Permissions.HasManageOrganizationSettingsAccess', 'invalid', 'Organization settings access can be given only at Organization scope']]],
      [9, address('no.program'), 'Failed', [['ObjectId', 'required', expect.any(String)]]],
      [10, address('not.a.guid'), 'Failed', [['ObjectId', 'invalid', expect.any(String)]]],
    ]);
    expect(report.Rows.map((r) => r.Name)).toEqual(['Olga Org', null, 'Pia Program', null, null, null, null, null, null, null]);
    // The single invitation says the same for the same address and entry.
    const single = await dana.post('/api/v1/users/invitation', { Email: address('elsewhere'), Permissions: [{ ObjectType: 'Program', ObjectId: seedId('program:deepdive'), Permissions: { HasContentAccess: true } }] });
    expect(fields(single)).toEqual([['Permissions.0.ObjectId', 'invalid']]);
    expect((single.body as { Errors: Array<{ Message: string }> }).Errors[0]!.Message).toBe(report.Rows[4]!.Errors[0]!.Message);

    // Exactly the good rows: an invitation each, with its entry, and a mail each.
    const invited = await t.store.query<{ email: string; permissions: unknown }>(`SELECT email, permissions FROM invitations WHERE organization_id = $1 ORDER BY email`, [ORG_DEMO]);
    expect(invited).toEqual([
      { email: address('network'), permissions: [{ ObjectType: 'Network', ObjectId: NEWS, Permissions: { HasContentAccess: true } }] },
      { email: address('org'), permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasAnalyticsAccess: true, HasManageUserAccess: true } }] },
      { email: address('program'), permissions: [{ ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true, HasManageSettingsAccess: true } }] },
    ]);
    await app.jobs.drain();
    const mailed = smtp.received.flatMap(toOf).sort();
    expect(mailed).toEqual([address('network'), address('org'), address('program')]);
    for (const m of smtp.received) expect(m.text).toMatch(/http:\/\/localhost\/internal\/invitations\/[0-9a-f-]+\?token=/);

    // Read again, as it was answered.
    const again = await dana.get(REPORT);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(report);
    // By anyone else who manages the organization's users: it is the organization's.
    expect((await (await signIn('admin@example.com')).get(REPORT)).body).toEqual(report);

    // The next import replaces it; RowNumber, when given, is the file's.
    const next = await dana.post(IMPORT, { Rows: [{ Email: address('later'), ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true }, RowNumber: 7 }] });
    expect(next.status, next.text).toBe(200);
    const latest = (await dana.get(REPORT)).body as UserImportReport;
    expect(latest.Id).toBe((next.body as UserImportReport).Id);
    expect(latest.Rows.map((r) => [r.RowNumber, r.Status])).toEqual([[7, 'Invited']]);
  });

  it('answers 404 for an organization with no import yet, and 403 to a member without manage-user access', async () => {
    const inPodcasts = await signIn('demo@example.com', ORG_PODCASTS);
    expect([(await inPodcasts.get(REPORT)).status, (await inPodcasts.get(REPORT)).text]).toEqual([404, '']);
    const analyst = await signIn('analyst@example.com');
    const row = { Email: address('by.analyst'), ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } };
    expect((await analyst.post(IMPORT, { Rows: [row] })).status).toBe(403);
    expect((await analyst.get(REPORT)).status).toBe(403);
    expect((await t.store.query(`SELECT 1 FROM invitations WHERE email = $1`, [row.Email])).length).toBe(0);
  });

  it('refuses no rows, or more than the limit, with a 400 naming Rows, and invites nobody', async () => {
    const dana = await signIn('demo@example.com');
    const empty = await dana.post(IMPORT, { Rows: [] });
    expect(empty.status).toBe(400);
    expect(fields(empty)).toEqual([['Rows', 'required']]);
    const rows = Array.from({ length: USER_IMPORT_MAX_ROWS + 1 }, (_, i) => ({ Email: address(`many${i}`), ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } }));
    const tooMany = await dana.post(IMPORT, { Rows: rows });
    expect(tooMany.status).toBe(400);
    expect(fields(tooMany)).toEqual([['Rows', 'tooLong']]);
    expect((tooMany.body as { Errors: Array<{ Message: string }> }).Errors[0]!.Message).toBe(`An import may hold at most ${USER_IMPORT_MAX_ROWS} rows: split the file`);
    expect(fields(await dana.post(IMPORT, {}))).toEqual([['Rows', 'required']]);
    expect((await t.store.query(`SELECT 1 FROM invitations WHERE email LIKE $1`, [`many%.${kind}@station.example`])).length).toBe(0);
  });
});
