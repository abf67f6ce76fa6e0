// The audit trail (issue 31; section 7's GET /v1/audit-events), a section of Organization settings
// shown to those holding HasAuditAccess with HasContentAccess at Organization scope (section 6:
// audit needs content access). Who did what, to which object, when: newest first, filtered by a
// UTC date range (required by the call, checked here by the same rule as the server's), the kind
// of event and the kind of object, a page at a time.
//
// With a programId it is one program's trail (GET /v1/programs/{programId}/audit-events with its
// playlists', clips' and recordings' events), on the program's settings screen: those who audit only
// some programs (the flags at Program scope) have no Organization settings, and read theirs there.
//
// The trail is the server's alone (it records sign-ins and permission changes no device has): it
// needs the network, says so offline, and loads again when the network comes back.
import { useCallback, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { mayReadProgramAudit, AUDIT_DEFAULT_RANGE_DAYS, AUDIT_EVENT_TYPES, AUDIT_OBJECT_TYPES, type AuditEventType, type AuditObjectType } from '../../domain/audit.ts';
import { validateAnalyticsRange } from '../../domain/analytics.ts';
import { fieldErrorTexts, formatFormError } from '../../domain/messages.ts';
import { listAuditEvents, listProgramAuditEvents, type AuditEvent } from '../../protocol/api/audit.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { useIdParams } from '../../lib/params.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { Field } from '../../ui/Field.tsx';
import { ServerPagesStatus, useServerPages } from '../../ui/ServerPages.tsx';
import type { BadRequestBody } from '../../protocol/errors.ts';
import './audit.css';

const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type Filters = { startDate: string; endDate: string; eventType: AuditEventType | ''; objectType: AuditObjectType | '' };
type FieldName = 'startDate' | 'endDate' | 'eventType' | 'objectType';

export const EVENT_LABEL: Record<AuditEventType, () => string> = {
  Created: () => m.app_audit_event_created(),
  Updated: () => m.app_audit_event_updated(),
  Deleted: () => m.app_audit_event_deleted(),
  Restored: () => m.app_audit_event_restored(),
  SignedIn: () => m.app_audit_event_signed_in(),
  PermissionsChanged: () => m.app_audit_event_permissions_changed(),
  Invited: () => m.app_audit_event_invited(),
  Removed: () => m.app_audit_event_removed(),
  Used: () => m.app_audit_event_used(),
  Revoked: () => m.app_audit_event_revoked(),
};

export const OBJECT_LABEL: Record<AuditObjectType, () => string> = {
  Organization: () => m.app_audit_object_organization(),
  Network: () => m.app_audit_object_network(),
  Program: () => m.app_audit_object_program(),
  Playlist: () => m.app_audit_object_playlist(),
  Clip: () => m.app_audit_object_clip(),
  Recording: () => m.app_audit_object_recording(),
  Annotation: () => m.app_audit_object_annotation(),
  User: () => m.app_audit_object_user(),
  ApiKey: () => m.app_audit_object_api_key(),
};

/** The last AUDIT_DEFAULT_RANGE_DAYS UTC days, today included. */
function defaultFilters(): Filters {
  const today = Date.now();
  return { startDate: utcDate(today - (AUDIT_DEFAULT_RANGE_DAYS - 1) * DAY_MS), endDate: utcDate(today), eventType: '', objectType: '' };
}

/** Where an event's object is shown in the studio (section 2's routes), when it has a screen. */
function objectHref(organizationId: string, e: AuditEvent): string | null {
  if (e.EventType === 'Deleted') return null;
  const inProgram = (kind: string) => (e.ProgramId ? `/${organizationId}/programs/${e.ProgramId}/${kind}/${e.ObjectId}` : null);
  switch (e.ObjectType) {
    case 'Clip':
      return inProgram('clips');
    case 'Playlist':
      return inProgram('playlists');
    case 'Recording':
      return inProgram('recordings');
    case 'Program':
      return `/${organizationId}/programs/${e.ObjectId}`;
    case 'Network':
      return `/${organizationId}/networks`;
    default:
      return null;
  }
}

export function AuditTrail({ programId }: { programId?: string } = {}) {
  const { organizationId } = useIdParams('organizationId');
  const [draft, setDraft] = useState<Filters>(defaultFilters);
  const [applied, setApplied] = useState<Filters>(draft);
  const [errors, setErrors] = useState<Partial<Record<FieldName | 'form', string>>>({});

  const fetchPage = useCallback(
    (page: number) => {
      const query = { startDate: applied.startDate, endDate: applied.endDate, page: String(page), pageSize: String(PAGE_SIZE), ...(applied.eventType ? { eventType: applied.eventType } : {}) };
      return withLoading(
        programId
          ? call(listProgramAuditEvents, { params: { programId }, query: { ...query, includeRelated: 'true' } })
          : call(listAuditEvents, { query: { ...query, ...(applied.objectType ? { objectType: applied.objectType } : {}) } }),
      );
    },
    [applied, programId],
  );
  const failure = (status: number | null) => (status === 403 ? m.app_audit_forbidden() : navigator.onLine ? m.app_audit_load_failed() : m.app_audit_offline());
  // The server's rule refused what this screen let through: said at the field it names.
  const refused = (body: BadRequestBody) => setErrors(fieldErrorTexts(body.Errors, ['startDate', 'endDate', 'eventType', 'objectType'] as const));
  const { state, load, more } = useServerPages(fetchPage, failure, refused);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<FieldName, string>> = {};
    for (const { field, error } of validateAnalyticsRange(draft.startDate, draft.endDate, 'day')) found[field] ??= formatFormError(error);
    setErrors(found);
    if (Object.keys(found).length === 0) setApplied({ ...draft });
  };
  const set = (patch: Partial<Filters>) => setDraft((d) => ({ ...d, ...patch }));

  return (
    <section aria-labelledby="audit-title" className="audit-trail">
      <h2 id="audit-title">{m.app_audit_title()}</h2>
      <p className="muted">{programId ? m.app_audit_program_intro() : m.app_audit_intro()}</p>
      <form className="audit-filters" aria-label={m.app_audit_filters()} onSubmit={submit} noValidate>
        <Field label={m.app_audit_start()} error={errors.startDate} hint={m.app_audit_utc_hint()}>
          <input type="date" value={draft.startDate} onChange={(e) => set({ startDate: e.target.value })} required />
        </Field>
        <Field label={m.app_audit_end()} error={errors.endDate}>
          <input type="date" value={draft.endDate} onChange={(e) => set({ endDate: e.target.value })} required />
        </Field>
        <Field label={m.app_audit_event()} error={errors.eventType}>
          <select value={draft.eventType} onChange={(e) => set({ eventType: e.target.value as Filters['eventType'] })}>
            <option value="">{m.app_audit_any_event()}</option>
            {AUDIT_EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {EVENT_LABEL[t]()}
              </option>
            ))}
          </select>
        </Field>
        {!programId && (
        <Field label={m.app_audit_object()} error={errors.objectType}>
          <select value={draft.objectType} onChange={(e) => set({ objectType: e.target.value as Filters['objectType'] })}>
            <option value="">{m.app_audit_any_object()}</option>
            {AUDIT_OBJECT_TYPES.map((t) => (
              <option key={t} value={t}>
                {OBJECT_LABEL[t]()}
              </option>
            ))}
          </select>
        </Field>
        )}
        <button type="submit" className="button button-primary">
          {m.app_audit_show()}
        </button>
      </form>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <ServerPagesStatus state={state} empty={m.app_audit_empty()} retry={() => void load()} />
      {state.kind === 'ready' && state.items.length > 0 && (
        <ol className="audit-list" aria-label={m.app_audit_title()}>
          {state.items.map((e) => (
            <AuditRow key={e.Id} organizationId={organizationId} event={e} />
          ))}
        </ol>
      )}
      {state.kind === 'ready' && state.hasNext && (
        <button type="button" className="button" onClick={() => void more()}>
          {m.app_audit_more()}
        </button>
      )}
    </section>
  );
}

