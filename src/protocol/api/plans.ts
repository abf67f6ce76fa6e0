// What the organization's plan refuses (src/domain/billing.ts: featuresOf, refusedByCap), as the
// OpenAPI document says it on every route a feature or a cap stands in front of. Both are 403s with
// a body: section 7 gives other statuses no body, but the guard already answers a refusal the
// caller can do something about with one (an unactivated account's write), and these are such
// refusals: the caller holds the flags, their organization's plan stops them, and an admin can
// change that under Billing & features. A bare 403 would say "you may not", which is not so.
//
//   403 { Errors: [{ Field: 'body', Code: 'featureNotInPlan', Params: { feature } }] }
//   403 { Errors: [{ Field: 'body', Code: 'addOnCapReached', Params: { addOn, cap, used } }] }
import * as z from 'zod';
import { BadRequestBodySchema, ServerErrorCode, type FieldError } from '../errors.ts';
import { FEATURES, METERED_ADD_ON_TYPES, type Feature, type MeteredAddOnType, type PlanRefusal } from '../../domain/billing.ts';

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

/** What a plan refused, read from a 403's body (null: a 403 for another reason, or none). */
const FeatureParams = z.object({ feature: z.enum(FEATURES) });
const CapParams = z.object({ addOn: z.enum(METERED_ADD_ON_TYPES), cap: z.number(), used: z.number() });

export function readPlanRefusal(body: unknown): PlanRefusal | null {
  const parsed = BadRequestBodySchema.safeParse(body);
  if (!parsed.success) return null;
  for (const error of parsed.data.Errors) {
    if (error.Code === ServerErrorCode.FeatureNotInPlan) {
      const params = FeatureParams.safeParse(error.Params);
      if (params.success) return { kind: 'feature', feature: params.data.feature };
    }
    if (error.Code === ServerErrorCode.AddOnCapReached) {
      const params = CapParams.safeParse(error.Params);
      if (params.success) return { kind: 'cap', ...params.data };
    }
  }
  return null;
}

/** A 403 the server explains (a body of field errors: the plan's refusal, an account not activated,
 * …), read from its status and text: its first field error, and the plan's refusal when it is one.
 * Null for a 403 without a body (a stale XSRF token, or flags the caller lacks) and any other status. */
export function readExplained403(status: number, text: string | null | undefined): { error: FieldError; plan: PlanRefusal | null } | null {
  if (status !== 403 || !text) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = BadRequestBodySchema.safeParse(body);
  return parsed.success ? { error: parsed.data.Errors[0]!, plan: readPlanRefusal(body) } : null;
}
