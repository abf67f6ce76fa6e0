// Analytics in an organization whose plan lacks playlist-download-analytics (section 6: "Analytics
// needs content access plus the playlist-download-analytics feature"). The navigation hides the
// item then (organizationMenuItems); a deep link, or a plan changed since the session was read (the
// server's 403 naming the feature), lands here: what is missing, and for an admin, who can change
// the plan, the way to Billing & features.
import type { ReactNode } from 'react';
import type { Feature } from '../../domain/billing.ts';
import { featureMissingText } from '../../lib/plan-words.ts';
import * as words from '../../paraglide/areas/plans.js';
import { Link } from '../../lib/router.ts';
import { usePlanIncludes, useSession } from '../../lib/session.ts';

const FEATURE: Feature = 'playlist-download-analytics';

export function NotInPlan({ organizationId }: { organizationId: string }) {
  const isAdmin = useSession()?.session.User?.IsAdmin ?? false;
  return (
    <section className="card" role="status" aria-labelledby="not-in-plan-title">
      <h2 id="not-in-plan-title">{words.plans_not_in_plan_title()}</h2>
      <p>{featureMissingText(FEATURE)}</p>
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

/** The analytics screen, or NotInPlan when the session says the organization's plan lacks the feature. */
export function PlanGate({ organizationId, children }: { organizationId: string; children: ReactNode }) {
  if (!usePlanIncludes(organizationId, FEATURE)) return <NotInPlan organizationId={organizationId} />;
  return <>{children}</>;
}
