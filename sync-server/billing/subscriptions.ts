// An organization's subscription and its metered add-ons' settings as kept (0585_billing.sql), read
// into the domain's shapes (src/domain/billing.ts). An organization never changed by an admin is on
// DEFAULT_PLAN with no add-ons, billed from its creation: nothing is written until one is changed.
import {
  ADD_ON_TYPES,
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_PLAN,
  DEFAULT_RESTRICTION,
  METERED_ADD_ON_TYPES,
  PLAN_IDS,
  type AddOnType,
  type MeteredAddOnType,
  type NotificationSettings,
  type PlanId,
  type Restriction,
  type Subscription,
} from '../../src/domain/billing.ts';
import type { Queryable } from '../store/store.ts';

export type KeptSubscription = Subscription & { organizationName: string; modifiedAtUtc: Date | null };

type SubscriptionRow = {
  name: string;
  org_created: Date | string;
  plan: string | null;
  add_ons: Record<string, unknown> | null;
  billing_contact_name: string | null;
  billing_contact_email: string | null;
  started_at_utc: Date | string | null;
  modified_at_utc: Date | string | null;
};

const planOf = (value: string | null): PlanId => ((PLAN_IDS as readonly string[]).includes(value ?? '') ? (value as PlanId) : DEFAULT_PLAN);

function addOnsOf(value: Record<string, unknown> | null): Partial<Record<AddOnType, number>> {
  const out: Partial<Record<AddOnType, number>> = {};
  for (const type of ADD_ON_TYPES) {
    const n = value?.[type];
    if (typeof n === 'number' && n > 0) out[type] = n;
  }
  return out;
}

/** The live organization's subscription, or null when there is no such organization. */
export async function loadSubscription(q: Queryable, organizationId: string): Promise<KeptSubscription | null> {
  const [row] = await q.query<SubscriptionRow>(
    `SELECT o.name, o.created_at_utc AS org_created, s.plan, s.add_ons, s.billing_contact_name, s.billing_contact_email, s.started_at_utc, s.modified_at_utc
       FROM organizations o LEFT JOIN billing_subscriptions s ON s.organization_id = o.id
      WHERE o.id = $1 AND NOT o.deleted`,
    [organizationId],
  );
  if (!row) return null;
  return {
    organizationName: row.name,
    plan: planOf(row.plan),
    addOns: addOnsOf(row.add_ons),
    billingContactName: row.billing_contact_name,
    billingContactEmail: row.billing_contact_email,
    startedAtUtc: new Date(row.started_at_utc ?? row.org_created),
    modifiedAtUtc: row.modified_at_utc === null ? null : new Date(row.modified_at_utc),
  };
}

/** Writes the whole subscription (the first write keeps the organization's billing start). */
export async function saveSubscription(q: Queryable, organizationId: string, s: Subscription, by: string | null, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO billing_subscriptions (organization_id, plan, add_ons, billing_contact_name, billing_contact_email, started_at_utc, modified_at_utc, modified_by_id)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8)
     ON CONFLICT (organization_id) DO UPDATE SET plan = EXCLUDED.plan, add_ons = EXCLUDED.add_ons, billing_contact_name = EXCLUDED.billing_contact_name,
       billing_contact_email = EXCLUDED.billing_contact_email, modified_at_utc = EXCLUDED.modified_at_utc, modified_by_id = EXCLUDED.modified_by_id`,
    [organizationId, s.plan, JSON.stringify(s.addOns), s.billingContactName, s.billingContactEmail, s.startedAtUtc, at, by],
  );
}

export type AddOnSettings = { restriction: Restriction; notifications: NotificationSettings; restrictionModifiedAtUtc: Date | null; notificationsModifiedAtUtc: Date | null };

type SettingsRow = { add_on_type: string; restrictions: { MaxOverage?: unknown } | null; notification_settings: { Thresholds?: unknown; Recipients?: unknown; NotifyBillingContact?: unknown } | null; modified_at_utc: Date | string };

function settingsOf(row: SettingsRow | undefined): AddOnSettings {
  const r = row?.restrictions;
  const n = row?.notification_settings;
  const at = row ? new Date(row.modified_at_utc) : null;
  return {
    restriction: r ? { maxOverage: typeof r.MaxOverage === 'number' ? r.MaxOverage : null } : DEFAULT_RESTRICTION,
    notifications: n
      ? {
          thresholds: Array.isArray(n.Thresholds) ? n.Thresholds.filter((t): t is number => typeof t === 'number') : [],
          recipients: Array.isArray(n.Recipients) ? n.Recipients.filter((t): t is string => typeof t === 'string') : [],
          notifyBillingContact: n.NotifyBillingContact === true,
        }
      : DEFAULT_NOTIFICATION_SETTINGS,
    restrictionModifiedAtUtc: r ? at : null,
    notificationsModifiedAtUtc: n ? at : null,
  };
}

/** Every metered add-on's settings (the defaults where none are kept). */
export async function loadAddOnSettings(q: Queryable, organizationId: string): Promise<Record<MeteredAddOnType, AddOnSettings>> {
  const rows = await q.query<SettingsRow>(`SELECT add_on_type, restrictions, notification_settings, modified_at_utc FROM billing_add_on_settings WHERE organization_id = $1`, [organizationId]);
  return Object.fromEntries(METERED_ADD_ON_TYPES.map((t) => [t, settingsOf(rows.find((r) => r.add_on_type === t))])) as Record<MeteredAddOnType, AddOnSettings>;
}

export async function saveRestriction(q: Queryable, organizationId: string, type: MeteredAddOnType, restriction: Restriction, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO billing_add_on_settings (organization_id, add_on_type, restrictions, modified_at_utc) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (organization_id, add_on_type) DO UPDATE SET restrictions = EXCLUDED.restrictions, modified_at_utc = EXCLUDED.modified_at_utc`,
    [organizationId, type, JSON.stringify({ MaxOverage: restriction.maxOverage }), at],
  );
}

export async function saveNotificationSettings(q: Queryable, organizationId: string, type: MeteredAddOnType, settings: NotificationSettings, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO billing_add_on_settings (organization_id, add_on_type, notification_settings, modified_at_utc) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (organization_id, add_on_type) DO UPDATE SET notification_settings = EXCLUDED.notification_settings, modified_at_utc = EXCLUDED.modified_at_utc`,
    [organizationId, type, JSON.stringify({ Thresholds: settings.thresholds, Recipients: settings.recipients, NotifyBillingContact: settings.notifyBillingContact }), at],
  );
}
