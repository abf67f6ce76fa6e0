-- Billing & features (issue 33; src/domain/billing.ts): an organization's subscription, its
-- metered add-ons' restrictions and notification settings, and the allowance notices sent (so
-- each threshold of each month is told once). Usage is not stored: it is measured from the
-- studio's own rows when asked (sync-server/billing/usage.ts). An organization without a row is
-- on the default plan with no add-ons, billed from its creation.
CREATE TABLE billing_subscriptions (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id),
  plan text NOT NULL,
  -- { "<AddOnType>": quantity } (packs of a metered add-on; 1 of a feature add-on).
  add_ons jsonb NOT NULL DEFAULT '{}',
  billing_contact_name text,
  billing_contact_email text,
  started_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid
);

-- Per metered add-on: what happens at its cap (restrictions) and who is told when (notices).
CREATE TABLE billing_add_on_settings (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  add_on_type text NOT NULL,
  -- { "MaxOverage": number | null }, null column: the default (no limit).
  restrictions jsonb,
  -- { "Thresholds": [..], "Recipients": [..], "NotifyBillingContact": bool }, null: the default.
  notification_settings jsonb,
  modified_at_utc timestamptz NOT NULL,
  PRIMARY KEY (organization_id, add_on_type)
);

CREATE TABLE billing_notices (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  add_on_type text NOT NULL,
  period_id text NOT NULL,
  threshold integer NOT NULL,
  percent double precision NOT NULL,
  recipients jsonb NOT NULL,
  sent_at_utc timestamptz NOT NULL,
  PRIMARY KEY (organization_id, add_on_type, period_id, threshold)
);
