// The demo's enterprises (sync-server/seed.ts calls this once, in its transaction): the reseller
// manages "Castaway Demo Group", which holds the demo organization and has the reseller's sales
// code (and a retired one no one owns); "Castaway Podcast Partners" holds the other organization
// and is managed by the admin, not the reseller, so the authorization matrix has an enterprise and
// an owned code the reseller may not see.
import { seedId } from '../seed.ts';
import type { Queryable } from '../store/store.ts';
import { salesCodeKey } from '../../src/domain/enterprises.ts';

export const DEMO_ENTERPRISE = seedId('enterprise:demo-group');
export const OTHER_ENTERPRISE = seedId('enterprise:podcast-partners');
export const DEMO_SALES_CODE = 'CASTAWAY-DEMO';
export const OTHER_SALES_CODE = 'PARTNERS-2025';
/** A code whose owner left: it has no owning user (404). */
export const RETIRED_SALES_CODE = 'RETIRED-2024';

export async function seedDemoEnterprises(q: Queryable, at: Date, organizations: { demo: string; podcasts: string }): Promise<void> {
  const reseller = seedId('user:reseller@example.com');
  const admin = seedId('user:admin@example.com');
  const enterprises = [
    { id: DEMO_ENTERPRISE, name: 'Castaway Demo Group', organization: organizations.demo, plan: 'Group Standard', user: reseller, code: DEMO_SALES_CODE },
    { id: OTHER_ENTERPRISE, name: 'Castaway Podcast Partners', organization: organizations.podcasts, plan: 'Partner', user: admin, code: OTHER_SALES_CODE },
  ];
  for (const e of enterprises) {
    // `npm run seed -- --reset` empties the organizations and users (and, with them, the tables that
    // name them) but not the enterprises: the demo's are made again over what is left of them.
    await q.query(
      `INSERT INTO enterprises (id, name, created_at_utc, modified_at_utc) VALUES ($1, $2, $3, $3)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, created_at_utc = EXCLUDED.created_at_utc, modified_at_utc = EXCLUDED.modified_at_utc`,
      [e.id, e.name, at],
    );
    await q.query(
      `INSERT INTO enterprise_organizations (organization_id, enterprise_id, display_name, plan_label, notes, added_at_utc, modified_at_utc) VALUES ($1, $2, NULL, $3, NULL, $4, $4)`,
      [e.organization, e.id, e.plan, at],
    );
    await q.query(`INSERT INTO enterprise_users (enterprise_id, user_id, added_at_utc) VALUES ($1, $2, $3)`, [e.id, e.user, at]);
    await q.query(`INSERT INTO sales_codes (key, name, enterprise_id, owner_user_id, created_at_utc) VALUES ($1, $2, $3, $4, $5)`, [salesCodeKey(e.code), e.code, e.id, e.user, at]);
  }
  await q.query(`INSERT INTO sales_codes (key, name, enterprise_id, owner_user_id, created_at_utc) VALUES ($1, $2, $3, NULL, $4)`, [salesCodeKey(RETIRED_SALES_CODE), RETIRED_SALES_CODE, DEMO_ENTERPRISE, at]);
}
