// /go/new-clip, /go/search, /go/sync: the web manifest's shortcuts (vite.config.ts). A manifest is
// the same for every user, so it cannot name an organization; these routes resolve "the last
// organization opened": the one this device keeps (the sync engine's, set when an organization is
// opened), else the user's only organization, else the organization list. New clip lands on the
// organization's programs, where the user picks the program whose clip list has "New clip" (a clip
// belongs to a program).
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../paraglide/messages.js';
import { currentOrganization, db } from '../db/db.ts';
import { landingOrganizationId } from '../domain/permissions.ts';
import { Redirect } from '../lib/router.ts';
import { organizationById, useSession } from '../lib/session.ts';
import { StatusErrorPage } from '../ui/ErrorPage.tsx';

export const GO_TARGETS = { 'new-clip': 'programs', search: 'search', sync: 'sync' } as const;
export type GoTarget = keyof typeof GO_TARGETS;

function isTarget(value: string): value is GoTarget {
  return Object.hasOwn(GO_TARGETS, value);
}

export function GoRedirect({ target }: { target: string }) {
  const session = useSession()?.session;
  // undefined while IndexedDB answers; null on a device that has kept no organization yet.
  const kept = useLiveQuery(() => currentOrganization(db), []);
  if (!isTarget(target)) return <StatusErrorPage status={404} />;
  if (!session || kept === undefined) return <p className="muted">{m.app_loading()}</p>;
  const organizationId = kept && organizationById(session, kept) ? kept : landingOrganizationId(session);
  // Replacing /go/…: Back from the screen leaves the app as it came, not through the redirect.
  if (!organizationId) return <Redirect to="/" replace />;
  return <Redirect to={`/${organizationId}/${GO_TARGETS[target]}`} replace />;
}
