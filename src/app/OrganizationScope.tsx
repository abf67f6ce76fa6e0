// Everything under /{organizationId}: validates the id (invalid → invalid-id error), makes it
// the organization of API calls and of the sync engine, and shows 'Organization not found' when
// the signed-in user has no such organization.
import { useEffect, type ReactNode } from 'react';
import { setApiOrganization } from '../lib/api.ts';
import { organizationById, useSession } from '../lib/session.ts';
import { startSync } from '../lib/sync-client.ts';
import { NotFoundPage } from '../features/errors/ErrorPage.tsx';
import { useIdParams } from './params.ts';

let running: { organizationId: string; stop: () => void } | null = null;

function useSyncEngine(organizationId: string, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    if (running?.organizationId === organizationId) return;
    running?.stop();
    const engine = startSync({ organizationId });
    running = { organizationId, stop: () => engine.stop() };
  }, [organizationId, enabled]);
}

export function OrganizationScope({ children }: { children: ReactNode }) {
  const { organizationId } = useIdParams('organizationId');
  const state = useSession();
  const known = state ? organizationById(state.session, organizationId) !== undefined : false;
  setApiOrganization(organizationId);
  useSyncEngine(organizationId, known);
  if (!known) return <NotFoundPage kind="organization" organizationId={organizationId} />;
  return <>{children}</>;
}
