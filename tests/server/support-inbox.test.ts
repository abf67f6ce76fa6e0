// The support inbox (issue 33: "Contact support reaches someone"), on both stores, with a real SMTP
// server on 127.0.0.1: an enquiry from the contact form is kept for the inbox and mailed to the
// support address; admin and support users read the inbox newest first, mark an enquiry handled
// and open again; everyone else is refused; a studio with no support address only keeps it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createLogger } from '../../sync-server/observability/log.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import type { SupportEnquiry } from '../../src/protocol/api/support.ts';
import { AppClient, fields, type TestClock } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';
import { openMailApp, type MailApp } from './mail-app.ts';

type App = ReturnType<typeof createApp>;
type Page = { Items: SupportEnquiry[]; HasNext: boolean; Page: number };

const SUPPORT_TO = 'help-desk@station.example';

describe.each(storeKinds)('the support inbox on %s', (kind) => {
  let opened: MailApp;
  let t: TestStore;
  let smtp: MailApp['smtp'];
  let app: App;
  let clock: TestClock;
  beforeAll(async () => {
    opened = await openMailApp(kind, { clips: 12, mail: { supportTo: SUPPORT_TO } });
    ({ t, smtp, app, clock } = opened);
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });

  const signIn = (email: string, on: App = app) => AppClient.signedIn(on, email);
  const enquiry = (text: string) => ({ ContactName: 'Ana Analyst', ContactEmail: 'ana@station.example', ContactEnquiry: text, SourceUrl: 'http://localhost/x', BrowserLocale: 'de-DE', ClientVersion: '1.0' });

  it('keeps an enquiry for the inbox and mails it to the support address', async () => {
    const analyst = await signIn('analyst@example.com');
    const sent = await analyst.post('/api/internal/custom-support', enquiry('The <b>waveform</b> is blank on my tablet'));
    expect(sent.status, sent.text).toBe(204);

    await app.jobs.drain();
    const mail = smtp.received.find((m) => m.subject === 'Support enquiry from Ana Analyst');
    expect(mail, 'the mail to the support address').toBeDefined();
    expect(mail!.text).toContain('From: Ana Analyst <ana@station.example>');
    expect(mail!.text).toContain('The <b>waveform</b> is blank on my tablet');
    expect(mail!.text).toContain('http://localhost/admin/support');
    // The sender's words are text in the HTML part, never markup.
    expect(mail!.html).toContain('The &lt;b&gt;waveform&lt;/b&gt; is blank');

    const support = await signIn('support@example.com');
    const inbox = await support.get('/api/internal/support/enquiries?state=Open');
    expect(inbox.status, inbox.text).toBe(200);
    const [first] = (inbox.body as Page).Items;
    expect(first).toMatchObject({ State: 'Open', HandledAtUtc: null, UserEmail: 'analyst@example.com', OrganizationId: ORG_DEMO, Enquiry: { ContactEnquiry: 'The <b>waveform</b> is blank on my tablet', BrowserLocale: 'de-DE' } });
    expect(first!.OrganizationName).toBeTruthy();
  });

  it('lists newest first with paging, and marks handled (by whom, when) and open again', async () => {
    const analyst = await signIn('analyst@example.com');
    for (const n of [1, 2, 3]) {
      clock.advance(60_000);
      expect((await analyst.post('/api/internal/custom-support', enquiry(`Question ${n}`))).status).toBe(204);
    }
    const admin = await signIn('admin@example.com');
    const page1 = (await admin.get('/api/internal/support/enquiries?page=1&pageSize=2')).body as Page;
    expect(page1.Items.map((e) => e.Enquiry.ContactEnquiry)).toEqual(['Question 3', 'Question 2']);
    expect(page1.HasNext).toBe(true);
    const page2 = (await admin.get('/api/internal/support/enquiries?page=2&pageSize=2')).body as Page;
    expect(page2.Items.map((e) => e.Enquiry.ContactEnquiry)).toEqual(['Question 1', 'The <b>waveform</b> is blank on my tablet']);

    const id = page1.Items[0]!.Id;
    const handled = await admin.patch(`/api/internal/support/enquiries/${id}`, { Handled: true });
    expect(handled.status, handled.text).toBe(200);
    expect(handled.body).toMatchObject({ Id: id, State: 'Handled', HandledByName: 'Alex Admin', HandledAtUtc: clock.now.toISOString() });
    const open = (await admin.get('/api/internal/support/enquiries?state=Open')).body as Page;
    expect(open.Items.map((e) => e.Id)).not.toContain(id);
    expect(((await admin.get('/api/internal/support/enquiries?state=Handled')).body as Page).Items.map((e) => e.Id)).toEqual([id]);
    // Handled again by someone else: who handled it first stays.
    const support = await signIn('support@example.com');
    expect(((await support.patch(`/api/internal/support/enquiries/${id}`, { Handled: true })).body as SupportEnquiry).HandledByName).toBe('Alex Admin');
    const reopened = await support.patch(`/api/internal/support/enquiries/${id}`, { Handled: false });
    expect(reopened.body).toMatchObject({ State: 'Open', HandledAtUtc: null, HandledByName: null });
  });

  it('refuses everyone but admin and support users, and bad input with a 400 naming the field', async () => {
    const id = ((await (await signIn('admin@example.com')).get('/api/internal/support/enquiries')).body as Page).Items[0]!.Id;
    for (const email of ['demo@example.com', 'producer@example.com', 'analyst@example.com', 'reseller@example.com', 'newbie@example.com']) {
      const client = await signIn(email);
      expect((await client.get('/api/internal/support/enquiries')).status, email).toBe(403);
      expect((await client.patch(`/api/internal/support/enquiries/${id}`, { Handled: true })).status, email).toBe(403);
    }
    const anonymous = new AppClient(app);
    expect((await anonymous.get('/api/internal/support/enquiries')).status).toBe(401);

    const support = await signIn('support@example.com');
    expect((await support.patch('/api/internal/support/enquiries/00000000-0000-4000-8000-000000000000', { Handled: true })).status).toBe(404);
    expect(fields(await support.patch(`/api/internal/support/enquiries/${id}`, { Handled: 'yes' }))).toEqual([['Handled', expect.any(String)]]);
    expect(fields(await support.get('/api/internal/support/enquiries?state=Closed')).map(([f]) => f)).toEqual(['state']);
    expect(fields(await support.get('/api/internal/support/enquiries?pageSize=0')).map(([f]) => f)).toEqual(['pageSize']);
  });

  it('without a support address the enquiry is only kept: no mail', async () => {
    const quiet = createApp({ store: t.store, bus: createMemoryBus(), log: createLogger({ level: 'error' }), mail: { smtpUrl: smtp.url, supportTo: null } });
    await app.jobs.drain(); // the earlier tests' mails
    const before = smtp.received.length;
    const analyst = await signIn('analyst@example.com', quiet);
    expect((await analyst.post('/api/internal/custom-support', enquiry('Only for the inbox'))).status).toBe(204);
    await quiet.jobs.drain();
    expect(smtp.received.length).toBe(before);
    const support = await signIn('support@example.com', quiet);
    expect(((await support.get('/api/internal/support/enquiries?pageSize=1')).body as Page).Items[0]!.Enquiry.ContactEnquiry).toBe('Only for the inbox');
  });
});
