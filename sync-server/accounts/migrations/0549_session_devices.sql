-- The account's sessions list (issue 31: "sessions list with sign out everywhere"): each session
-- gets an id to name it by (its token's hash stays private), and what a person recognises it by:
-- when it was last used (kept to 5 minutes, not written at every request), the browser's
-- User-Agent and the client address (through the trusted-proxy rule, client-address.ts), both
-- as of that last use.
ALTER TABLE sessions ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(), ADD COLUMN last_seen_at_utc timestamptz, ADD COLUMN user_agent text, ADD COLUMN client_address text;
CREATE UNIQUE INDEX sessions_id ON sessions (id);
