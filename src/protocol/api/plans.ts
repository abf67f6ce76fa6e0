// What the organization's plan refuses (src/domain/billing.ts: featuresOf, refusedByCap), as the
// OpenAPI document says it on every route a feature or a cap stands in front of. Both are 403s with
// a body: section 7 gives other statuses no body, but the guard already answers a refusal the
// caller can do something about with one (an unactivated account's write), and these are such
// refusals: the caller holds the flags, their organization's plan stops them, and an admin can
// change that under Billing & features. A bare 403 would say "you may not", which is not so.
//
//   403 { Errors: [{ Field: 'body', Code: 'featureNotInPlan', Params: { feature } }] }
//   403 { Errors: [{ Field: 'body', Code: 'addOnCapReached', Params: { addOn, cap, used } }] }
import { BadRequestBodySchema } from '../errors.ts';
import type { Feature, MeteredAddOnType } from '../../domain/billing.ts';

const body = { 'application/json': { schema: BadRequestBodySchema } };

const FLAGS = 'The caller sees the row but lacks the permission this needs (no body)';

/** The 403 of a route that needs a feature of the plan. */
export function featureRefusal(feature: Feature) {
  return {
    description: `${FLAGS}; or the organization’s plan and add-ons do not include ${feature}: a body naming it (Field body, Code featureNotInPlan, Params.feature)`,
    content: body,
  };
}

/** The 403 of a route that uses a metered add-on's measure, and may need a feature too. */
export function capRefusal(addOn: MeteredAddOnType, feature?: Feature) {
  const first = feature ? featureRefusal(feature).description : FLAGS;
  return {
    description: `${first}; or this would take the month’s ${addOn} usage past its cap (the allowance plus the add-on’s MaxOverage, PATCH /internal/billing/add-on/${addOn}/restrictions): a body naming it (Field body, Code addOnCapReached, Params.addOn, cap, used)`,
    content: body,
  };
}
