// The studio's one way to send an e-mail (issue 31): `sendMail` writes the mail into mail_outbox
// in the caller's transaction, with the job that delivers it, so a mail exists only if the change
// that causes it commits, and is delivered only after it has (STYLE.md habits 5 and 13).
//
//   sendMail(q) ──commit──> Queued ──'mail.deliver'──┬─ no SMTP_URL ─────────────────> Kept (text logged at info)
//                             ▲                      ├─ the SMTP server accepts it ──> Sent (body emptied)
//                             │                      ├─ refused for good (5xx) ──────> Failed
//                             └── retry after RETRY_SCHEDULE_MS[n] ┴─ anything else; the last retry failing ─> Failed
//
// Delivery is at least once: a job whose instance died after the SMTP server took the message
// but before the row said Sent is run again and sends it again (the runner's contract, runner.ts).
// A mail that is not Queued any more is never sent again.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { createTransport } from 'nodemailer';
import { now, type AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { logOf } from '../observability/log.ts';
import type { Queryable } from '../store/store.ts';

export const MAIL_DELIVER_JOB = 'mail.deliver';

export type MailStatus = 'Queued' | 'Sent' | 'Failed' | 'Kept';

/** The waits before each retry of a mail the SMTP server did not take: about a day in all. */
export const MAIL_RETRY_SCHEDULE_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000] as const;

/** Sent and failed mails are kept this long (their subject, address and outcome), then deleted by
 * the next delivery (not a recurring job: a studio that sends no mail has nothing to sweep). */
export const MAIL_KEPT_FOR_MS = 30 * 24 * 3_600_000;

export type MailSettings = {
  /** smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465; null: mails are kept. */
  smtpUrl: string | null;
  /** The From of every mail. */
  from: string;
  /** The waits before each retry (tests: milliseconds). */
  retryScheduleMs: readonly number[];
  /** Connecting, the greeting and each reply of the SMTP server: longer, the attempt fails. */
  timeoutMs: number;
  /** Where contact enquiries are mailed as well as kept in the support inbox (null: only kept). */
  supportTo: string | null;
};

/** The settings from the environment (SMTP_URL, CASTAWAY_MAIL_FROM, CASTAWAY_SUPPORT_EMAIL), with the app's own
 * overrides (tests). The one place the environment is read. */
export function mailSettings(overrides: Partial<MailSettings> = {}): MailSettings {
  const url = process.env.SMTP_URL?.trim() || null;
  if (url !== null && !/^smtps?:\/\//i.test(url)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return {
    smtpUrl: url,
    from: process.env.CASTAWAY_MAIL_FROM?.trim() || 'Castaway Studio <no-reply@localhost>',
    retryScheduleMs: MAIL_RETRY_SCHEDULE_MS,
    timeoutMs: 30_000,
    supportTo: process.env.CASTAWAY_SUPPORT_EMAIL?.trim() || null,
    ...overrides,
  };
}

/** A mail as its template made it (templates.ts). */
export type Mail = {
  /** The template it was made from: 'accountConfirmation', … */
  kind: string;
  to: string;
  locale: string;
  subject: string;
  text: string;
  html: string;
};

/** Queues `mail` in the caller's transaction; returns its id. */
export async function sendMail(q: Queryable, mail: Mail, at: Date): Promise<string> {
  const id = randomUUID();
  await q.query(
    `INSERT INTO mail_outbox (id, kind, to_address, locale, subject, body_text, body_html, created_at_utc) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [id, mail.kind, mail.to, mail.locale, mail.subject, mail.text, mail.html, at],
  );
  await enqueueJob(q, MAIL_DELIVER_JOB, { mailId: id }, { maxAttempts: 3 });
  return id;
}

type OutboxRow = { id: string; kind: string; to_address: string; subject: string; body_text: string | null; body_html: string | null; status: MailStatus; attempts: number };

/** An SMTP reply of class 5 (RFC 5321 §4.2.1): the server will not take this mail, however often asked. */
function refusedForGood(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

export function mailJobs(deps: AppDeps, settings: MailSettings): JobHandlers {
  const log = logOf(deps);
  const transport = settings.smtpUrl
    ? createTransport(
        { url: settings.smtpUrl, connectionTimeout: settings.timeoutMs, greetingTimeout: settings.timeoutMs, socketTimeout: settings.timeoutMs },
        { from: settings.from },
      )
    : null;

  async function deliver(mailId: string): Promise<void> {
    const [mail] = await deps.store.query<OutboxRow>(`SELECT * FROM mail_outbox WHERE id = $1`, [mailId]);
    if (!mail || mail.status !== 'Queued') return;
    if (!transport) {
      await deps.store.query(`UPDATE mail_outbox SET status = 'Kept' WHERE id = $1 AND status = 'Queued'`, [mailId]);
      // For the operator of a studio without SMTP: the mail's words, links included, to pass on.
      log.info({ mail: { id: mail.id, kind: mail.kind, to: mail.to_address, subject: mail.subject } }, `mail kept (no SMTP_URL) to ${mail.to_address}: ${mail.subject}\n\n${mail.body_text ?? ''}`);
      return;
    }
    const attempt = mail.attempts + 1;
    try {
      const info = await transport.sendMail({ to: mail.to_address, subject: mail.subject, text: mail.body_text ?? '', html: mail.body_html ?? '' });
      await deps.store.query(
        `UPDATE mail_outbox SET status = 'Sent', attempts = $2, sent_at_utc = $3, message_id = $4, last_error = NULL, next_attempt_at_utc = NULL, body_text = NULL, body_html = NULL
         WHERE id = $1 AND status = 'Queued'`,
        [mailId, attempt, now(deps), info.messageId ?? null],
      );
    } catch (err) {
      const wait = refusedForGood(err) ? undefined : settings.retryScheduleMs[attempt - 1];
      const at = now(deps);
      await deps.store.tx(async (q) => {
        if (wait === undefined) {
          await q.query(`UPDATE mail_outbox SET status = 'Failed', attempts = $2, last_error = $3, next_attempt_at_utc = NULL WHERE id = $1 AND status = 'Queued'`, [mailId, attempt, errorText(err)]);
          return;
        }
        const next = new Date(at.getTime() + wait);
        await q.query(`UPDATE mail_outbox SET attempts = $2, last_error = $3, next_attempt_at_utc = $4 WHERE id = $1 AND status = 'Queued'`, [mailId, attempt, errorText(err), next]);
        await enqueueJob(q, MAIL_DELIVER_JOB, { mailId }, { runAt: next, maxAttempts: 3 });
      });
      log.warn({ err, mail: { id: mail.id, kind: mail.kind, attempt } }, wait === undefined ? 'mail failed for good' : `mail not delivered; retrying in ${Math.round(wait / 1000)} s`);
    }
  }

  return {
    [MAIL_DELIVER_JOB]: defineJob({
      payload: z.object({ mailId: z.string().uuid() }),
      // An SMTP server waits on the network: its own pool, so a slow one holds up no other job.
      pool: 'mail',
      run: async ({ mailId }) => {
        await deliver(mailId);
        await deps.store.query(`DELETE FROM mail_outbox WHERE status IN ('Sent', 'Failed') AND created_at_utc < $1`, [new Date(now(deps).getTime() - MAIL_KEPT_FOR_MS)]);
      },
    }),
  };
}
