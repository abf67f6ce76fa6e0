-- Account security (api/account-security.ts): password reset links, and e-mail change confirmations.
--
-- A password reset: one per mail sent, its token stored only as a SHA-256 hash, for the address it
-- was sent to (a link to an address the account no longer has resets nothing), single-use, for an
-- hour. Using one, or changing the password, marks every reset of the account used.
CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at_utc timestamptz NOT NULL,
  expires_at_utc timestamptz NOT NULL,
  used_at_utc timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id);
CREATE INDEX password_resets_expires ON password_resets (expires_at_utc);

-- An e-mail change is a confirmation of the new address (email) asked for from previous_email:
-- confirmed while the account still has previous_email, the account's address becomes email. NULL:
-- the confirmation of the account's own address (an activation), as before.
ALTER TABLE email_confirmations ADD COLUMN previous_email text;
