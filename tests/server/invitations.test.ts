// Invitations (issue 31; section 7: POST /v1/users/invitation, POST /v1/users/{userId}/invitation,
// GET and PUT /internal/invitations/{invitationId}), on both stores, with a real SMTP server on
// 127.0.0.1: the invitation is delivered, its link opens the invitation, accepting it makes the
// account and signs it in, and the new member signs in again with exactly the invited permissions.
// A used, expired or wrong token is refused; the limits per inviter and per address answer 429 with
// a body; without SMTP the inviter is answered the link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { sha256 } from '../../sync-server/auth.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createLogger } from '../../sync-server/observability/log.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { INVITATIONS_MAX_PER_ADDRESS, INVITATIONS_MAX_PER_INVITER } from '../../sync-server/accounts/throttle.ts';
import { INVITATION_EXPIRY_MS } from '../../src/domain/invitations.ts';
import type { Invitation, InvitationDescription } from '../../src/protocol/api/invitations.ts';
import { AppClient, fields, type TestClock } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';
import { openMailApp, type MailApp } from './mail-app.ts';

type App = ReturnType<typeof createApp>;
type Errors = { Errors: Array<{ Field: string; Code: string; Message: string }> };

const MORNING = seedId('program:morning');
const programScope = (programId: string) => [{ ObjectType: 'Program', ObjectId: programId, Permissions: { HasContentAccess: true, HasManageSettingsAccess: true } }];
const toOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));

