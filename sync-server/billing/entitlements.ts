// What the organization's plan lets it do, enforced where the work is asked for (issue 31's billing
// follow-up): a feature the plan and its add-ons do not include is refused, and so is a request that
// would take a metered add-on's usage past its cap. The rules are the domain's (featuresOf,
// refusedByCap); this module reads the subscription and the month's usage and answers in the
// API's words (src/protocol/api/plans.ts says why both are 403s with a body).
//
//   guard (401 / 404 / 403 flags) ──> withFeature: plan lacks it ──> 403 featureNotInPlan
//   handler, in its transaction ──> assertUnderCap: cap reached or passed ──> 403 addOnCapReached
import type { MiddlewareHandler } from 'hono';
import { allowance, capOf, featuresOf, measureOf, periodOf, refusedByCap, type Feature, type MeteredAddOnType } from '../../src/domain/billing.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { ServerErrorCode } from '../../src/protocol/errors.ts';
import { capRefusal, featureRefusal } from '../../src/protocol/api/plans.ts';
import { getAuth } from '../auth.ts';
import { now } from '../app.ts';
import { AppError, fieldError, notFound } from '../errors.ts';
import type { Access } from '../api/guard.ts';
import type { Queryable } from '../store/store.ts';
import { loadAddOnSettings, loadSubscription } from './subscriptions.ts';
import { measureUsage } from './usage.ts';

/** The features the organization's plan and add-ons turn on now (none for an organization that is gone). */
export async function organizationFeatures(q: Queryable, organizationId: string): Promise<Feature[]> {
  const s = await loadSubscription(q, organizationId);
  return s ? featuresOf(s) : [];
}

/** The 403 of a feature the plan does not include. */
export function featureNotInPlan(feature: Feature): AppError {
  return new AppError(403, { Errors: [fieldError('body', formError('invalid', 'domain_plan_feature_missing', { feature }, ServerErrorCode.FeatureNotInPlan))] });
}

/** Refuses (403) unless the organization's plan includes `feature`. */
export async function assertFeature(q: Queryable, organizationId: string, feature: Feature): Promise<void> {
  if (!(await organizationFeatures(q, organizationId)).includes(feature)) throw featureNotInPlan(feature);
}

/**
 * The guard, and then the feature: after the guard, so a row the caller may not see is still a 404
 * and a missing flag still a bare 403 (the plan is not told to whoever has no business there).
 */
export function withFeature(access: Access, feature: Feature): Access {
  const check: MiddlewareHandler = async (c, next) => {
    await assertFeature(c.get('deps').store, getAuth(c).organizationId, feature);
    await next();
  };
  return {
    ...access,
    middleware: [...access.middleware, check],
    describe: `${access.describe}, in an organization whose plan includes ${feature}`,
    responses: { ...access.responses, 403: featureRefusal(feature) },
  };
}

/** A route whose handler checks the feature itself (only some of its calls need it): the guard
 * says so in the document. */
export function featureDocumented(access: Access, feature: Feature): Access {
  return { ...access, responses: { ...access.responses, 403: featureRefusal(feature) } };
}

/**
 * Audio put in (an upload begun, a clip's or recording's audio sent): its length is known only once
 * it is processed, so the request is refused when the month's ExtraStorage cap is already reached,
 * and one file may take usage past it (the next is refused).
 */
export function withStorageCap(access: Access): Access {
  const check: MiddlewareHandler = async (c, next) => {
    const deps = c.get('deps');
    await assertUnderCap(deps.store, getAuth(c).organizationId, 'ExtraStorage', 0, now(deps));
    await next();
  };
  return withCap({ ...access, middleware: [...access.middleware, check] }, 'ExtraStorage');
}

/** A route's guard says in the document that the call may meet an add-on's cap. */
export function withCap(access: Access, addOn: MeteredAddOnType, feature?: Feature): Access {
  return { ...access, responses: { ...access.responses, 403: capRefusal(addOn, feature) } };
}

/** What a seat request is, for the seats asked for but not yet held (pendingUnits): the invitation
 * of `invitedEmail` (sent again: its own open invitation is the request, not another one), or an
 * acceptance (`accepting`: it takes a seat that is there now, first come, so no open invitation
 * counts against it). */
export type SeatRequest = { invitedEmail?: string; accepting?: boolean };

/** Units of a measure asked for but not measured yet, so two requests at once cannot both slip
 * under the cap: transcriptions queued or under way count by their audio's length; seats, the open
 * invitations of other addresses than the one invited (none for an acceptance: SeatRequest). */
