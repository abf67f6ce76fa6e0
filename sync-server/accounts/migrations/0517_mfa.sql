-- Two-factor sign-in (api/mfa.ts; accounts/mfa.ts). One row per account that has set it up or is
-- setting it up:
--   pending_secret: the TOTP secret (base32) shown at set-up, until a code from the app confirms it;
--   secret: the confirmed one (enabled_at_utc set); the server needs it to check codes, so it is
--     kept as it is (the studio has no key to encrypt secrets with), and no call returns it again;
--   last_used_step: the 30-second step of the last code accepted: a code is taken once, and no
--     code of an earlier step is taken after it.
CREATE TABLE user_mfa (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret text,
  enabled_at_utc timestamptz,
  last_used_step bigint NOT NULL DEFAULT 0,
  pending_secret text,
  pending_created_at_utc timestamptz
);

-- Recovery codes: made when two-factor sign-in is turned on, shown once, kept only as SHA-256
-- hashes (each is 50 random bits: no password to stretch), single-use.
CREATE TABLE mfa_recovery_codes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at_utc timestamptz,
  PRIMARY KEY (user_id, code_hash)
);
