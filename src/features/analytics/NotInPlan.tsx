// Analytics in an organization whose plan lacks playlist-download-analytics (section 6: "Analytics
// needs content access plus the playlist-download-analytics feature"). The navigation hides the
// item then (organizationMenuItems); a deep link, or a plan changed since the session was read (the
// server's 403 naming the feature), lands here: what is missing, and for an admin, who can change
// the plan, the way to Billing & features.
import type { ReactNode } from 'react';
import type { Feature } from '../../domain/billing.ts';
import { usePlanIncludes } from '../../lib/session.ts';
import { PlanNotice } from '../../ui/PlanNotice.tsx';

const FEATURE: Feature = 'playlist-download-analytics';

export function NotInPlan({ organizationId }: { organizationId: string }) {
  return <PlanNotice organizationId={organizationId} feature={FEATURE} />;
}

/** The analytics screen, or NotInPlan when the session says the organization's plan lacks the feature. */
export function PlanGate({ organizationId, children }: { organizationId: string; children: ReactNode }) {
  if (!usePlanIncludes(organizationId, FEATURE)) return <NotInPlan organizationId={organizationId} />;
  return <>{children}</>;
}