function AuditRow({ organizationId, event: e }: { organizationId: string; event: AuditEvent }) {
  const href = objectHref(organizationId, e);
  const name = e.ObjectName ?? e.ObjectId.slice(0, 8);
  const who = e.UserName ? (e.ApiKeyId ? m.app_audit_by_key({ name: e.UserName }) : e.UserName) : m.app_audit_by_system();
  const detail = e.Detail === '' ? null : e.EventType === 'Updated' ? m.app_audit_changed_fields({ fields: e.Detail }) : e.Detail;
  return (
    <li className="audit-row">
      <p className="audit-what">
        <strong>{EVENT_LABEL[e.EventType]()}</strong> <span className="muted">{OBJECT_LABEL[e.ObjectType]()}</span>{' '}
        {href ? <a href={href}>{name}</a> : <span>{name}</span>}
        {e.ProgramName && e.ObjectType !== 'Program' && <span className="muted"> · {e.ProgramName}</span>}
      </p>
      <p className="audit-meta muted">
        <span>{who}</span> · <time dateTime={e.DateUtc}>{formatDateTime(e.DateUtc)}</time>
        {detail && <span> · {detail}</span>}
      </p>
    </li>
  );
}

/** One program's trail on its settings screen, for those who audit it (src/domain/audit.ts). */
export function ProgramAuditTrail({ program }: { program: { Id: string; NetworkId?: string | null | undefined } }) {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  if (!mayReadProgramAudit(entries, program)) return null;
  return (
    <div className="card">
      <AuditTrail programId={program.Id} />
    </div>
  );
}
