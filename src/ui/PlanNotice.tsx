// What a screen says where the organization's plan leaves a feature out (billing; the server's
// refusal is 403 featureNotInPlan, src/protocol/api/plans.ts): that it is not part of the plan,
// which feature, and the way on: for an admin, who can change the plan, a link to Billing &
// features; for anyone else, that an admin can add it. Shown before anything is tried when the
// session says the plan lacks it (usePlanIncludes), and where the user acted when the server
// refused a change (a plan changed since the session was read).
import type { ReactNode } from 'react';
import type { Feature } from '../domain/billing.ts';
import { featureMissingText } from '../lib/plan-words.ts';
import * as words from '../paraglide/areas/plans.js';
import { Link } from '../lib/router.ts';
import { useSession } from '../lib/session.ts';

type Props = {
  organizationId: string;
  feature: Feature;
  /** 'alert' when it answers something the user just did; 'status' (the default) when it explains a screen. */
  role?: 'alert' | 'status';
  /** A heading of its own (a notice standing in for a screen), or none (a notice inside a section). */
  heading?: 'h2' | 'none';
  className?: string;
  /** More to say, after the feature and before the way on (what stays possible meanwhile). */
  children?: ReactNode;
};

export function PlanNotice({ organizationId, feature, role = 'status', heading = 'h2', className = 'card', children }: Props) {
  const isAdmin = useSession()?.session.User?.IsAdmin ?? false;
  const titleId = `not-in-plan-${feature}`;
  return (
    <section className={className} role={role} {...(heading === 'h2' ? { 'aria-labelledby': titleId } : { 'aria-label': words.plans_not_in_plan_title() })}>
      {heading === 'h2' ? <h2 id={titleId}>{words.plans_not_in_plan_title()}</h2> : <strong>{words.plans_not_in_plan_title()}</strong>}
      <p>{featureMissingText(feature)}</p>
      {children}
      {isAdmin ? (
        <p>
          <Link href={`/${organizationId}/billing`} className="button">
            {words.plans_open_billing()}
          </Link>
        </p>
      ) : (
        <p className="muted">{words.plans_ask_an_admin()}</p>
      )}
    </section>
  );
}
