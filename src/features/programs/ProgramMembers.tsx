// The Members section of a program's settings (issue 29): listeners with a private feed per
// playlist, and the program's signing keys. Members and keys are server-held secrets, not synced
// rows: everything here is a call to the server (src/protocol/api/members.ts), so it works online
// only, and offline the section says so instead of failing quietly. Every refusal is shown where
// the user acted: at the field (a 400 names it), on the member's row, or in the dialog's toast.
// Shown to those who may edit the program's settings (the server's rule: src/domain/member-feeds.ts).
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../../paraglide/messages.js';
import { MEMBER_EMAIL_EXISTS, memberFormErrors, type MemberFields } from '../../domain/member-feeds.ts';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import * as routes from '../../protocol/api/members.ts';
import type { Member, SigningKey } from '../../protocol/api/members.ts';
import type { FieldError } from '../../protocol/errors.ts';
import { db } from '../../db/db.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { asPlaylist, live } from '../../lib/rows.ts';
import { showToast } from '../../lib/toast.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { copyText } from '../../lib/clipboard.ts';

const PAGE_SIZE = 20;

type FieldName = 'Name' | 'Email' | 'Note';
type Errors = Partial<Record<FieldName | 'form', string>>;

/** The words for a failed call: the fields a 400 names at their fields (an address another member
 * has: at E-mail), anything else on the form. */
function errorsOf(res: Exclude<ApiResult<unknown>, { kind: 'ok' }>): Errors {
  if (res.kind === 'badRequest') {
    const out: Errors = {};
    for (const fe of res.body.Errors as FieldError[]) {
      const key = (['Name', 'Email', 'Note'] as const).find((f) => f === fe.Field) ?? 'form';
      out[key] ??= fe.Code === MEMBER_EMAIL_EXISTS ? m.members_email_exists() : fieldErrorText(fe);
    }
    return out;
  }
  return { form: res.kind === 'error' ? m.members_offline() : m.members_failed() };
}

/** The member form's own checks, in the domain's words (the server runs the same). */
function checked(fields: MemberFields): Errors {
  const found = memberFormErrors(fields);
  const out: Errors = {};
  for (const [key, error] of Object.entries(found)) out[key as FieldName] = formatFormError(error);
  return out;
}

export function ProgramMembers({ programId }: { programId: string }) {
  const online = useOnline();
  return (
    <section className="card" aria-labelledby="program-members">
      <h2 id="program-members">{m.members_title()}</h2>
      <p className="muted">{m.members_intro()}</p>
      {online ? (
        <>
          <MemberList programId={programId} />
          <SigningKeys programId={programId} />
        </>
      ) : (
        <p className="alert alert-info" role="status">
          {m.members_offline()}
        </p>
      )}
    </section>
  );
}

type ListState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; items: Member[]; hasNext: boolean };

function MemberList({ programId }: { programId: string }) {
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [reload, setReload] = useState(0);
  const playlists = useLiveQuery(async () => live((await db.playlists.where('ProgramId').equals(programId).toArray()).map(asPlaylist)).sort((a, b) => a.Title.localeCompare(b.Title)), [programId]) ?? [];

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      void call(routes.listMembers, { params: { programId }, query: { page: String(page), pageSize: String(PAGE_SIZE), ...(filter.trim() ? { filter: filter.trim() } : {}) } }).then((res) => {
        if (stale) return;
        setList(res.kind === 'ok' ? { kind: 'ready', items: res.data.Items, hasNext: res.data.HasNext } : { kind: 'failed' });
      });
    }, 200);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [programId, filter, page, reload]);
  const refresh = useCallback(() => setReload((n) => n + 1), []);

  return (
    <div className="members">
      <AddMember programId={programId} onAdded={refresh} />
      <Field label={m.members_filter()}>
        <input
          type="search"
          value={filter}
          maxLength={200}
          onChange={(e) => {
            setFilter(e.target.value);
            setPage(1);
          }}
        />
      </Field>
      {list.kind === 'loading' && <p className="muted">{m.members_loading()}</p>}
      {list.kind === 'failed' && (
        <p className="alert alert-danger" role="alert">
          {m.members_load_failed()}
        </p>
      )}
      {list.kind === 'ready' && list.items.length === 0 && <p className="empty">{filter.trim() ? m.members_none_match() : m.members_none()}</p>}
      {list.kind === 'ready' && list.items.length > 0 && (
        <ul className="plain-list" aria-label={m.members_title()}>
          {list.items.map((member) => (
            <MemberRow key={member.Id} member={member} playlists={playlists} onChanged={refresh} />
          ))}
        </ul>
      )}
      {list.kind === 'ready' && (page > 1 || list.hasNext) && (
        <nav className="form-actions" aria-label={m.members_page({ page })}>
          <button type="button" className="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {m.members_previous()}
          </button>
          <span className="muted">{m.members_page({ page })}</span>
          <button type="button" className="button" disabled={!list.hasNext} onClick={() => setPage((p) => p + 1)}>
            {m.members_next()}
          </button>
        </nav>
      )}
    </div>
  );
}

