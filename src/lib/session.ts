// The signed-in session (spec sections 3 and 4), fetched from GET /api/internal/session and kept
// in localStorage so the studio opens offline with the last known user and organizations.
//
//   signed in ──the server answers 401 (a load, or the sync engine's status paused 'auth')──>
//   logged out, `expired` (the login screen says so; this device's data and queued edits stay)
//   ──login──> signed in (sync-runner.ts resumes the paused sync, the queued edits go out)
import { call, onExplained403, setXsrfToken } from './api.ts';
import { getShared, setShared, sharedState, subscribeShared, useShared } from './store.ts';
import { getSession, listMyOrganizations } from './shell-routes.ts';
import { permissionsFor, type PermissionEntry, type PermissionFlags } from '../domain/permissions.ts';
import { FEATURES, type Feature } from '../domain/billing.ts';

export type SessionType = 'loggedOut' | 'unactivated' | 'activated';
export type SessionUser = {
  Id: string;
  Name: string;
  FirstName: string;
  Email: string;
  ImageUrl: string | null;
  IsAdmin: boolean;
  IsAdminOrSupport: boolean;
  HasResellerAccess: boolean;
  InterfaceLanguage: string | null;
};
/** Features: what the organization's plan turns on; absent when the server did not say (a session kept from before). */
export type SessionOrganization = { Id: string; Name: string; IsDemoOrganization: boolean; UserPermissions: PermissionEntry[]; Features?: Feature[] };
export type Session = {
  Type: SessionType;
  UserBelongsToMultipleOrganizations: boolean;
  User: SessionUser | null;
  Organizations: SessionOrganization[];
};

export const LOGGED_OUT: Session = { Type: 'loggedOut', UserBelongsToMultipleOrganizations: false, User: null, Organizations: [] };
const CACHE_KEY = 'castaway.session';

type Raw = Record<string, unknown>;
const pick = (o: Raw | undefined, ...keys: string[]): unknown => {
  if (!o) return undefined;
  for (const k of keys) if (o[k] !== undefined) return o[k];
  return undefined;
};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function normaliseUser(raw: unknown): SessionUser | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as Raw;
  return {
    Id: str(pick(u, 'Id', 'id')),
    Name: str(pick(u, 'Name', 'name')),
    FirstName: str(pick(u, 'FirstName', 'firstName')),
    Email: str(pick(u, 'Email', 'email')),
    ImageUrl: (pick(u, 'ImageUrl', 'imageUrl') as string | null | undefined) ?? null,
    IsAdmin: pick(u, 'IsAdmin', 'isAdmin') === true,
    IsAdminOrSupport: pick(u, 'IsAdminOrSupport', 'isAdminOrSupport') === true,
    HasResellerAccess: pick(u, 'HasResellerAccess', 'hasResellerAccess') === true,
    InterfaceLanguage: (pick(u, 'InterfaceLanguage', 'interfaceLanguage') as string | null | undefined) ?? null,
  };
}

export function normaliseOrganization(raw: unknown): SessionOrganization {
  const o = (raw ?? {}) as Raw;
  return {
    Id: str(pick(o, 'Id', 'id')),
    Name: str(pick(o, 'Name', 'name')),
    IsDemoOrganization: pick(o, 'IsDemoOrganization', 'isDemoOrganization') === true,
    UserPermissions: (pick(o, 'UserPermissions', 'userPermissions', 'Permissions') as PermissionEntry[] | undefined) ?? [],
    ...featuresOfRaw(pick(o, 'Features')),
  };
}

/** The plan's features as sent, the ones this build knows (absent when none were sent). */
function featuresOfRaw(raw: unknown): { Features?: Feature[] } {
  if (!Array.isArray(raw)) return {};
  return { Features: FEATURES.filter((f) => raw.includes(f)) };
}

export function normaliseSession(raw: unknown, organizations: unknown[] = []): Session {
  const s = (raw ?? {}) as Raw;
  const type = str(pick(s, 'Type', 'type'));
  const token = pick(s, 'XsrfToken', 'xsrfToken');
  if (typeof token === 'string' && token) setXsrfToken(token);
  return {
    Type: type === 'activated' || type === 'unactivated' ? type : 'loggedOut',
    UserBelongsToMultipleOrganizations: pick(s, 'UserBelongsToMultipleOrganizations', 'userBelongsToMultipleOrganizations') === true || organizations.length > 1,
    User: normaliseUser(pick(s, 'User', 'user')),
    Organizations: organizations.map(normaliseOrganization),
  };
}

function readCache(): Session | null {
  try {
    const text = localStorage.getItem(CACHE_KEY);
    return text ? (JSON.parse(text) as Session) : null;
  } catch {
    return null;
  }
}

export type SessionState = {
  session: Session;
  offline: boolean;
  /** Logged out because the server ended the session while the user was signed in (not by
   * logging out): the login screen says so, and the local data and queued edits are kept. */
  expired: boolean;
};

const sessionState = sharedState<SessionState | null>(null);
/** When the server last confirmed the session (ms); a sync status older than this says nothing
 * about the current session. */
