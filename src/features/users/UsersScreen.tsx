// /{organizationId}/users — Organization users (section 2), opened from the organization menu by
// those it shows the item to (section 6: manage-user access at Organization scope; the rule is
// organizationMenuItems'). Anyone else who types the address gets the 403 page.
//
// Memberships live on the server (not synced rows): the whole list is fetched (GET /v1/users in
// full-list pages) and kept on the device (src/db/users-cache.ts), then filtered, sorted and paged
// here (src/domain/users.ts), so offline the last list stays readable, with its time. Changing
// anything needs the network: offline the actions say so instead of failing.
//
//   loading ──ok──> listed (kept) ──edit / remove / invite──> call ──ok──> loading again
//      │                                                       └─400──> at the field that was edited
//      └─fails──> the kept list, if any (offline: "as it was at …"), else the failure
import { useCallback, useMemo, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { fetchAllPages } from '../../domain/paging.ts';
import { organizationMenuItems } from '../../domain/permissions.ts';
import { readUserSort, removalError, scopeOf, USER_SORTS, userListPage, type UserSort } from '../../domain/users.ts';
import { formatFormError } from '../../domain/messages.ts';
import type { OrganizationUser } from '../../protocol/entities.ts';
import { listUsers, removeUser } from '../../protocol/api/users.ts';
import { resetUserMfa } from '../../protocol/api/mfa.ts';
import { getUserList, putUserList } from '../../db/users-cache.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { useLoadWhenOnline } from '../../lib/load-when-online.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { useIdParams } from '../../lib/params.ts';
import { navigate, useSearch } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { StatusErrorPage } from '../../ui/ErrorPage.tsx';
import { FLAG_LABEL, SCOPE_LABEL } from './PermissionFields.tsx';
import { PermissionsDialog } from './PermissionsDialog.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import { PendingInvitations } from './PendingInvitations.tsx';
import { memberOf, type Member } from './permission-draft.ts';
import './users.css';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';

type Listing = { kind: 'loading' } | { kind: 'listed'; users: Member[]; fetchedAt: number; fresh: boolean } | { kind: 'failed'; offline: boolean };

const SORT_LABEL: Record<UserSort, () => string> = { name: () => m.users_sort_name(), email: () => m.users_sort_email(), scope: () => m.users_sort_scope() };

/** The whole list from the server, kept on the device; else the kept one. */
function useUserList(organizationId: string) {
  const [listing, setListing] = useState<Listing>({ kind: 'loading' });
  const load = useCallback(async () => {
    const res = await fetchAllPages<OrganizationUser>(async (page, pageSize) => {
      const r = await call(listUsers, { query: { page: String(page), pageSize: String(pageSize) } });
      return r.kind === 'ok' ? { kind: 'ok', status: r.status, value: r.data } : { kind: 'error', error: r };
    });
    if (res.kind === 'ok') {
      const fetchedAt = Date.now();
      setListing({ kind: 'listed', users: res.value.map(memberOf), fetchedAt, fresh: true });
      await putUserList(organizationId, res.value, fetchedAt);
      return;
    }
    const kept = await getUserList(organizationId);
    setListing(kept ? { kind: 'listed', users: kept.users.map(memberOf), fetchedAt: kept.fetchedAt, fresh: false } : { kind: 'failed', offline: !navigator.onLine });
  }, [organizationId]);
  useLoadWhenOnline(load);
  return { listing, load };
}

export function UsersScreen() {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const org = session ? organizationById(session, organizationId) : undefined;
  const allowed = organizationMenuItems({ entries: org?.UserPermissions ?? [], belongsToMultipleOrganizations: false, isDemoOrganization: false }).includes('users');
  if (!session) return null;
  if (!allowed) return <StatusErrorPage status={403} />;
  return <UsersList organizationId={organizationId} organizationName={org?.Name} callerId={session.User?.Id ?? ''} />;
}

function UsersList({ organizationId, organizationName, callerId }: { organizationId: string; organizationName: string | undefined; callerId: string }) {
  const online = useOnline();
  const { listing, load } = useUserList(organizationId);
  const search = new URLSearchParams(useSearch());
  const query = { filter: search.get('q') ?? '', sort: readUserSort(search.get('sort')), page: Number(search.get('page') ?? '1') };
  const setQuery = (next: Partial<typeof query>) => {
    const merged = { ...query, page: 1, ...next };
    const params = new URLSearchParams();
    if (merged.filter) params.set('q', merged.filter);
    if (merged.sort !== 'name') params.set('sort', merged.sort);
    if (merged.page > 1) params.set('page', String(merged.page));
    const qs = params.toString();
    navigate(`/${organizationId}/users${qs ? `?${qs}` : ''}`, { replace: true });
  };
  const users = listing.kind === 'listed' ? listing.users : [];
  const shown = useMemo(() => userListPage(users, query), [users, query.filter, query.sort, query.page]); // eslint-disable-line react-hooks/exhaustive-deps -- query is rebuilt each render from the URL
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [resetting, setResetting] = useState<Member | null>(null);
  const [inviting, setInviting] = useState(false);
  const [importing, setImporting] = useState(false);
  // Bumped by an invitation or import made here: the pending list is read again.
  const [invited, setInvited] = useState(0);
  const [rowError, setRowError] = useState<{ userId: string; text: string } | null>(null);

  return (
    <>
      <PageHeader
        title={m.users_title()}
        eyebrow={organizationName}
        documentTitle={[m.users_title(), organizationName]}
        actions={
          <>
            <button type="button" className="button" onClick={() => setImporting(true)}>
              {m.users_import()}
            </button>
            <button type="button" className="button primary" onClick={() => setInviting(true)}>
              {m.users_invite()}
            </button>
          </>
        }
      />
      {!online && <p className="alert alert-warning" role="status">{listing.kind === 'listed' ? m.users_offline_cached({ time: formatDateTime(listing.fetchedAt) }) : m.users_offline()}</p>}
      {online && listing.kind === 'listed' && !listing.fresh && (
        <p className="alert alert-warning" role="status">
          {m.users_stale({ time: formatDateTime(listing.fetchedAt) })}{' '}
          <button type="button" className="button" onClick={() => void load()}>
            {m.app_try_again()}
          </button>
        </p>
      )}
      {listing.kind === 'failed' && (
        <div className="alert alert-warning" role="status">
          <p>{listing.offline ? m.users_offline() : m.users_load_failed()}</p>
          <button type="button" className="button" onClick={() => void load()}>
            {m.app_try_again()}
          </button>
        </div>
      )}
      {listing.kind === 'loading' && <p className="muted">{m.users_loading()}</p>}
      {listing.kind === 'listed' && (
        <section className="users" aria-label={m.users_title()}>
          <div className="users-toolbar">
            <div className="field">
              <label htmlFor="users-filter">{m.users_filter()}</label>
              <input id="users-filter" type="search" value={query.filter} placeholder={m.users_filter_placeholder()} onChange={(e) => setQuery({ filter: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor="users-sort">{m.users_sort()}</label>
              <select id="users-sort" value={query.sort} onChange={(e) => setQuery({ sort: readUserSort(e.target.value) })}>
                {USER_SORTS.map((s) => (
                  <option key={s} value={s}>
                    {SORT_LABEL[s]()}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p className="muted" aria-live="polite">
            {m.users_count({ count: shown.total })}
          </p>
          {shown.items.length === 0 ? (
            <p className="muted">{query.filter ? m.users_none_matching() : m.users_none()}</p>
          ) : (
            <ul className="user-list">
              {shown.items.map((u) => (
                <UserItem
                  key={u.Id}
                  user={u}
                  isYou={u.Id === callerId}
                  error={rowError?.userId === u.Id ? rowError.text : undefined}
                  onEdit={() => setEditing(u)}
                  onResetMfa={() => {
                    if (!online) setRowError({ userId: u.Id, text: m.users_change_offline() });
                    else {
                      setRowError(null);
                      setResetting(u);
                    }
                  }}
                  onRemove={() => {
                    // The rule the server holds to, said here before anything is asked.
                    const refused = removalError(callerId, u, users);
                    if (refused) setRowError({ userId: u.Id, text: formatFormError(refused) });
                    else if (!online) setRowError({ userId: u.Id, text: m.users_change_offline() });
                    else {
                      setRowError(null);
                      setRemoving(u);
                    }
                  }}
                />
              ))}
            </ul>
          )}
          {shown.pageCount > 1 && (
            <nav className="users-paging" aria-label={m.users_paging()}>
              <button type="button" className="button" disabled={shown.page <= 1} onClick={() => setQuery({ page: shown.page - 1 })}>
                {m.users_previous()}
              </button>
              <span>{m.users_page({ page: shown.page, count: shown.pageCount })}</span>
              <button type="button" className="button" disabled={shown.page >= shown.pageCount} onClick={() => setQuery({ page: shown.page + 1 })}>
                {m.users_next()}
              </button>
            </nav>
          )}
        </section>
      )}
      <PendingInvitations online={online} version={invited} />
      {editing && <PermissionsDialog organizationId={organizationId} user={editing} members={users} online={online} onClose={() => setEditing(null)} onSaved={() => void load()} />}
      <InviteDialog open={inviting} organizationId={organizationId} online={online} onClose={() => setInviting(false)} onInvited={() => {
          void load();
          setInvited((n) => n + 1);
        }} />
      <ImportDialog open={importing} organizationId={organizationId} online={online} onClose={() => setImporting(false)} onImported={() => {
          void load();
          setInvited((n) => n + 1);
        }} />
      <ConfirmDialog
        open={resetting !== null}
        onClose={() => setResetting(null)}
        danger
        title={m.users_mfa_reset_title()}
        description={m.users_mfa_reset_description({ name: resetting?.Name ?? '' })}
        actionLabel={m.users_mfa_reset()}
        successToast={m.users_mfa_reset_done({ name: resetting?.Name ?? '' })}
        failureDescription={m.users_mfa_reset_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.users_mfa_reset_failed())}
        onConfirm={async () => {
          if (!resetting) return;
          const res = await call(resetUserMfa, { params: { userId: resetting.Id } });
          if (res.kind === 'ok') return;
          // Said where the button was, too: the dialog closes on failure.
          const text = mailUnknownHostText(res) ?? (res.kind === 'notFound' ? m.users_mfa_reset_gone() : res.kind === 'error' && !navigator.onLine ? m.users_change_offline() : m.users_mfa_reset_failed());
          setRowError({ userId: resetting.Id, text });
          throw new Error(text);
        }}
        onDone={() => void load()}
      />
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        danger
        prompt
        title={m.users_remove_title()}
        description={m.users_remove_description({ name: removing?.Name ?? '', organization: organizationName ?? '' })}
        actionLabel={m.users_remove()}
        successToast={m.users_removed({ name: removing?.Name ?? '' })}
        failureDescription={m.users_remove_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.users_remove_failed())}
        onConfirm={async () => {
          if (!removing) return;
          const res = await call(removeUser, { params: { userId: removing.Id } });
          // Not found: already removed (by someone else), which is what was asked.
          if (res.kind === 'ok' || res.kind === 'notFound') return;
          const text = res.kind === 'badRequest' ? (res.body.Errors[0]?.Message ?? m.users_remove_failed()) : res.kind === 'error' && !navigator.onLine ? m.users_change_offline() : m.users_remove_failed();
          setRowError({ userId: removing.Id, text });
          throw new Error(text);
        }}
        onDone={() => void load()}
      />
    </>
  );
}

function UserItem({ user, isYou, error, onEdit, onResetMfa, onRemove }: { user: Member; isYou: boolean; error: string | undefined; onEdit: () => void; onResetMfa: () => void; onRemove: () => void }) {
  const nameId = `user-${user.Id}`;
  const scope = scopeOf(user.Permissions) ?? 'none';
  const flags = [...new Set(user.Permissions.flatMap((e) => Object.entries(e.Permissions).filter(([, on]) => on === true).map(([f]) => f)))] as Array<keyof typeof FLAG_LABEL>;
  return (
    <li className="user-item" aria-labelledby={nameId}>
      <div className="user-item-text">
        <strong id={nameId}>
          {user.Name}
          {isYou && <span className="muted"> {m.users_you()}</span>}
        </strong>
        <span className="user-email">{user.Email}</span>
        <span className="muted">
          {SCOPE_LABEL[scope]()}
          {scope === 'Network' || scope === 'Program' ? ` (${user.Permissions.length})` : ''}
          {flags.length > 0 ? ` · ${flags.map((f) => FLAG_LABEL[f]()).join(', ')}` : ''}
          {!user.Activated ? ` · ${m.users_not_activated()}` : ''}
          {user.MfaEnabled ? ` · ${m.users_mfa_on()}` : ''}
        </span>
        {error && (
          <p role="alert" className="field-error">
            {error}
          </p>
        )}
      </div>
      <div className="user-item-actions">
        <button type="button" className="button" onClick={onEdit} aria-describedby={nameId}>
          {m.users_edit_permissions()}
        </button>
        {/* Your own: turned off in Account settings, with a code (a reset here would skip that proof). */}
        {user.MfaEnabled && !isYou && (
          <button type="button" className="button" onClick={onResetMfa} aria-describedby={nameId}>
            {m.users_mfa_reset()}
          </button>
        )}
        <button type="button" className="button danger-outline" onClick={onRemove} aria-describedby={nameId}>
          {m.users_remove()}
        </button>
      </div>
    </li>
  );
}
