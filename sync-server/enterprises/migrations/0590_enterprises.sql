-- Enterprises (issue 33, the staff tools; specification section 7 "Images and admin"): a group of
-- organizations managed together, such as a radio group that resells the studio to its stations.
-- Its users are the resellers who manage it; its sales codes are the codes a reseller hands out,
-- each tying the organizations that sign up with it to the enterprise and to the reseller who owns it.
CREATE TABLE enterprises (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL
);

-- An organization belongs to one enterprise at most. The enterprise's own facts about it (its name
-- there, the plan it sold, notes) are kept here, never on the organization's row, which its members edit.
CREATE TABLE enterprise_organizations (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id),
  enterprise_id uuid NOT NULL REFERENCES enterprises (id) ON DELETE CASCADE,
  display_name text,
  plan_label text,
  notes text,
  added_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL
);
CREATE INDEX enterprise_organizations_enterprise ON enterprise_organizations (enterprise_id);

CREATE TABLE enterprise_users (
  enterprise_id uuid NOT NULL REFERENCES enterprises (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id),
  added_at_utc timestamptz NOT NULL,
  PRIMARY KEY (enterprise_id, user_id)
);
CREATE INDEX enterprise_users_user ON enterprise_users (user_id);

-- name: as handed out, matched without regard to case (the key is its upper case).
CREATE TABLE sales_codes (
  key text PRIMARY KEY,
  name text NOT NULL,
  enterprise_id uuid NOT NULL REFERENCES enterprises (id) ON DELETE CASCADE,
  owner_user_id uuid REFERENCES users (id),
  created_at_utc timestamptz NOT NULL
);
CREATE INDEX sales_codes_enterprise ON sales_codes (enterprise_id);