describe.each(storeKinds)('invitations on %s', (kind) => {
  let opened: MailApp;
  let t: TestStore;
  let smtp: MailApp['smtp'];
  let app: App;
  let clock: TestClock;
  beforeAll(async () => {
    opened = await openMailApp(kind, { clips: 48 });
    ({ t, smtp, app, clock } = opened);
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });

  const signIn = (email: string, organizationId = ORG_DEMO, on: App = app, password?: string) => AppClient.signedIn(on, email, organizationId, password);
  /** The link of the newest invitation mail to `email` the SMTP server got. */
  async function mailedLink(email: string): Promise<URL> {
    await app.jobs.drain();
    const mail = smtp.received.filter((m) => toOf(m).includes(email.toLowerCase())).at(-1);
    expect(mail, `a mail to ${email}`).toBeDefined();
    const link = /(http:\/\/localhost\/internal\/invitations\/[0-9a-f-]+\?token=[A-Za-z0-9_%-]+)/.exec(mail!.text ?? '')?.[1];
    expect(link, mail!.text).toBeDefined();
    return new URL(link!);
  }
  const describeAt = (client: AppClient, link: URL) => client.get(`/api${link.pathname}${link.search}`);
  const accept = (client: AppClient, link: URL, body: Record<string, string>) =>
    client.send('PUT', `/api${link.pathname}`, { json: { Token: link.searchParams.get('token'), ...body } });

  it('is delivered by SMTP, its link accepted with a name and password, and the new member signs in with exactly the invited permissions', async () => {
    const dana = await signIn('demo@example.com');
    const email = `new.producer.${kind}@station.example`;
    const made = await dana.post('/api/v1/users/invitation', { Email: `  ${email} `, Permissions: programScope(MORNING), InterfaceLanguage: 'fr-FR' });
    expect(made.status, made.text).toBe(201);
    const invitation = made.body as Invitation;
    expect(invitation).toMatchObject({ Email: email, OrganizationId: ORG_DEMO, Permissions: programScope(MORNING), Delivery: 'Mailed', Link: null, ExpiresAtUtc: new Date(clock.now.getTime() + INVITATION_EXPIRY_MS).toISOString() });

    const link = await mailedLink(email);
    const mail = smtp.received.filter((m) => toOf(m).includes(email.toLowerCase())).at(-1)!;
    expect(mail.subject).toBe(`Dana Demo vous invite à rejoindre ${await orgName(ORG_DEMO)} sur Castaway Studio`);
    expect(mail.text).toContain('expire dans 7 jours');
    expect(link.pathname).toBe(`/internal/invitations/${invitation.Id}`);
    // Only the token's hash is kept.
    const [row] = await t.store.query<{ token_hash: string }>(`SELECT token_hash FROM invitations WHERE id = $1`, [invitation.Id]);
    expect(row!.token_hash).toBe(sha256(link.searchParams.get('token')!));

    const stranger = new AppClient(app);
    const described = await describeAt(stranger, link);
    expect(described.status, described.text).toBe(200);
    expect(described.body).toEqual({
      Id: invitation.Id,
      OrganizationId: ORG_DEMO,
      OrganizationName: await orgName(ORG_DEMO),
      InvitedByName: 'Dana Demo',
      Email: email,
      State: 'Open',
      ExpiresAtUtc: invitation.ExpiresAtUtc,
      AccountExists: false,
    } satisfies InvitationDescription);

    // Section 5's rules, at their fields.
    const refused = await accept(stranger, link, { Name: '', Password: 'short' });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toEqual([
      ['Name', 'required'],
      ['Password', 'tooShort'],
    ]);
    expect((refused.body as Errors).Errors[1]!.Message).toBe('Password must be 8 characters or longer');

    const accepted = await accept(stranger, link, { Name: 'Paula Nova', Password: 'a long enough secret' });
    expect(accepted.status, accepted.text).toBe(204);
    const session = await stranger.get('/api/internal/session');
    expect(session.body).toMatchObject({ Type: 'activated', User: { Id: invitation.UserId, Email: email, Name: 'Paula Nova', FirstName: 'Paula', InterfaceLanguage: 'fr-FR' } });

    // Signing in again: the one program, nothing of the organization's.
    const paula = await signIn(email, ORG_DEMO, app, 'a long enough secret');
    const programs = await paula.get('/api/v1/programs');
    expect(programs.status).toBe(200);
    expect((programs.body as { Items: Array<{ Id: string }> }).Items.map((p) => p.Id)).toEqual([MORNING]);
    expect((await paula.get('/api/v1/users')).status).toBe(403);
    const orgs = await paula.get('/api/internal/users/me/organizations');
    expect((orgs.body as Array<{ Id: string; UserPermissions: unknown }>).map((o) => [o.Id, o.UserPermissions])).toEqual([[ORG_DEMO, programScope(MORNING)]]);
    const asAdmin = await dana.get(`/api/v1/users/${invitation.UserId}`);
    expect(asAdmin.body).toMatchObject({ Email: email, Permissions: programScope(MORNING) });
  });

  it('refuses a used link at Token, says Used when it is opened again, and answers a wrong token or unknown id with the same 404', async () => {
    const dana = await signIn('demo@example.com');
    const email = `twice.${kind}@station.example`;
    expect((await dana.post('/api/v1/users/invitation', { Email: email, Permissions: programScope(MORNING) })).status).toBe(201);
    const link = await mailedLink(email);
    expect((await accept(new AppClient(app), link, { Name: 'Once Only', Password: 'a long enough secret' })).status).toBe(204);

    const again = await accept(new AppClient(app), link, { Name: 'Twice Over', Password: 'another long secret' });
    expect(again.status).toBe(400);
    expect((again.body as Errors).Errors).toEqual([expect.objectContaining({ Field: 'Token', Code: 'invalid', Message: 'This invitation was already accepted: sign in instead' })]);
    expect(((await describeAt(new AppClient(app), link)).body as InvitationDescription).State).toBe('Used');

    const wrongToken = new URL(link);
    wrongToken.searchParams.set('token', 'not-the-token');
    const unknownId = new URL(link);
    unknownId.pathname = '/internal/invitations/00000000-0000-4000-8000-000000000000';
    for (const bad of [wrongToken, unknownId]) {
      const got = await describeAt(new AppClient(app), bad);
      expect([got.status, got.text]).toEqual([404, '']);
      const put = await accept(new AppClient(app), bad, { Name: 'Mallory', Password: 'a long enough secret' });
      expect([put.status, put.text]).toEqual([404, '']);
    }
    expect((await t.store.query(`SELECT 1 FROM users WHERE name IN ('Twice Over', 'Mallory')`)).length).toBe(0);
  });

  it('expires after a week; a resend mails a new link (the old one stops working) that is open again', async () => {
    const dana = await signIn('demo@example.com');
    const email = `late.${kind}@station.example`;
    const made = (await dana.post('/api/v1/users/invitation', { Email: email, Permissions: programScope(MORNING) })).body as Invitation;
    const first = await mailedLink(email);
    clock.advance(INVITATION_EXPIRY_MS);
    expect(((await describeAt(new AppClient(app), first)).body as InvitationDescription).State).toBe('Expired');
    const late = await accept(new AppClient(app), first, { Name: 'Late Comer', Password: 'a long enough secret' });
    expect(late.status).toBe(400);
    expect((late.body as Errors).Errors).toEqual([expect.objectContaining({ Field: 'Token', Message: 'This invitation has expired: ask the person who invited you to send a new one' })]);

    const pending = async () => ((await dana.get('/api/internal/invitations')).body as Array<{ Email: string; State: string; InvitedByName: string }>).filter((i) => i.Email === email);
    expect(await pending()).toEqual([expect.objectContaining({ State: 'Expired', InvitedByName: 'Dana Demo' })]);
    const resent = await dana.post(`/api/v1/users/${made.UserId}/invitation`, undefined);
    expect(resent.status, resent.text).toBe(204);
    expect(await pending()).toEqual([expect.objectContaining({ State: 'Open' })]);
    const second = await mailedLink(email);
    expect(second.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
    expect((await describeAt(new AppClient(app), first)).status).toBe(404);
    expect(((await describeAt(new AppClient(app), second)).body as InvitationDescription).State).toBe('Open');
    expect((await accept(new AppClient(app), second, { Name: 'Late Comer', Password: 'a long enough secret' })).status).toBe(204);
    // Accepted: nothing left to resend, and no longer pending.
    expect((await dana.post(`/api/v1/users/${made.UserId}/invitation`, undefined)).status).toBe(404);
    expect(await pending()).toEqual([]);
  });

  it('lists pending invitations to those who manage users, and withdraws one: its link stops working', async () => {
    const dana = await signIn('demo@example.com');
    const email = `withdrawn.${kind}@station.example`;
    const made = (await dana.post('/api/v1/users/invitation', { Email: email, Permissions: programScope(MORNING) })).body as Invitation;
    const link = await mailedLink(email);
    const listed = (await dana.get('/api/internal/invitations')).body as Array<{ Id: string; Email: string; Permissions: unknown }>;
    expect(listed.find((i) => i.Id === made.Id)).toMatchObject({ Email: email, Permissions: programScope(MORNING) });
    const producer = await signIn('producer@example.com');
    expect((await producer.get('/api/internal/invitations')).status).toBe(403);
    expect((await producer.send('DELETE', `/api/internal/invitations/${made.Id}`)).status).toBe(403);
    // Another organization's manager does not find it.
    const podcasts = await signIn('demo@example.com', ORG_PODCASTS);
    expect((await podcasts.send('DELETE', `/api/internal/invitations/${made.Id}`)).status).toBe(404);

    expect((await dana.send('DELETE', `/api/internal/invitations/${made.Id}`)).status).toBe(204);
    expect((await describeAt(new AppClient(app), link)).status).toBe(404);
    expect(((await dana.get('/api/internal/invitations')).body as Array<{ Id: string }>).map((i) => i.Id)).not.toContain(made.Id);
    expect((await dana.send('DELETE', `/api/internal/invitations/${made.Id}`)).status).toBe(404);
  });

  it('joins an existing account of the address only when signed in as it, with exactly the invited permissions', async () => {
    const dana = await signIn('demo@example.com', ORG_PODCASTS);
    const deepDive = seedId('program:deepdive');
    const made = await dana.post('/api/v1/users/invitation', { Email: 'Producer@Example.com', Permissions: programScope(deepDive) });
    expect(made.status, made.text).toBe(201);
    const link = await mailedLink('Producer@Example.com');
    const pat = await signIn('producer@example.com');
    expect((made.body as Invitation).UserId).toBe(((await pat.get('/api/internal/session')).body as { User: { Id: string } }).User.Id);
    expect(((await describeAt(new AppClient(app), link)).body as InvitationDescription).AccountExists).toBe(true);

    for (const who of [new AppClient(app), await signIn('analyst@example.com')]) {
      const refused = await accept(who, link, {});
      expect(refused.status).toBe(403);
      expect((refused.body as Errors).Errors).toEqual([
        expect.objectContaining({ Field: 'account', Code: 'invitationOtherAccount', Message: 'This invitation is for Producer@Example.com: sign in as Producer@Example.com to accept it' }),
      ]);
    }
    expect((await accept(pat, link, {})).status).toBe(204);
    pat.organizationId = ORG_PODCASTS;
    expect(((await pat.get('/api/v1/programs')).body as { Items: Array<{ Id: string }> }).Items.map((p) => p.Id)).toEqual([deepDive]);
    // Still a member of the organization it was in, as before.
    pat.organizationId = ORG_DEMO;
    expect((await pat.get('/api/v1/programs')).status).toBe(200);
  });

  it('refuses an address already a member, an invalid address and permissions outside section 6 or this organization, each at its field', async () => {
    const dana = await signIn('demo@example.com');
    const member = await dana.post('/api/v1/users/invitation', { Email: 'analyst@example.com', Permissions: [] });
    expect(member.status).toBe(400);
    expect((member.body as Errors).Errors).toEqual([expect.objectContaining({ Field: 'Email', Message: 'This address is already a member of the organization' })]);
    const bad = await dana.post('/api/v1/users/invitation', { Email: 'not an address', Permissions: [] });
    expect(fields(bad)).toEqual([['Email', 'emailInvalid']]);
    const elsewhere = await dana.post('/api/v1/users/invitation', { Email: `x.${kind}@station.example`, Permissions: programScope(seedId('program:deepdive')) });
    expect(fields(elsewhere)).toEqual([['Permissions.0.ObjectId', 'invalid']]);
    const mixed = await dana.post('/api/v1/users/invitation', {
      Email: `x.${kind}@station.example`,
      Permissions: [...programScope(MORNING), { ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: {} }],
    });
    expect(fields(mixed)).toEqual([['Permissions', 'mixedObjectTypes']]);
    // Without manage-user access: 403.
    expect((await (await signIn('analyst@example.com')).post('/api/v1/users/invitation', { Email: `y.${kind}@station.example`, Permissions: [] })).status).toBe(403);
  });

  it('limits the invitations to one address and from one member in an hour: 429 with a body and Retry-After', async () => {
    const dana = await signIn('demo@example.com');
    const email = `flooded.${kind}@station.example`;
    for (let i = 0; i < INVITATIONS_MAX_PER_ADDRESS; i++) expect((await dana.post('/api/v1/users/invitation', { Email: email, Permissions: [] })).status).toBe(201);
    const flood = await dana.post('/api/v1/users/invitation', { Email: email, Permissions: [] });
    expect(flood.status).toBe(429);
    expect(Number(flood.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((flood.body as Errors).Errors).toEqual([expect.objectContaining({ Field: 'Email', Code: 'tooManyInvitations', Message: expect.stringMatching(/^This address was invited too often in the last hour: try again in \d+ minutes?$/) })]);
    // One invitation row for the address, whatever the number of mails.
    expect((await t.store.query(`SELECT 1 FROM invitations WHERE email = $1`, [email])).length).toBe(1);

    // Another member: a limit of their own, whatever the addresses.
    const alex = await signIn('admin@example.com');
    for (let i = 0; i < INVITATIONS_MAX_PER_INVITER; i++) {
      const r = await alex.post('/api/v1/users/invitation', { Email: `team${i}.${kind}@station.example`, Permissions: [] });
      expect(r.status, r.text).toBe(201);
    }
    const spam = await alex.post('/api/v1/users/invitation', { Email: `one.more.${kind}@station.example`, Permissions: [] });
    expect(spam.status).toBe(429);
    expect((spam.body as Errors).Errors).toEqual([expect.objectContaining({ Field: 'body', Code: 'tooManyInvitations', Message: expect.stringMatching(/^You sent too many invitations in the last hour/) })]);
    // An hour later, it may invite again.
    clock.advance(60 * 60 * 1000 + 1);
    expect((await alex.post('/api/v1/users/invitation', { Email: `one.more.${kind}@station.example`, Permissions: [] })).status).toBe(201);
  }, 60_000);

  it('without SMTP keeps the mail and answers the inviter the link, which works', async () => {
    const local = createApp({ store: t.store, bus: createMemoryBus(), clock: () => clock.now, log: createLogger({ level: 'error' }), mail: { smtpUrl: null } });
    const dana = await signIn('demo@example.com', ORG_DEMO, local);
    const email = `kept.${kind}@station.example`;
    const made = await dana.post('/api/v1/users/invitation', { Email: email, Permissions: programScope(MORNING) });
    expect(made.status, made.text).toBe(201);
    const invitation = made.body as Invitation;
    expect(invitation.Delivery).toBe('Kept');
    const link = new URL(invitation.Link!);
    await local.jobs.drain();
    const [kept] = await t.store.query<{ status: string; body_text: string }>(`SELECT status, body_text FROM mail_outbox WHERE to_address = $1`, [email]);
    expect(kept!.status).toBe('Kept');
    expect(kept!.body_text).toContain(invitation.Link!);
    const newcomer = new AppClient(local);
    expect((await accept(newcomer, link, { Name: 'Kim Kept', Password: 'a long enough secret' })).status).toBe(204);
    expect((await newcomer.get('/api/internal/session')).body).toMatchObject({ Type: 'activated', User: { Email: email } });
  });

  async function orgName(id: string): Promise<string> {
    const [row] = await t.store.query<{ name: string }>(`SELECT name FROM organizations WHERE id = $1`, [id]);
    return row!.name;
  }
});