let confirmedAt = 0;
/** Where the device keeps confirmedAt, so a reload offline still knows it (sessionConfirmedAt). */
const CONFIRMED_KEY = 'castaway.session.confirmedAt';
function set(session: Session, offline: boolean, expired = false): void {
  if (!offline && session.Type !== 'loggedOut') {
    confirmedAt = Date.now();
    localStorage.setItem(CONFIRMED_KEY, String(confirmedAt));
  }
  if (!offline) {
    if (session.Type === 'loggedOut') {
      localStorage.removeItem(CACHE_KEY);
      localStorage.removeItem(CONFIRMED_KEY);
    }
    else localStorage.setItem(CACHE_KEY, JSON.stringify(session));
  }
  setShared(sessionState, { session, offline, expired });
}

/** Loads the session from the server, falling back to the cached one when the network is down. */
export async function loadSession(): Promise<void> {
  const res = await call(getSession);
  if (res.kind === 'ok') {
    const raw = res.data as Raw;
    let orgs: unknown[] = [];
    const type = str(pick(raw, 'Type', 'type'));
    if (type === 'activated' || type === 'unactivated') {
      const list = await call(listMyOrganizations);
      if (list.kind === 'ok') orgs = Array.isArray(list.data) ? list.data : (((list.data as Raw | null)?.Items as unknown[] | undefined) ?? []);
      else orgs = readCache()?.Organizations ?? [];
    }
    set(normaliseSession(raw, orgs), false);
    return;
  }
  if (res.kind === 'status' && res.status === 401) {
    // Someone was signed in here (this tab, or the cached session of the last visit): expired.
    const current = getShared(sessionState);
    const last = current?.session ?? readCache();
    return set(LOGGED_OUT, false, (last !== null && last.Type !== 'loggedOut') || current?.expired === true);
  }
  const cached = readCache();
  set(cached ?? LOGGED_OUT, true);
}

/** The session as last loaded (logged out until the first load). */
export function currentSession(): Session {
  return getShared(sessionState)?.session ?? LOGGED_OUT;
}

export function clearSession(): void {
  set(LOGGED_OUT, false);
}

/** The server no longer accepts the session (the sync engine got a 401): show the login screen
 * saying so, keeping this device's data. */
export function expireSession(): void {
  if (getShared(sessionState)?.session.Type === 'loggedOut') return;
  set(LOGGED_OUT, false, true);
}

export function currentSessionState(): SessionState | null {
  return getShared(sessionState);
}

export function sessionConfirmedAt(): number {
  return confirmedAt;
}

/** When the server last confirmed the session on this device, in this page or an earlier one
 *  (ms; 0: never). A refusal older than that is answered: the session read since says what the
 *  plan is now. */
export function sessionConfirmedOnDeviceAt(): number {
  return Math.max(confirmedAt, Number(localStorage.getItem(CONFIRMED_KEY) ?? 0) || 0);
}

export function subscribeSession(listener: () => void): () => void {
  return subscribeShared(sessionState, listener);
}

export function useSession(): SessionState | null {
  return useShared(sessionState);
}

/** Whether the organization's plan includes `feature`, as the session says (yes when it does not
 * say: a session kept from before; the server still refuses what the plan lacks). */
export function usePlanIncludes(organizationId: string, feature: Feature): boolean {
  const session = useSession()?.session;
  const features = session ? organizationById(session, organizationId)?.Features : undefined;
  return features === undefined || features.includes(feature);
}

/**
 * The server refused something because the organization's plan lacks `feature` (403
 * featureNotInPlan: the plan changed since the session was read). The session, and the copy kept
 * on this device, say so from now on, so the screens say it offline too, from the device's own
 * data; the next load of the session from the server says what the plan is again.
 */
export function notePlanLacks(organizationId: string, feature: Feature): void {
  const current = getShared(sessionState);
  const organization = current ? organizationById(current.session, organizationId) : undefined;
  if (!current || !organization) return;
  // A session that did not say (one kept from before) held every feature as far as the screens knew.
  const features = organization.Features ?? [...FEATURES];
  if (!features.includes(feature)) return;
  const session = { ...current.session, Organizations: current.session.Organizations.map((o) => (o.Id === organizationId ? { ...o, Features: features.filter((f) => f !== feature) } : o)) };
  if (readCache() !== null) localStorage.setItem(CACHE_KEY, JSON.stringify(session));
  setShared(sessionState, { ...current, session });
}

// Wherever an API call meets the plan's refusal. Its reader (zod) is loaded then, not with the
// first screens.
onExplained403((organizationId, body) => {
  void import('../protocol/api/plans.ts').then(({ readPlanRefusal }) => {
    const refusal = readPlanRefusal(body);
    if (refusal?.kind === 'feature') notePlanLacks(organizationId, refusal.feature);
  });
});

export function organizationById(session: Session, id: string): SessionOrganization | undefined {
  return session.Organizations.find((o) => o.Id === id);
}

/** The signed-in user's flags on one program of an organization (section 6 scopes), or null while
 *  the session is unknown. */
export function useProgramFlags(organizationId: string, program: { Id: string; NetworkId?: string | null } | null): PermissionFlags | null {
  const state = useSession();
  if (!state || !program) return null;
  const entries = organizationById(state.session, organizationId)?.UserPermissions ?? [];
  return permissionsFor(entries, { kind: 'program', programId: program.Id, networkId: program.NetworkId ?? null });
}