async function pendingUnits(q: Queryable, organizationId: string, addOn: MeteredAddOnType, at: Date, seat: SeatRequest): Promise<number> {
  if (addOn === 'ExtraSeats') {
    if (seat.accepting) return 0;
    const [row] = await q.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM invitations WHERE organization_id = $1 AND used_at_utc IS NULL AND expires_at_utc > $2 AND lower(email) <> lower(coalesce($3, ''))`,
      [organizationId, at, seat.invitedEmail ?? null],
    );
    return Number(row?.n ?? 0);
  }
  if (addOn !== 'TranscriptionMinutes') return 0;
  const [row] = await q.query<{ seconds: string | number | null }>(
    `SELECT coalesce(sum(CASE WHEN jsonb_typeof(coalesce(c.data, r.data)->'DurationSeconds') = 'number' THEN (coalesce(c.data, r.data)->>'DurationSeconds')::double precision ELSE 0 END), 0) AS seconds
       FROM transcriptions t LEFT JOIN clips c ON c.id = t.clip_id LEFT JOIN recordings r ON r.id = t.recording_id
      WHERE t.organization_id = $1 AND t.status IN ('Queued', 'InProgress')`,
    [organizationId],
  );
  return Number(row?.seconds ?? 0) / 60;
}

const twoPlaces = (n: number) => Math.round(n * 100) / 100;

/** The organization's row locked for the rest of the transaction: every seat and cap check takes
 * it first, so requests of one organization are judged one after the other, and anything else that
 * locks one of its rows (an invitation) takes this one before it, in the same order, so the two
 * wait for each other instead of deadlocking. */
export async function lockOrganization(q: Queryable, organizationId: string): Promise<void> {
  await q.query(`SELECT id FROM organizations WHERE id = $1 FOR UPDATE`, [organizationId]);
}

/**
 * Refuses (403 addOnCapReached) a request for `adding` units of the add-on's measure this month
 * when the cap is reached or would be passed. Call it inside the transaction that records the
 * request: the organization's row is locked first, so requests of one organization are judged one
 * after the other against usage that includes the ones before.
 */
export async function assertUnderCap(q: Queryable, organizationId: string, addOn: MeteredAddOnType, adding: number, at: Date, seat: SeatRequest = {}): Promise<void> {
  await lockOrganization(q, organizationId);
  const s = await loadSubscription(q, organizationId);
  if (!s) throw notFound();
  const { restriction } = (await loadAddOnSettings(q, organizationId))[addOn];
  // No MaxOverage: no cap, and nothing to measure.
  if (restriction.maxOverage === null) return;
  const measure = measureOf(addOn);
  const allowed = allowance(s, measure);
  const used = twoPlaces((await measureUsage(q, organizationId, periodOf(at)))[measure] + (await pendingUnits(q, organizationId, addOn, at, seat)));
  if (!refusedByCap(used, adding, allowed, restriction)) return;
  const cap = capOf(allowed, restriction)!;
  throw new AppError(403, { Errors: [fieldError('body', formError('invalid', 'domain_plan_cap_reached', { addOn, cap, used }, ServerErrorCode.AddOnCapReached))] });
}


/**
 * Accepting an invitation makes a seat: refused (403 addOnCapReached, ExtraSeats) when the seats
 * held now are at the cap. The invitation was under the cap when it was sent, but the cap may have
 * been lowered since, or an invitation that expired uncounted renewed, and other invitations
 * accepted meanwhile: the seat is the one asked for here, so it is checked here as well. Only
 * seats held count (not other open invitations: whoever accepts first gets the seat), and a user
 * who holds one already, admin or support staff, or an invitation of no permissions, takes none. Call it in the transaction
 * that adds the member; it locks the organization's row as every seat check does.
 */
export async function assertSeatForMember(q: Queryable, organizationId: string, userId: string, permissions: readonly unknown[], at: Date): Promise<void> {
  await lockOrganization(q, organizationId);
  if (permissions.length === 0) return;
  // Admin and support staff are never the organization's seats (usage.ts counts them out), so
  // their joining takes none either.
  const [seated] = await q.query(
    `SELECT 1 FROM memberships WHERE organization_id = $1 AND user_id = $2 AND jsonb_typeof(permissions) = 'array' AND jsonb_array_length(permissions) > 0
     UNION ALL SELECT 1 FROM users WHERE id = $2 AND is_admin_or_support`,
    [organizationId, userId],
  );
  if (seated) return;
  await assertUnderCap(q, organizationId, 'ExtraSeats', 1, at, { accepting: true });
}
