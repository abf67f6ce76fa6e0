// The demo organizations' plans, written by the seed (sync-server/seed.ts). Castaway Demo Radio is
// on Broadcast, so every screen of the demo has its feature; Castaway Podcasts is a podcaster on
// Starter that bought Apple Podcasts Subscriptions as an add-on, so its plan lacks
// playlist-download-analytics: signed in there, the demo shows what a plan without a feature does
// (no Analytics in the menu, "your plan does not include" on a deep link, a 403 from the API).
import type { Subscription } from '../../src/domain/billing.ts';
import type { Queryable } from '../store/store.ts';
import { saveSubscription } from './subscriptions.ts';

export const DEMO_PLANS = {
  demo: { plan: 'Broadcast', addOns: {} },
  podcasts: { plan: 'Starter', addOns: { ApplePremium: 1 } },
} as const satisfies Record<string, Pick<Subscription, 'plan' | 'addOns'>>;

export async function seedDemoPlans(q: Queryable, at: Date, organizations: { demo: string; podcasts: string }): Promise<void> {
  for (const key of ['demo', 'podcasts'] as const) {
    const { plan, addOns } = DEMO_PLANS[key];
    await saveSubscription(q, organizations[key], { plan, addOns: { ...addOns }, billingContactName: null, billingContactEmail: null, startedAtUtc: at }, null, at);
  }
}
