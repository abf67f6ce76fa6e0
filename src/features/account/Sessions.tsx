// The account's sessions (issue 31: "sessions list with sign out everywhere"): every browser signed
// in to the account with its device, address and last use, this one first; "Sign out" ends one,
// "Sign out everywhere else" every other one after a confirmation (their open apps are signed out
// at their next request and their event streams close at once). Server-only state: it needs the
// network and says so offline (src/lib/load-when-online.ts loads it again when the network is back).
//   GET /internal/users/me/sessions · DELETE …/sessions/{sessionId} · DELETE …/sessions
import { useCallback, useId, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { endMyOtherSessions, endMySession, listMySessions, type AccountSession } from '../../protocol/api/sessions.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { useLoadWhenOnline } from '../../lib/load-when-online.ts';
import { withLoading } from '../../lib/loading.ts';
import { showToast } from '../../lib/toast.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { LoadFailed, refusalText } from './settings-form.tsx';

type Listing = { kind: 'loading' } | { kind: 'listed'; sessions: AccountSession[] } | { kind: 'failed'; offline: boolean };

export function SessionsSection() {
  const headingId = useId();
  const [listing, setListing] = useState<Listing>({ kind: 'loading' });
  const [confirming, setConfirming] = useState(false);
  const [ending, setEnding] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const res = await call(listMySessions);
    setListing(res.kind === 'ok' ? { kind: 'listed', sessions: res.data.Items } : { kind: 'failed', offline: res.kind === 'error' && !navigator.onLine });
  }, []);
  useLoadWhenOnline(load);

  const end = async (session: AccountSession) => {
    setError(null);
    setEnding(session.Id);
    const res = await withLoading(call(endMySession, { params: { sessionId: session.Id } }));
    setEnding(null);
    // Not found: it ended meanwhile (signed out there, or expired), which is what was asked.
    if (res.kind === 'ok' || res.kind === 'notFound') {
      showToast({ type: 'success', title: m.account_sessions_ended() });
      void load();
    } else setError(navigator.onLine ? refusalText(res, [], m.account_sessions_failed()).form ?? m.account_sessions_failed() : m.account_sessions_offline());
  };

  const others = listing.kind === 'listed' ? listing.sessions.filter((s) => !s.Current) : [];
  return (
    <section className="card form" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.account_sessions_title()}</h2>
      <p>{m.account_sessions_intro()}</p>
      {listing.kind === 'loading' && <p className="muted">{m.app_loading()}</p>}
      {listing.kind === 'failed' && <LoadFailed text={listing.offline ? m.account_sessions_offline() : m.account_sessions_load_failed()} onRetry={() => void load()} />}
      {listing.kind === 'listed' && (
        <ul className="plain-list" aria-label={m.account_sessions_title()}>
          {listing.sessions.map((s) => (
            <li key={s.Id} aria-label={s.Device ?? m.account_sessions_unknown_device()} style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '1rem', flexWrap: 'wrap', padding: '0.5rem 0', borderBottom: '1px solid var(--border, #ddd)' }}>
              <div>
                <strong>{s.Device ?? m.account_sessions_unknown_device()}</strong> {s.Current && <span className="pill pill-ready">{m.account_sessions_this_device()}</span>}
                <div className="muted">
                  {[s.ClientAddress, m.account_sessions_last_seen({ when: formatDateTime(s.LastSeenAtUtc ?? s.CreatedAtUtc) }), m.account_sessions_signed_in({ when: formatDateTime(s.CreatedAtUtc) })].filter(Boolean).join(' · ')}
                </div>
              </div>
              {!s.Current && (
                <button type="button" className="button" disabled={ending === s.Id} aria-busy={ending === s.Id} onClick={() => void end(s)}>
                  {m.account_sessions_sign_out()}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="alert alert-danger">
          {error}
        </p>
      )}
      {others.length > 0 && (
        <div className="form-actions">
          <button type="button" className="button danger-outline" onClick={() => setConfirming(true)}>
            {m.account_sessions_sign_out_others()}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        danger
        title={m.account_sessions_sign_out_others()}
        description={m.account_sessions_sign_out_others_description({ count: others.length })}
        actionLabel={m.account_sessions_sign_out_others()}
        successToast={m.account_sessions_ended_others()}
        failureDescription={m.account_sessions_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.account_sessions_failed())}
        onConfirm={async () => {
          const res = await call(endMyOtherSessions);
          if (res.kind !== 'ok') throw new Error(navigator.onLine ? (refusalText(res, [], m.account_sessions_failed()).form ?? m.account_sessions_failed()) : m.account_sessions_offline());
        }}
        onDone={() => void load()}
      />
    </section>
  );
}
