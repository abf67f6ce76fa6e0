// Pieces the enterprise screens share: what a read that is not (yet) an answer says, and "Open",
// which makes the caller a member of an enterprise's organization and opens it.
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { grantEnterpriseOrganizationAccess } from '../../protocol/api/enterprises.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';
import type { ApiResult } from '../../lib/api.ts';
import type { Loaded } from './load.ts';

/** Loading, offline, refused or failed: said where the answer would be (a 404 is the screen's to tell). */
export function StateNote({ state }: { state: Loaded<unknown> }) {
  if (state.kind === 'loading') return <p className="muted">{m.enterprises_loading()}</p>;
  if (state.kind === 'offline') {
    return (
      <p className="alert alert-info" role="status">
        {m.enterprises_offline()}
      </p>
    );
  }
  if (state.kind === 'forbidden' || state.kind === 'failed') {
    return (
      <p className="alert alert-error" role="alert">
        {state.kind === 'forbidden' ? m.enterprises_forbidden() : m.enterprises_failed()}
      </p>
    );
  }
  return null;
}

/**
 * "Open" (PUT …/access, then the organization): a full page load, so the session starts again with
 * the membership just made (the server gave the session a new id).
 */
export function OpenOrganizationButton({ enterpriseId, organizationId, label, primary = true }: { enterpriseId: string; organizationId: string; label: string; primary?: boolean }) {
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const open = async () => {
    setBusy(true);
    setAlert(null);
    const res = await withLoading(call(grantEnterpriseOrganizationAccess, { params: { enterpriseId, organizationId } }));
    if (res.kind === 'ok') {
      location.assign(`/${organizationId}`);
      return;
    }
    setBusy(false);
    setAlert(res.kind === 'error' ? m.enterprises_offline() : res.kind === 'notFound' ? m.enterprises_open_gone() : m.enterprises_open_failed());
  };
  return (
    <>
      <button type="button" className={`button${primary ? ' primary' : ''}`} disabled={busy || !online} aria-label={`${m.enterprises_open()}: ${label}`} onClick={() => void open()}>
        {m.enterprises_open()}
      </button>
      {alert && (
        <p className="alert alert-error" role="alert">
          {alert}
        </p>
      )}
    </>
  );
}

/** A paged list's later pages, added below the first by "Show more". */
export function useMore<T>(load: (page: number) => Promise<ApiResult<{ Items: T[]; HasNext: boolean }>>) {
  const [more, setMore] = useState<{ items: T[]; page: number; hasNext: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  const showMore = async () => {
    const page = (more?.page ?? 1) + 1;
    setFailed(false);
    const res = await withLoading(load(page));
    if (res.kind !== 'ok') return setFailed(true);
    setMore({ items: [...(more?.items ?? []), ...res.data.Items], page, hasNext: res.data.HasNext });
  };
  return { more, failed, showMore };
}

export function MoreButton({ hasNext, failed, onMore }: { hasNext: boolean; failed: boolean; onMore: () => void }) {
  const online = useOnline();
  return (
    <>
      {hasNext && (
        <div className="form-actions">
          <button type="button" className="button" disabled={!online} onClick={onMore}>
            {m.enterprises_more()}
          </button>
        </div>
      )}
      {failed && (
        <p className="alert alert-error" role="alert">
          {online ? m.enterprises_failed() : m.enterprises_offline()}
        </p>
      )}
    </>
  );
}