/** Name, e-mail and note, checked here first and then by the server (its 400s at the same fields). */
function MemberForm({ initial, submitLabel, onSubmit, onCancel, title }: { initial: MemberFields; submitLabel: string; title: string; onSubmit: (fields: { Name: string; Email: string; Note: string | null }) => Promise<Errors | null>; onCancel?: () => void }) {
  const [name, setName] = useState(initial.Name ?? '');
  const [email, setEmail] = useState(initial.Email ?? '');
  const [note, setNote] = useState(initial.Note ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const titleId = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = { Name: name, Email: email, Note: note.trim() ? note : null };
    let found = checked(fields);
    if (Object.keys(found).length === 0) {
      setBusy(true);
      found = (await onSubmit(fields)) ?? {};
      setBusy(false);
      if (Object.keys(found).length === 0) {
        if (!onCancel) {
          setName('');
          setEmail('');
          setNote('');
        }
        setErrors({});
        return;
      }
    }
    setErrors(found);
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  return (
    <form ref={form} className="form" onSubmit={(e) => void submit(e)} aria-labelledby={titleId} noValidate>
      <h3 id={titleId}>{title}</h3>
      <Field label={m.members_field_name()} error={errors.Name}>
        <input value={name} disabled={busy} autoComplete="off" onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={m.members_field_email()} error={errors.Email}>
        <input type="email" value={email} disabled={busy} autoComplete="off" onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label={m.members_field_note()} error={errors.Note}>
        <textarea value={note} disabled={busy} rows={2} onChange={(e) => setNote(e.target.value)} />
      </Field>
      {errors.form && (
        <p className="alert alert-danger" role="alert">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" disabled={busy} onClick={onCancel}>
            {m.members_cancel()}
          </button>
        )}
      </div>
    </form>
  );
}

function AddMember({ programId, onAdded }: { programId: string; onAdded: () => void }) {
  return (
    <MemberForm
      title={m.members_add_title()}
      submitLabel={m.members_add()}
      initial={{}}
      onSubmit={async (fields) => {
        const res = await call(routes.createMember, { params: { programId }, json: fields });
        if (res.kind !== 'ok') return errorsOf(res);
        showToast({ type: 'success', title: m.members_added() });
        onAdded();
        return null;
      }}
    />
  );
}

type Playlist = { Id: string; Title: string };

function MemberRow({ member, playlists, onChanged }: { member: Member; playlists: Playlist[]; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'remove' | 'reset' | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const [playlistId, setPlaylistId] = useState<string>('');
  const chosen = playlists.find((p) => p.Id === playlistId) ?? playlists[0];

  /** A write whose refusal is said on this row. */
  const act = async (run: () => Promise<ApiResult<unknown>>, done?: string) => {
    setRowError(null);
    const res = await run();
    if (res.kind !== 'ok') {
      const e = errorsOf(res);
      setRowError(e.form ?? Object.values(e)[0] ?? m.members_failed());
      return;
    }
    if (done) showToast({ type: 'success', title: done });
    onChanged();
  };
  const copyUrl = async () => {
    if (!chosen) return;
    setRowError(null);
    const res = await call(routes.memberFeedUrl, { params: { playlistId: chosen.Id, memberId: member.Id } });
    if (res.kind !== 'ok') return setRowError(errorsOf(res).form ?? m.members_failed());
    const copied = await copyText(res.data.Url);
    showToast(copied ? { type: 'success', title: m.members_copied() } : { type: 'danger', title: m.members_copy_failed(), description: res.data.Url });
  };
  /** A dialog's confirmation: a refusal rejects, so the dialog stays open and says it failed. */
  const confirmed = async (run: () => Promise<ApiResult<unknown>>) => {
    const res = await run();
    if (res.kind !== 'ok') throw new Error(errorsOf(res).form ?? m.members_failed());
    onChanged();
  };

  if (editing) {
    return (
      <li className="attention-item">
        <MemberForm
          title={m.members_edit_title()}
          submitLabel={m.members_save()}
          initial={member}
          onCancel={() => setEditing(false)}
          onSubmit={async (fields) => {
            const res = await call(routes.updateMember, { params: { memberId: member.Id }, json: fields });
            if (res.kind !== 'ok') return errorsOf(res);
            showToast({ type: 'success', title: m.members_saved() });
            setEditing(false);
            onChanged();
            return null;
          }}
        />
      </li>
    );
  }
  return (
    <li className="attention-item" aria-label={member.Name}>
      <div>
        <strong>{member.Name}</strong> <span className="muted">{member.Email}</span>{' '}
        {member.Revoked && <span className="pill pill-error">{m.members_revoked()}</span>}
        {member.Note && <p className="muted">{member.Note}</p>}
      </div>
      {playlists.length === 0 ? (
        <p className="muted">{m.members_no_playlists()}</p>
      ) : (
        <div className="form-actions">
          {playlists.length > 1 && (
            <label>
              <span className="visually-hidden">{m.members_playlist()}</span>
              <select value={chosen?.Id ?? ''} onChange={(e) => setPlaylistId(e.target.value)}>
                {playlists.map((p) => (
                  <option key={p.Id} value={p.Id}>
                    {p.Title}
                  </option>
                ))}
              </select>
            </label>
          )}
          <button type="button" className="button" disabled={member.Revoked} onClick={() => void copyUrl()}>
            {m.members_copy_url()}
          </button>
        </div>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => setEditing(true)}>
          {m.members_edit()}
        </button>
        <button type="button" className="button" onClick={() => setConfirm('reset')}>
          {m.members_reset()}
        </button>
        <button type="button" className="button" onClick={() => void act(() => call(routes.updateMember, { params: { memberId: member.Id }, json: { Revoked: !member.Revoked } }))}>
          {member.Revoked ? m.members_restore() : m.members_revoke()}
        </button>
        <button type="button" className="button danger" onClick={() => setConfirm('remove')}>
          {m.members_remove()}
        </button>
      </div>
      {rowError && (
        <p className="alert alert-danger" role="alert">
          {rowError}
        </p>
      )}
      <ConfirmDialog
        open={confirm === 'reset'}
        onClose={() => setConfirm(null)}
        title={m.members_reset_title({ name: member.Name })}
        description={m.members_reset_description({ name: member.Name })}
        actionLabel={m.members_reset()}
        danger
        successToast={m.members_reset_done()}
        failureDescription={m.members_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.members_failed())}
        onConfirm={() => confirmed(() => call(routes.resetMemberToken, { params: { memberId: member.Id } }))}
      />
      <ConfirmDialog
        open={confirm === 'remove'}
        onClose={() => setConfirm(null)}
        title={m.members_remove_title({ name: member.Name })}
        description={m.members_remove_description()}
        actionLabel={m.members_remove()}
        danger
        successToast={m.members_removed()}
        failureDescription={m.members_failed()}
        failureReason={(e) => (e instanceof Error ? e.message : m.members_failed())}
        onConfirm={() => confirmed(() => call(routes.deleteMember, { params: { memberId: member.Id } }))}
      />
    </li>
  );
}

function SigningKeys({ programId }: { programId: string }) {
  const [keys, setKeys] = useState<SigningKey[] | 'loading' | 'failed'>('loading');
  const [rotating, setRotating] = useState<SigningKey | null>(null);
  const load = useCallback(async () => {
    const res = await call(routes.listSigningKeys, { params: { programId } });
    setKeys(res.kind === 'ok' ? res.data.Items : 'failed');
  }, [programId]);
  useEffect(() => {
    void load();
  }, [load]);

  const stateText = (k: SigningKey) => (k.State === 'Current' ? m.members_key_current() : k.State === 'Retiring' ? m.members_key_retiring({ date: formatDateTime(k.RetiresAtUtc ?? k.CreatedAtUtc) }) : m.members_key_retired());
  return (
    <div className="signing-keys">
      <h3>{m.members_keys_title()}</h3>
      <p className="muted">{m.members_keys_intro()}</p>
      {keys === 'loading' && <p className="muted">{m.members_loading()}</p>}
      {keys === 'failed' && (
        <p className="alert alert-danger" role="alert">
          {m.members_load_failed()}
        </p>
      )}
      {Array.isArray(keys) && keys.length === 0 && <p className="empty">{m.members_keys_none()}</p>}
      {Array.isArray(keys) && keys.length > 0 && (
        <ul className="plain-list" aria-label={m.members_keys_title()}>
          {keys.map((k) => (
            <li key={k.Id}>
              <strong>{stateText(k)}</strong> <span className="muted">{m.members_key_created({ date: formatDateTime(k.CreatedAtUtc) })}</span>{' '}
              {k.State === 'Current' && (
                <button type="button" className="button" onClick={() => setRotating(k)}>
                  {m.members_rotate()}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={rotating !== null}
        onClose={() => setRotating(null)}
        title={m.members_rotate_title()}
        description={m.members_rotate_description()}
        actionLabel={m.members_rotate()}
        successToast={m.members_rotated()}
        failureDescription={m.members_failed()}
        onConfirm={async () => {
          if (!rotating) return;
          const res = await call(routes.rotateSigningKey, { params: { programId, signingKeyId: rotating.Id } });
          if (res.kind !== 'ok') throw new Error('rotate refused');
          setKeys(res.data.Items);
        }}
      />
    </div>
  );
}
