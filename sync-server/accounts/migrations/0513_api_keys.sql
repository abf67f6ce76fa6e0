-- API keys (api/api-keys.ts): when each was last used (to the minute, auth.ts), and when it was
-- revoked; the caller's own keys are listed and revoked by user, and a password change or reset
-- revokes every key of the account.
ALTER TABLE api_keys ADD COLUMN last_used_at_utc timestamptz;
ALTER TABLE api_keys ADD COLUMN revoked_at_utc timestamptz;
CREATE INDEX api_keys_user ON api_keys (user_id, organization_id);
