-- Invitations into an organization (api/invitations.ts; src/domain/invitations.ts draws the
-- states). One row per organization and invited address while it is open: inviting the address
-- again, or re-sending, gives the row a new token and a new expiry (the earlier link stops
-- working). The token is stored only as a SHA-256 hash; used_at_utc makes it single-use.
--   user_id: the address's account, or the id the account made by accepting will get (shared by
--   every open invitation of the address, so the resend call, which names it, finds them all).
--   permissions: the entries the member gets on accepting, as memberships.permissions holds them.
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  email text NOT NULL,
  permissions jsonb NOT NULL,
  interface_language text NOT NULL,
  invited_by_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at_utc timestamptz NOT NULL,
  expires_at_utc timestamptz NOT NULL,
  used_at_utc timestamptz
);
CREATE UNIQUE INDEX invitations_open ON invitations (organization_id, lower(email)) WHERE used_at_utc IS NULL;
CREATE INDEX invitations_user ON invitations (organization_id, user_id);
CREATE INDEX invitations_email ON invitations (lower(email));
