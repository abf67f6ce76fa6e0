-- Two live members of one program never share an e-mail address, compared trimmed and in any
-- case (src/domain/member-feeds.ts MEMBER_EMAIL_EXISTS; issue 29). Live: not revoked (a removed
-- member's row is deleted). sync-server/members/members.ts checks first, with this same
-- expression, to answer a 400 at Email; this index decides when two requests race past that
-- check, and its violation is answered with the same 400 (never a 500).
CREATE UNIQUE INDEX members_program_email ON members (program_id, lower(btrim(email))) WHERE revoked_at_utc IS NULL;
