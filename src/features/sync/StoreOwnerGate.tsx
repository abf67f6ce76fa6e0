// The signed-in screens open only on a local store that is this user's (src/db/owner.ts). When
// another user's data is on the device (their session expired, then someone else signed in):
// with no unsynced edits of theirs it is only a copy of the server and is cleared at once; with
// some, the user is told whose and how many, and chooses to discard them or to log in as that
// user, who can then send them. The two users' rows are never shown together.
//
//   checking ──store has no owner, or this user──> children (the store is claimed for this user)
//      └──another user's──┬─ nothing unsynced ──clear──> children
//                         └─ N unsynced ──> warning: [Log in as them] [Discard their N changes]
//
// The check (useStoreOwnerCheck) lives in the signed-in shell, above the routes, so it runs once
// per user and not on every navigation; the gate (StoreOwnerGate) stands in for the page content
// only, inside the one page layout, so the navigation bar is the same element before and after
// the check (a menu opened while checking stays open).
import { useEffect, useState, type ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import { db, type StoreOwner } from '../../db/db.ts';
import { claimStore, type StoreClaim } from '../../db/owner.ts';
import { resetLocalData } from '../../db/reset.ts';
import { call } from '../../lib/api.ts';
import { logout } from '../../lib/shell-routes.ts';
import { clearSession, type SessionUser } from '../../lib/session.ts';
import { stopSync } from '../../lib/sync-runner.ts';
import { localWriteFailureText, reportLocalWriteFailure } from '../../lib/local-write.ts';

/** 'failed': the store could not be claimed (a full disk refuses the owner's row). */
type GateState = { kind: 'checking' } | { kind: 'failed'; error: unknown } | StoreClaim;

async function claimFor(user: StoreOwner): Promise<StoreClaim> {
  const claim = await claimStore(db, user);
  if (claim.kind === 'otherUser' && claim.unsynced === 0) {
    // Nothing of theirs to lose: their rows are a copy of the server's, cleared for this user.
    stopSync();
    await resetLocalData();
    return claimStore(db, user);
  }
  return claim;
}

export type StoreOwnerCheck = { owner: StoreOwner | null; state: GateState; settle: (claim: StoreClaim) => void; retry: () => void };

/** Claims the local store for `user` (again only when the user changes). */
export function useStoreOwnerCheck(user: SessionUser | null): StoreOwnerCheck {
  const owner: StoreOwner | null = user?.Id ? { userId: user.Id, name: user.Name, email: user.Email } : null;
  const [state, setState] = useState<GateState>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const key = owner ? `${owner.userId}\n${owner.name}\n${owner.email}` : '';
  useEffect(() => {
    if (!key) return;
    const [userId = '', name = '', email = ''] = key.split('\n');
    let live = true;
    setState({ kind: 'checking' });
    claimFor({ userId, name, email }).then(
      (claim) => {
        if (live) setState(claim);
      },
      (error: unknown) => {
        if (live) setState({ kind: 'failed', error });
      },
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);
  return { owner, state, settle: setState, retry: () => setAttempt((n) => n + 1) };
}

/** Whether the signed-in screens may open: the store is this user's (or there is no user to check). */
export function storeIsReady({ owner, state }: StoreOwnerCheck): boolean {
  return !owner || state.kind === 'mine';
}

/** The page content once the store is this user's; until then the check's progress or the warning. */
export function StoreOwnerGate({ check, children }: { check: StoreOwnerCheck; children: ReactNode }) {
  const { owner, state, settle, retry } = check;
  if (!owner || state.kind === 'mine') return <>{children}</>;
  if (state.kind === 'checking') return <p className="muted">{m.app_loading()}</p>;
  if (state.kind === 'failed') {
    return (
      <section className="card" aria-labelledby="store-failed-title">
        <h1 id="store-failed-title">{m.app_store_open_failed()}</h1>
        <p role="alert" className="alert alert-danger">{localWriteFailureText(state.error)}</p>
        <button type="button" className="button primary" onClick={retry}>{m.app_try_again()}</button>
      </section>
    );
  }
  return <OtherUserData claim={state} onDiscarded={settle} user={owner} />;
}

function OtherUserData({ claim, user, onDiscarded }: { claim: Extract<StoreClaim, { kind: 'otherUser' }>; user: StoreOwner; onDiscarded: (claim: StoreClaim) => void }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const { owner, unsynced } = claim;
  const name = owner.name || owner.email;
  const discard = async () => {
    setBusy(true);
    stopSync();
    try {
      await resetLocalData();
      onDiscarded(await claimStore(db, user));
    } catch (error) {
      setBusy(false); // the button again, with why it failed
      reportLocalWriteFailure(error, m.app_discard_failed());
    }
  };
  const logInAsOwner = async () => {
    setBusy(true);
    setFailed(false);
    // This user's session ends; the device keeps the other user's data for them to send.
    const res = await call(logout);
    if (res.kind !== 'ok') {
      setBusy(false);
      setFailed(true);
      return;
    }
    clearSession();
  };
  return (
    <section className="card" aria-labelledby="other-user-title">
      <h1 id="other-user-title">{m.app_sync_other_user_title()}</h1>
      <p className="alert alert-warning">{m.app_sync_other_user_text({ name, email: owner.email, count: unsynced })}</p>
      {failed && (
        <p role="alert" className="alert alert-danger">
          {m.app_logout_failed()}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void discard()}>
          {m.app_sync_other_user_discard({ count: unsynced })}
        </button>
        <button type="button" className="button primary" disabled={busy} onClick={() => void logInAsOwner()}>
          {m.app_sync_other_user_login({ name })}
        </button>
      </div>
    </section>
  );
}
