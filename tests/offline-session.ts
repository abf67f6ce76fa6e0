// A component test's device signed in from its cached session while the server cannot be reached
// (every fetch fails as offline): the screens read the device's rows and queue their changes.
import { loadSession } from '../src/lib/session.ts';
import type { PermissionEntry, PermissionFlags } from '../src/domain/permissions.ts';
import type { Feature } from '../src/domain/billing.ts';

/** What the permission flags are given on: the organization itself, or one of its programs. */
export type OfflineScope = 'organization' | { programId: string };

/** Signs in as Ada, a member of the organization `organizationId` ("Radio") with `permissions` on `scope`;
 * `features`: what the organization's plan includes as the session kept them (absent: not said, as
 * in a session kept from before the session carried them). */
export async function signInOffline(organizationId: string, scope: OfflineScope, permissions: Partial<PermissionFlags>, features?: Feature[]): Promise<void> {
  const entries: PermissionEntry[] = [
    scope === 'organization'
      ? { ObjectType: 'Organization', ObjectId: organizationId, Permissions: permissions }
      : { ObjectType: 'Program', ObjectId: scope.programId, Permissions: permissions },
  ];
  const session = {
    Type: 'activated',
    UserBelongsToMultipleOrganizations: false,
    User: { Id: 'u1', Name: 'Ada', FirstName: 'Ada', Email: 'ada@example.com', IsAdmin: false, IsAdminOrSupport: false, HasResellerAccess: false, InterfaceLanguage: null },
    Organizations: [{ Id: organizationId, Name: 'Radio', IsDemoOrganization: false, UserPermissions: entries, ...(features ? { Features: features } : {}) }],
  };
  localStorage.setItem('castaway.session', JSON.stringify(session));
  globalThis.fetch = () => Promise.reject(new TypeError('offline'));
  await loadSession();
}
