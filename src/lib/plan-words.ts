// What the screens say when the organization's plan refuses something (sync-server/billing/
// entitlements.ts; the refusal read by src/protocol/api/plans.ts readPlanRefusal): the feature or
// add-on by its name on the Billing & features screen, not its id on the wire.
import * as m from '../paraglide/areas/plans.js';
import { ADD_ON_LABEL, FEATURE_LABEL } from '../domain/billing-words.ts';
import type { Feature, PlanRefusal } from '../domain/billing.ts';
import { readPlanRefusal } from '../protocol/api/plans.ts';
import type { ApiResult } from './api.ts';

export const featureMissingText = (feature: Feature) => m.plans_feature_missing({ feature: FEATURE_LABEL[feature]() });

const numberIn = (locale: string | undefined) => (n: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(n);

/** The refusal in the user's words (for a cap, the figures in their locale's numbers). */
export function planRefusalText(refusal: PlanRefusal, locale?: string): string {
  if (refusal.kind === 'feature') return `${featureMissingText(refusal.feature)} ${m.plans_ask_an_admin()}`;
  const number = numberIn(locale);
  return m.plans_cap_reached({ addOn: ADD_ON_LABEL[refusal.addOn](), cap: number(refusal.cap), used: number(refusal.used) });
}

/** An invitation's acceptance refused at the ExtraSeats cap, said to the person invited (who can
 * do nothing about it but ask): seats, not the add-on's name. */
export function seatsFullText(refusal: Extract<PlanRefusal, { kind: 'cap' }>, organization: string, locale?: string): string {
  const number = numberIn(locale);
  return m.plans_seats_full({ organization, cap: number(refusal.cap), used: number(refusal.used) });
}

/** An upload refused at the ExtraStorage cap, where the file was picked: its measure is hours of stored audio. */
export function storageFullText(refusal: Extract<PlanRefusal, { kind: 'cap' }>, locale?: string): string {
  const number = numberIn(locale);
  return m.plans_storage_full({ cap: number(refusal.cap), used: number(refusal.used) });
}

/** A call's answer, if it is the plan's refusal: a 403 naming a feature or a cap. */
export function planRefusalIn(res: ApiResult<unknown>): PlanRefusal | null {
  return res.kind === 'status' && res.status === 403 ? readPlanRefusal(res.body) : null;
}

/** A call's answer, if it is the plan's refusal, in the user's words. */
export function planRefusalOf(res: ApiResult<unknown>, locale?: string): string | null {
  const refusal = planRefusalIn(res);
  return refusal ? planRefusalText(refusal, locale) : null;
}
