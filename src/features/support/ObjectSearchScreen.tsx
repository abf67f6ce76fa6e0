// /admin/lookup — Object search (issue 33; section 6's Admin section, for admin and support users):
// one box that finds an organization from whatever a customer sends support — an id, an address
// of the studio, an e-mail, a slug or words of a title (src/domain/staff-lookup.ts reads it, here
// and on the server). The query is in the address (?query=…), so the Admin menu opens it already
// searching for the page the staff member is on, and a reload or the back button keeps it.
//
// Each row opens where it lives in the studio. A row of an organization the staff member is not a
// member of offers Grant access (section 6: POST /admin/users/me/organizations), then opens it:
// a full page load, so the session starts with the new membership. Server-only, like the other
// staff tools: offline it says the search needs the connection.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { grantAccessOutcome } from '../../domain/dialogs.ts';
import { domainMessage, fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { readStaffLookup, type StaffLookupKind } from '../../domain/staff-lookup.ts';
import { grantOrganizationAccess, regenerateClipAudio, staffLookup, type StaffLookupResult, type StaffLookupRow } from '../../protocol/api/admin.ts';
import { retryClipBrandSafety } from '../../protocol/api/brand-safety.ts';
import type { BadRequestBody } from '../../protocol/errors.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';
import { Link, navigate, useSearch } from '../../lib/router.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import './object-search.css';

const KIND_LABEL: Record<StaffLookupKind, () => string> = {
  Organization: () => m.app_lookup_kind_organization(),
  Network: () => m.app_lookup_kind_network(),
  Program: () => m.app_lookup_kind_program(),
  Playlist: () => m.app_lookup_kind_playlist(),
  Clip: () => m.app_lookup_kind_clip(),
  Recording: () => m.app_lookup_kind_recording(),
  User: () => m.app_lookup_kind_user(),
};

type Found = { kind: 'idle' } | { kind: 'searching' } | { kind: 'failed'; message: string } | { kind: 'done'; result: StaffLookupResult };

export function ObjectSearchScreen() {
  const online = useOnline();
  const inputId = useId();
  const asked = new URLSearchParams(useSearch()).get('query') ?? '';
  const [text, setText] = useState(asked);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [found, setFound] = useState<Found>({ kind: 'idle' });

  const search = useCallback(async (query: string) => {
    const read = readStaffLookup(query);
    if ('error' in read) {
      setFieldError(formatFormError(read.error));
      return setFound({ kind: 'idle' });
    }
    setFieldError(null);
    setFound({ kind: 'searching' });
    const res = await withLoading(call(staffLookup, { query: { query } }));
    if (res.kind === 'ok') return setFound({ kind: 'done', result: res.data });
    if (res.kind === 'badRequest') {
      setFieldError(res.body.Errors.map((e) => fieldErrorText(e)).join(' '));
      return setFound({ kind: 'idle' });
    }
    setFound({ kind: 'failed', message: res.kind === 'error' ? m.app_lookup_offline() : res.kind === 'status' && res.status === 403 ? m.app_lookup_forbidden() : m.app_lookup_failed() });
  }, []);

  // The query in the address is searched when it changes (the menu's link, back and forward).
  useEffect(() => {
    setText(asked);
    if (asked.trim() !== '' && online) void search(asked);
  }, [asked, online, search]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readStaffLookup(text);
    if ('error' in read) return setFieldError(formatFormError(read.error));
    // Into the address, which searches: the same search again is asked again (a fresh answer).
    if (text === asked) void search(text);
    else navigate(`/admin/lookup?query=${encodeURIComponent(text)}`);
  };

  return (
    <>
      <PageHeader title={m.app_menu_object_search()} />
      <p className="muted">{m.app_lookup_intro()}</p>
      <form className="card form lookup-form" role="search" aria-label={m.app_menu_object_search()} noValidate onSubmit={submit}>
        <div className={`field${fieldError ? ' has-error' : ''}`}>
          <label htmlFor={inputId}>{m.app_lookup_field()}</label>
          <input
            id={inputId}
            type="search"
            value={text}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={`${inputId}-hint${fieldError ? ` ${inputId}-error` : ''}`}
            onChange={(e) => {
              setText(e.target.value);
              setFieldError(null);
            }}
          />
          <p id={`${inputId}-hint`} className="field-hint">
            {m.app_lookup_hint()}
          </p>
          {fieldError && (
            <p id={`${inputId}-error`} className="field-error">
              {fieldError}
            </p>
          )}
        </div>
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={!online}>
            {m.app_lookup_search()}
          </button>
        </div>
      </form>
      {!online && (
        <p className="muted" role="status">
          {m.app_lookup_offline()}
        </p>
      )}
      {found.kind === 'searching' && <p className="muted">{m.app_lookup_searching()}</p>}
      {found.kind === 'failed' && (
        <p className="alert alert-error" role="alert">
          {found.message}
        </p>
      )}
      {found.kind === 'done' && <Results result={found.result} />}
    </>
  );
}

function Results({ result }: { result: StaffLookupResult }) {
  if (result.Results.length === 0) {
    return (
      <p className="muted" role="status">
        {m.app_lookup_none({ query: result.Query })}
      </p>
    );
  }
  return (
    <>
      <p className="muted" role="status">
        {m.app_lookup_count({ count: result.Results.length })}
      </p>
      <ul className="plain-list lookup-results" aria-label={m.app_lookup_results()}>
        {result.Results.map((row) => (
          <ResultRow key={`${row.Kind}-${row.Id}-${row.OrganizationId ?? ''}`} row={row} />
        ))}
      </ul>
    </>
  );
}

function ResultRow({ row }: { row: StaffLookupRow }) {
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = row.Title || m.app_lookup_untitled();
  const label = `${KIND_LABEL[row.Kind]()}: ${title}`;

  const grantAndOpen = async () => {
    if (!row.OrganizationId) return;
    setBusy(true);
    setAlert(null);
    const res = await withLoading(call(grantOrganizationAccess, { json: { OrganizationId: row.OrganizationId } }));
    setBusy(false);
    const outcome = grantAccessOutcome(res);
    if (outcome.action === 'alert') return setAlert(res.kind === 'error' ? m.app_lookup_offline() : domainMessage(outcome.message));
    // A full load: the session is read again, with the new membership.
    location.assign(row.Deleted || !row.Href ? `/${row.OrganizationId}` : row.Href);
  };

  // The staff clip tool: the clip's published audio made again from its upload, whoever's it is.
  const regenerate = async () => {
    setBusy(true);
    setAlert(null);
    setNotice(null);
    const res = await withLoading(call(regenerateClipAudio, { params: { clipId: row.Id } }));
    setBusy(false);
    if (res.kind === 'ok') return setNotice(m.app_lookup_regenerating());
    const refusal = res.kind === 'status' && res.status === 409 && res.body ? (res.body as BadRequestBody).Errors[0] : undefined;
    setAlert(res.kind === 'error' ? m.app_lookup_offline() : refusal ? fieldErrorText(refusal) : res.kind === 'notFound' ? m.app_lookup_gone() : m.app_lookup_failed());
  };

  // The other staff clip tool: the clip's brand-safety analysis made again (after a failure, or to check it now).
  const retryBrandSafety = async () => {
    setBusy(true);
    setAlert(null);
    setNotice(null);
    const res = await withLoading(call(retryClipBrandSafety, { params: { clipId: row.Id } }));
    setBusy(false);
    if (res.kind === 'ok') return setNotice(m.app_lookup_brand_safety_queued());
    setAlert(res.kind === 'error' ? m.app_lookup_offline() : res.kind === 'notFound' ? m.app_lookup_gone() : m.app_lookup_failed());
  };

  return (
    <li className="card lookup-row" aria-label={label}>
      <p className="lookup-kind">
        <span className="pill">{KIND_LABEL[row.Kind]()}</span>
        {row.Deleted && <span className="pill pill-error">{m.app_lookup_deleted()}</span>}
      </p>
      <h2 className="lookup-title">{title}</h2>
      <dl className="lookup-facts">
        {row.Detail && (
          <>
            <dt>{row.Kind === 'User' ? m.app_lookup_email() : row.Kind === 'Organization' ? m.app_lookup_type() : row.Kind === 'Program' ? m.app_lookup_slug() : m.app_lookup_program()}</dt>
            <dd>{row.Detail}</dd>
          </>
        )}
        <dt>{m.app_lookup_organization()}</dt>
        <dd>{row.OrganizationName ?? m.app_lookup_no_organization()}</dd>
        <dt>{m.app_lookup_id()}</dt>
        <dd>
          <code>{row.Id}</code>
        </dd>
      </dl>
      {row.OrganizationId && (
        <div className="form-actions">
          {row.CallerIsMember ? (
            <>
              {row.Href && !row.Deleted && (
                <Link href={row.Href} className="button" aria-label={`${m.app_lookup_open()}: ${label}`}>
                  {m.app_lookup_open()}
                </Link>
              )}
              <Link href={`/${row.OrganizationId}/settings`} className="button" aria-label={`${m.app_lookup_settings()}: ${row.OrganizationName ?? ''}`}>
                {m.app_lookup_settings()}
              </Link>
            </>
          ) : (
            <button type="button" className="button primary" disabled={busy} aria-label={`${m.app_lookup_grant()}: ${label}`} onClick={() => void grantAndOpen()}>
              {m.app_lookup_grant()}
            </button>
          )}
        </div>
      )}
      {row.Kind === 'Clip' && !row.Deleted && (
        <div className="form-actions">
          <button type="button" className="button" disabled={busy} aria-label={`${m.app_lookup_regenerate()}: ${label}`} onClick={() => void regenerate()}>
            {m.app_lookup_regenerate()}
          </button>
          <button type="button" className="button" disabled={busy} aria-label={`${m.app_lookup_brand_safety()}: ${label}`} onClick={() => void retryBrandSafety()}>
            {m.app_lookup_brand_safety()}
          </button>
        </div>
      )}
      {notice && (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      )}
      {alert && (
        <p className="alert alert-error" role="alert">
          {alert}
        </p>
      )}
    </li>
  );
}
