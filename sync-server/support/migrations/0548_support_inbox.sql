-- The support inbox (issue 33: "Contact support reaches someone"): the contact form's enquiries
-- are read and marked handled by admin and support users in the studio (sync-server/api/support.ts).
ALTER TABLE support_enquiries ADD COLUMN handled_at_utc timestamptz, ADD COLUMN handled_by_id uuid;
CREATE INDEX support_enquiries_open ON support_enquiries (created_at_utc DESC, id) WHERE handled_at_utc IS NULL;
CREATE INDEX support_enquiries_created ON support_enquiries (created_at_utc DESC, id);
