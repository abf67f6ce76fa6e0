// Everything under /{organizationId}: validates the id (invalid → invalid-id error), makes it
// the organization of API calls and of the sync engine, and shows 'Organization not found' when
// the signed-in user has no such organization.
//
// Until the first pull has brought the organization to this device the local store is empty,
// which says nothing about the server: instead of empty lists or a wrong 'not found' page the
// scope says the organization is downloading (online) or not yet available offline (offline).
// While that first download runs (or a rebuild's), the store holds part of the organization: its
// progress is shown instead of screens whose lists and counts would be partial.
// The device keeps one organization at a time, the one the syncing tab shows (sync.worker.ts): a
// tab that shows another one while another tab syncs says which one the device keeps, and offers
// to keep this tab's instead.
// A permission change reaches the device with the next pull, which stores the caller's permissions
// when they changed: the session's copy, which menus and screens read, is loaded again then, so a
// right taken away leaves the menus and the home's texts as well as the rows.
import { useEffect, useRef, type ReactNode } from 'react';
import { m } from '../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { currentOrganization, db } from '../db/db.ts';
import { setApiOrganization } from '../lib/api.ts';
import { loadSession, organizationById, useSession } from '../lib/session.ts';
import { claimSync, ensureSync, useSyncRole } from '../lib/sync-runner.ts';
import { NotFoundPage } from '../ui/ErrorPage.tsx';
import { downloading, useFirstSync, useSyncStatus } from '../features/sync/useSyncStatus.ts';
import { FirstSyncProgress } from '../features/sync/FirstSyncProgress.tsx';
import { usePrefetchConflictAuthors } from '../features/sync/conflict-authors.ts';
import { useIdParams } from '../lib/params.ts';

export function OrganizationScope({ children, needsLocalData = true }: { children: ReactNode; needsLocalData?: boolean }) {
  const { organizationId } = useIdParams('organizationId');
  const state = useSession();
  const known = state ? organizationById(state.session, organizationId) !== undefined : false;
  setApiOrganization(organizationId);
  useEffect(() => {
    if (known) ensureSync(organizationId);
  }, [organizationId, known]);
  usePrefetchConflictAuthors(useSyncStatus().online && known);
  useSessionFollowsPulledPermissions(known);
  if (!known) return <NotFoundPage kind="organization" organizationId={organizationId} />;
  if (!needsLocalData) return <>{children}</>;
  return <WhenDownloaded organizationId={organizationId}>{children}</WhenDownloaded>;
}

/** Loads the session again when a pull has stored other permissions than the device held (not on
 * the first look: that is the state the page started with). */
function useSessionFollowsPulledPermissions(active: boolean): void {
  const changedAt = useLiveQuery(async () => ((await db.syncState.get('permissionsChangedAt'))?.value as number | undefined) ?? 0, []);
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!active || changedAt === undefined) return;
    if (seen.current !== undefined && changedAt > seen.current) void loadSession();
    seen.current = changedAt;
  }, [changedAt, active]);
}

function WhenDownloaded({ organizationId, children }: { organizationId: string; children: ReactNode }) {
  const downloaded = useLiveQuery(async () => (await db.organizations.get(organizationId)) !== undefined, [organizationId]);
  const kept = useLiveQuery(() => currentOrganization(db), []);
  const role = useSyncRole();
  const session = useSession()?.session;
  const { online } = useSyncStatus();
  const firstSync = useFirstSync();
  if (downloaded === undefined || firstSync === undefined) return <p className="muted">{m.app_loading()}</p>;
  if (downloaded && !downloading(firstSync)) return <>{children}</>;
  if (role === 'follower' && kept && kept !== organizationId) {
    const name = (id: string) => (session ? organizationById(session, id)?.Name : undefined) ?? id;
    return (
      <section className="first-sync" aria-labelledby="first-sync-title">
        <h1 id="first-sync-title">{m.app_other_tab_title({ organization: name(kept) })}</h1>
        <p>{m.app_other_tab_text()}</p>
        <button type="button" className="button primary" onClick={claimSync}>
          {m.app_other_tab_claim({ organization: name(organizationId) })}
        </button>
      </section>
    );
  }
  // Offline with nothing of the organization here yet: it is not available, not downloading.
  if (downloading(firstSync) && (online || downloaded)) return <FirstSyncProgress progress={firstSync} online={online} />;
  if (online) {
    return (
      <section className="first-sync" aria-labelledby="first-sync-title">
        <h1 id="first-sync-title">{m.app_first_sync_downloading_title()}</h1>
        <p role="status">{m.app_first_sync_downloading_text()}</p>
      </section>
    );
  }
  return (
    <section className="first-sync" aria-labelledby="first-sync-title">
      <h1 id="first-sync-title">{m.app_first_sync_offline_title()}</h1>
      <p>{m.app_first_sync_offline_text()}</p>
    </section>
  );
}
