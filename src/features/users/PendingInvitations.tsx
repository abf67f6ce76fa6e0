// The users screen's pending invitations: addresses invited and not yet joined, open or expired,
// newest first, each with Resend (a new link, valid for a week; the old one stops working) and
// Withdraw (the link stops working). Server state like the user list: changing needs the network,
// and offline the actions say so at the row.
//   GET /internal/invitations · POST /v1/users/{userId}/invitation · DELETE /internal/invitations/{id}
import { useCallback, useEffect, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { scopeOf } from '../../domain/users.ts';
import { cancelInvitation, listPendingInvitations, resendInvitation, type PendingInvitation } from '../../protocol/api/invitations.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { showToast } from '../../lib/toast.ts';
import { SCOPE_LABEL } from './PermissionFields.tsx';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';
import { planRefusalOf } from '../../lib/plan-words.ts';
import { getLocale } from '../../lib/i18n.ts';

/** `version` changes when an invitation was made elsewhere on the screen: the list is read again. */
export function PendingInvitations({ online, version }: { online: boolean; version: number }) {
  // null until the first answer; 'failed' says why the list is not there (never hidden silently).
  const [items, setItems] = useState<PendingInvitation[] | { failed: 'offline' | 'refused' } | null>(null);
  const [rowError, setRowError] = useState<{ id: string; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const load = useCallback(async () => {
    const res = await call(listPendingInvitations);
    setItems(res.kind === 'ok' ? res.data : { failed: navigator.onLine ? 'refused' : 'offline' });
  }, []);
  useEffect(() => {
    if (online) void load();
    else setItems((was) => (Array.isArray(was) ? was : { failed: 'offline' }));
  }, [load, online, version]);

  if (items !== null && !Array.isArray(items))
    return (
      <section className="users pending-invitations" aria-labelledby="pending-title">
        <h2 id="pending-title">{m.users_pending_title()}</h2>
        <div className="alert alert-warning" role="status">
          <p>{items.failed === 'offline' ? m.users_pending_offline() : m.users_pending_load_failed()}</p>
          {items.failed === 'refused' && (
            <button type="button" className="button" onClick={() => void load()}>
              {m.app_try_again()}
            </button>
          )}
        </div>
      </section>
    );
  if (!items || items.length === 0) return null;
  const act = async (invitation: PendingInvitation, kind: 'resend' | 'withdraw') => {
    if (!navigator.onLine) return setRowError({ id: invitation.Id, text: m.users_change_offline() });
    setBusy(invitation.Id);
    setRowError(null);
    const res = kind === 'resend' ? await call(resendInvitation, { params: { userId: invitation.UserId } }) : await call(cancelInvitation, { params: { invitationId: invitation.Id } });
    setBusy(null);
    if (res.kind === 'ok') {
      showToast({ type: 'success', title: kind === 'resend' ? m.users_pending_resent({ email: invitation.Email }) : m.users_pending_withdrawn({ email: invitation.Email }) });
      void load();
      return;
    }
    // Gone meanwhile (accepted, or withdrawn by someone else): the list is read again.
    if (res.kind === 'notFound') void load();
    const text =
      mailUnknownHostText(res) ??
      planRefusalOf(res, getLocale()) ??
      (res.kind === 'notFound' ? m.users_pending_gone() : res.kind === 'badRequest' || (res.kind === 'status' && res.status === 429) ? m.users_pending_too_many() : !navigator.onLine ? m.users_change_offline() : m.users_pending_failed());
    setRowError({ id: invitation.Id, text });
  };

  return (
    <section className="users pending-invitations" aria-labelledby="pending-title">
      <h2 id="pending-title">{m.users_pending_title()}</h2>
      <ul className="user-list">
        {items.map((i) => {
          const nameId = `pending-${i.Id}`;
          const scope = scopeOf(i.Permissions) ?? 'none';
          return (
            <li key={i.Id} className="user-item" aria-labelledby={nameId}>
              <div className="user-item-text">
                <strong id={nameId}>{i.Email}</strong>
                <span className="muted">
                  {SCOPE_LABEL[scope]()} ·{' '}
                  {i.State === 'Expired'
                    ? m.users_pending_expired({ time: formatDateTime(i.ExpiresAtUtc) })
                    : m.users_pending_open({ name: i.InvitedByName ?? '', time: formatDateTime(i.CreatedAtUtc), expires: formatDateTime(i.ExpiresAtUtc) })}
                </span>
                {rowError?.id === i.Id && (
                  <p role="alert" className="field-error">
                    {rowError.text}
                  </p>
                )}
              </div>
              <div className="user-item-actions">
                <button type="button" className="button" disabled={busy === i.Id} aria-describedby={nameId} onClick={() => void act(i, 'resend')}>
                  {m.users_pending_resend()}
                </button>
                <button type="button" className="button danger-outline" disabled={busy === i.Id} aria-describedby={nameId} onClick={() => void act(i, 'withdraw')}>
                  {m.users_pending_withdraw()}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
