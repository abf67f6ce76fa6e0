// E-mail that is really sent (issue 31), on both stores: the studio's mails go through a real SMTP
// server this test starts on 127.0.0.1 (smtp-server), and are read back as a mail client reads them
// (mailparser): To, Subject, the text part and the escaped HTML part, in the recipient's language.
// The confirmation link is followed to activate the account. A refusal for good fails the mail at
// once; anything else is retried, each failure recorded on its row. Without SMTP_URL the mail is
// kept and its text logged for the operator. Every connection stays on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { startSmtp } from '../helpers/smtp-server.ts';
import { capturedLog } from '../helpers/captured-log.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createLogger } from '../../sync-server/observability/log.ts';
import { sendMail } from '../../sync-server/mail/outbox.ts';
import { accountConfirmationMail } from '../../sync-server/mail/templates.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type App = ReturnType<typeof createApp>;

const toOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address));

describe.each(storeKinds)('mail on %s', (kind) => {
  let t: TestStore;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let app: App;
  beforeAll(async () => {
    t = await openTestStore(kind);
    smtp = await startSmtp();
    // The failures these tests cause on purpose are logged at warn: not news here.
    app = createApp({ store: t.store, bus: createMemoryBus(), log: createLogger({ level: 'error' }), mail: { smtpUrl: smtp.url, from: 'Castaway Studio <studio@castaway.example>', retryScheduleMs: [20, 20], timeoutMs: 5_000 } });
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.drop();
  });

  it('delivers the confirmation mail to the SMTP server, text and escaped HTML in the account’s language, and its link activates the account', async () => {
    const client = new AppClient(app);
    const email = `ada.${kind}@station.example`;
    const reply = await client.post('/api/internal/account', { Email: email, Name: 'Ada <b>Lovelace</b>', FirstName: 'Ada & "Co" <script>', Password: 'a long enough secret', OrganizationName: 'Analytical Radio', InterfaceLanguage: 'fr-FR' });
    expect(reply.status, reply.text).toBe(200);
    await app.jobs.drain();
    const mail = smtp.received.find((m) => toOf(m).includes(email));
    expect(mail, 'the SMTP server got the mail').toBeDefined();
    expect(toOf(mail!)).toEqual([email]);
    expect(mail!.from?.value[0]?.address).toBe('studio@castaway.example');
    expect(mail!.subject).toBe('Confirmez votre adresse e-mail pour Castaway Studio');
    const text = mail!.text ?? '';
    expect(text).toContain('Bonjour Ada & "Co" <script>,');
    expect(text).toContain('expire dans 24 heures');
    const link = /(http:\/\/localhost\/account\/confirm\?token=[A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(link, text).toBeDefined();
    const html = typeof mail!.html === 'string' ? mail!.html : '';
    expect(html).toContain('<html lang="fr-FR">');
    expect(html).toContain('Bonjour Ada &amp; &quot;Co&quot; &lt;script&gt;,');
    expect(html).not.toContain('<script>');
    expect(html).toContain(`href="${link}"`);
    // Sent: the row says so, and no longer holds the link.
    const [row] = await t.store.query<{ status: string; attempts: number; message_id: string | null; body_text: string | null; body_html: string | null; sent_at_utc: Date | null }>(
      `SELECT status, attempts, message_id, body_text, body_html, sent_at_utc FROM mail_outbox WHERE to_address = $1`,
      [email],
    );
    expect(row).toMatchObject({ status: 'Sent', attempts: 1, body_text: null, body_html: null });
    expect(row!.message_id).toBe(mail!.messageId);
    expect(row!.sent_at_utc).not.toBeNull();
    // Following the link: the studio's confirmation screen sends its token for the signed-in account.
    const url = new URL(link!);
    expect(url.pathname).toBe('/account/confirm');
    client.xsrf = ((await client.get('/api/internal/session/xsrf')).body as { XsrfToken: string }).XsrfToken;
    const confirmed = await client.post('/api/internal/users/me/email/status', { Token: url.searchParams.get('token') });
    expect(confirmed.status, confirmed.text).toBe(204);
    expect((await client.get('/api/internal/session')).body).toMatchObject({ Type: 'activated' });
  });

  it('fails a mail the server refuses for good at once, and retries one it is told to send later until the retries are used', async () => {
    const at = new Date();
    const make = (to: string) => accountConfirmationMail({ to, name: 'N', interfaceLanguage: 'en-US', link: 'http://localhost/account/confirm?token=t', expiresInHours: 24 });
    const refused = `refused@${kind}.example`;
    const busy = `busy@${kind}.example`;
    await t.store.tx(async (q) => {
      await sendMail(q, make(refused), at);
      await sendMail(q, make(busy), at);
    });
    await app.jobs.drain();
    // Retries run after their wait: drain again until none is queued.
    for (let i = 0; i < 20; i++) {
      const [queued] = await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'Queued'`);
      if (queued!.n === 0) break;
      await new Promise((r) => setTimeout(r, 30));
      await app.jobs.drain();
    }
    const rows = await t.store.query<{ to_address: string; status: string; attempts: number; last_error: string; body_text: string | null }>(
      `SELECT to_address, status, attempts, last_error, body_text FROM mail_outbox WHERE to_address IN ($1, $2) ORDER BY to_address`,
      [busy, refused],
    );
    expect(rows.map((r) => [r.to_address, r.status, r.attempts])).toEqual([
      [busy, 'Failed', 3],
      [refused, 'Failed', 1],
    ]);
    expect(rows[0]!.last_error).toMatch(/451/);
    expect(rows[1]!.last_error).toMatch(/550/);
    expect(smtp.rcpt.filter((a) => a === busy)).toHaveLength(3);
    expect(smtp.rcpt.filter((a) => a === refused)).toHaveLength(1);
  });

  it('retries when the SMTP server cannot be reached, recording why', async () => {
    const closed = await startSmtp();
    await closed.close();
    const unreachable = createApp({ store: t.store, bus: createMemoryBus(), log: createLogger({ level: 'error' }), mail: { smtpUrl: closed.url, retryScheduleMs: [60_000], timeoutMs: 2_000 } });
    const to = `later@${kind}.example`;
    await t.store.tx((q) => sendMail(q, accountConfirmationMail({ to, name: 'N', interfaceLanguage: null, link: 'http://localhost/x', expiresInHours: 24 }), new Date()));
    await unreachable.jobs.drain();
    const [row] = await t.store.query<{ status: string; attempts: number; last_error: string; next_attempt_at_utc: Date | null; body_text: string | null }>(
      `SELECT status, attempts, last_error, next_attempt_at_utc, body_text FROM mail_outbox WHERE to_address = $1`,
      [to],
    );
    expect(row).toMatchObject({ status: 'Queued', attempts: 1 });
    expect(row!.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(row!.next_attempt_at_utc).not.toBeNull();
    expect(row!.body_text).toContain('http://localhost/x');
    const [job] = await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'mail.deliver' AND state = 'queued' AND payload->>'mailId' = (SELECT id::text FROM mail_outbox WHERE to_address = $1)`, [to]);
    expect(job!.n).toBe(1);
  });

  it('without SMTP_URL keeps the mail and logs its text at info for the operator', async () => {
    const { log, lines } = capturedLog('info');
    const kept = createApp({ store: t.store, bus: createMemoryBus(), log, mail: { smtpUrl: null } });
    const email = `kept.${kind}@station.example`;
    const reply = await new AppClient(kept).post('/api/internal/account', { Email: email, Name: 'Kim Kept', Password: 'a long enough secret', OrganizationName: 'One Machine FM' });
    expect(reply.status, reply.text).toBe(200);
    const before = smtp.received.length;
    await kept.jobs.drain();
    expect(smtp.received.length).toBe(before);
    const [row] = await t.store.query<{ status: string; body_text: string }>(`SELECT status, body_text FROM mail_outbox WHERE to_address = $1`, [email]);
    expect(row!.status).toBe('Kept');
    expect(row!.body_text).toMatch(/\/account\/confirm\?token=/);
    const logged = lines.find((l) => l.mail?.to === email);
    expect(logged?.level).toBe(30);
    expect(logged?.msg).toContain(row!.body_text.trim().split('\n')[0]);
    expect(logged?.msg).toMatch(/\/account\/confirm\?token=/);
  });
});
