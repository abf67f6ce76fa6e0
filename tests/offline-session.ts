// A component test's device signed in from its cached session while the server cannot be reached
// (every fetch fails as offline): the screens read the device's rows and queue their changes.
import { loadSession } from '../src/lib/session.ts';
import type { PermissionEntry } from '../src/domain/permissions.ts';

/** Signs in as Ada, a member of the organization `organizationId` ("Radio") with these permission entries. */
export async function signInOffline(organizationId: string, entries: PermissionEntry[]): Promise<void> {
  const session = {
    Type: 'activated',
    UserBelongsToMultipleOrganizations: false,
    User: { Id: 'u1', Name: 'Ada', FirstName: 'Ada', Email: 'ada@example.com', IsAdmin: false, IsAdminOrSupport: false, HasResellerAccess: false, InterfaceLanguage: null },
    Organizations: [{ Id: organizationId, Name: 'Radio', IsDemoOrganization: false, UserPermissions: entries }],
  };
  localStorage.setItem('castaway.session', JSON.stringify(session));
  globalThis.fetch = () => Promise.reject(new TypeError('offline'));
  await loadSession();
}
