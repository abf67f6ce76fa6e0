-- Accounts made by their users (sync-server/accounts, api/account.ts): the e-mail confirmations
-- and the throttles of account creation and of re-sent confirmations.
--
-- A confirmation: one per mail sent, its token stored only as a SHA-256 hash, for the address it
-- was sent to (a token for an address the account no longer has confirms nothing), single-use,
-- expiring. Confirming one marks every confirmation of the account used.
CREATE TABLE email_confirmations (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at_utc timestamptz NOT NULL,
  expires_at_utc timestamptz NOT NULL,
  used_at_utc timestamptz
);
CREATE INDEX email_confirmations_user ON email_confirmations (user_id);
CREATE INDEX email_confirmations_expires ON email_confirmations (expires_at_utc);

-- Attempts per key in a window that starts at the key's first attempt (as login_failures counts
-- sign-ins): 'account:<address>', 'account-client:<client address>', 'activation:<user id>'.
CREATE TABLE account_throttles (
  key text PRIMARY KEY,
  attempts integer NOT NULL,
  window_start_utc timestamptz NOT NULL
);
CREATE INDEX account_throttles_window ON account_throttles (window_start_utc);
