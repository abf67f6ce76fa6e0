-- Every e-mail the studio sends (sync-server/mail/outbox.ts), written in the transaction of the
-- change that causes it and delivered by the durable job 'mail.deliver' after that commits.
--   status: Queued (waits for its delivery job) | Sent (the SMTP server accepted it) | Failed
--   (refused for good, or every retry used; last_error says why) | Kept (no SMTP_URL: kept here,
--   and its text logged, for the operator to pass on)
-- A sent mail's body is emptied: it may hold a single-use link, which then lives only in the
-- recipient's mailbox. A kept one keeps it: the operator needs it.
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  to_address text NOT NULL,
  locale text NOT NULL,
  subject text NOT NULL,
  body_text text,
  body_html text,
  status text NOT NULL DEFAULT 'Queued' CHECK (status IN ('Queued', 'Sent', 'Failed', 'Kept')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at_utc timestamptz,
  message_id text,
  created_at_utc timestamptz NOT NULL,
  sent_at_utc timestamptz
);
CREATE INDEX mail_outbox_created ON mail_outbox (created_at_utc);
CREATE INDEX mail_outbox_to ON mail_outbox (lower(to_address), created_at_utc);
