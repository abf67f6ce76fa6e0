// The clip scheduled-publish report (section 7: a paged GET at /v1/reports, /v1/networks/{id}/reports
// and /v1/programs/{id}/reports): clips set to change visibility at a time in a local date range,
// with its filters (title, the visibility they become, order) and paging (section 4: Page + 1 while
// HasNext). It is read, not made: it needs the network, and the last page shown stays on screen.
import { useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { validateAnalyticsRange } from '../../domain/analytics.ts';
import { clipLabel } from '../../domain/clip.ts';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { permissionsFor, type PermissionEntry } from '../../domain/permissions.ts';
import { REPORT_VISIBILITIES, SCHEDULED_REPORT_SORTS, type ReportVisibility, type ScheduledReportSort } from '../../domain/reports.ts';
import { scheduledPublishReport, type ScheduledPublishPage } from '../../protocol/api/reports.ts';
import type { Network, Program } from '../../protocol/entities.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { visibilityLabel } from '../../lib/labels.ts';
import { Link, useParams } from '../../lib/router.ts';
import { Field } from '../../ui/Field.tsx';
import { SORT_TEXT } from './report-text.ts';
import { PlaceSelect, RangeFields, browserTimeZone } from './report-fields.tsx';
import { scheduledDraft, scheduledQuery, type ScheduledDraft } from './scheduled-form.ts';

type Field = 'level' | 'startDate' | 'endDate' | 'timeZoneIanaId' | 'clipTitleFilter' | 'scheduledVisibilityFilter' | 'sortBy';
const FIELDS: readonly Field[] = ['level', 'startDate', 'endDate', 'timeZoneIanaId', 'clipTitleFilter', 'scheduledVisibilityFilter', 'sortBy'];
const PAGE_SIZE = 25;

let remembered: ScheduledDraft | null = null;

export function ScheduledReport({ entries, networks, programs }: { entries: readonly PermissionEntry[]; networks: readonly Network[]; programs: readonly Program[] }) {
  const online = useOnline();
  const { organizationId } = useParams<{ organizationId: string }>();
  const [draft, setDraftState] = useState<ScheduledDraft>(() => remembered ?? scheduledDraft(new Date(), browserTimeZone()));
  const [messages, setMessages] = useState<Partial<Record<Field, string>>>({});
  const [shown, setPage] = useState<{ asked: ScheduledDraft; data: ScheduledPublishPage } | null>(null);
  const page = shown?.data ?? null;
  const [state, setState] = useState<'idle' | 'loading' | 'failed' | 'offline'>('idle');
  const setDraft = (next: ScheduledDraft) => {
    remembered = next;
    setDraftState(next);
  };
  const any = (flags: { HasContentAccess: boolean; HasAnalyticsAccess: boolean }) => flags.HasContentAccess || flags.HasAnalyticsAccess;
  const orgAllowed = any(permissionsFor(entries, { kind: 'organization' }));
  const networkOptions = networks.filter((n) => any(permissionsFor(entries, { kind: 'network', networkId: n.Id })));
  const programOptions = programs.filter((p) => any(permissionsFor(entries, { kind: 'program', programId: p.Id, networkId: p.NetworkId ?? null })));
  // Without organization-wide rights the first network or program the user has stands in for 'Choose…'.
  const firstPlace = networkOptions[0] ? `network:${networkOptions[0].Id}` : programOptions[0] ? `program:${programOptions[0].Id}` : '';
  const level = draft.level !== '' || orgAllowed ? draft.level : firstPlace;

  /** Page `pageNumber` of what `asked` asks (paging keeps the filters of the page shown). */
  const load = async (asked: ScheduledDraft, pageNumber: number) => {
    const found: Partial<Record<Field, string>> = {};
    for (const { field, error } of validateAnalyticsRange(asked.startDate, asked.endDate, 'day')) found[field] ??= formatFormError(error);
    if (asked.level === '' && !orgAllowed) found.level = formatFormError({ type: 'required', message: 'domain_required' });
    setMessages(found);
    if (Object.keys(found).length > 0) return;
    if (!online) return setState('offline');
    setState('loading');
    const query = { ...scheduledQuery(asked), page: String(pageNumber), pageSize: String(PAGE_SIZE) };
    const [kind, id = ''] = asked.level.split(':');
    let res: ApiResult<ScheduledPublishPage>;
    if (kind === 'network') res = await call(scheduledPublishReport.network, { params: { networkId: id }, query });
    else if (kind === 'program') res = await call(scheduledPublishReport.program, { params: { programId: id }, query });
    else res = await call(scheduledPublishReport.organization, { params: {}, query });
    if (res.kind === 'ok') {
      setPage({ asked, data: res.data });
      setState('idle');
      return;
    }
    if (res.kind === 'badRequest') {
      const atFields: Partial<Record<Field, string>> = {};
      for (const error of res.body.Errors) {
        const field = FIELDS.find((f) => f.toLowerCase() === error.Field.toLowerCase());
        atFields[field ?? 'startDate'] ??= fieldErrorText(error);
      }
      setMessages(atFields);
      setState('idle');
      return;
    }
    setState(res.kind === 'error' ? 'offline' : 'failed');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void load({ ...draft, level }, 1);
  };
  const change = <K extends keyof ScheduledDraft>(field: K, value: ScheduledDraft[K]) => setDraft({ ...draft, [field]: value });
  const locale = getLocale();
  const when = (utc: string, timeZone: string) => {
    try {
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(Date.parse(utc));
    } catch {
      return utc;
    }
  };

  return (
    <>
      <form className="card form" onSubmit={submit} aria-labelledby="scheduled-title" noValidate>
        <h2 id="scheduled-title">{m.reports_scheduled_title()}</h2>
        <p className="muted">{m.reports_scheduled_intro()}</p>
        <div className="field-row">
          <Field label={m.reports_level_label()} error={messages.level}>
            <PlaceSelect value={level} organizationValue={orgAllowed ? '' : null} networks={networkOptions} programs={programOptions} onChange={(value) => change('level', value)} />
          </Field>
          <Field label={m.reports_scheduled_title_filter()} error={messages.clipTitleFilter}>
            <input type="search" value={draft.clipTitleFilter} onChange={(e) => change('clipTitleFilter', e.target.value)} />
          </Field>
        </div>
        <RangeFields value={draft} errors={messages} onChange={(field, value) => change(field, value)} />
        <div className="field-row">
          <fieldset className={`field choice-group${messages.scheduledVisibilityFilter ? ' has-error' : ''}`}>
            <legend>{m.reports_scheduled_visibility()}</legend>
            <div className="report-choices inline">
              {REPORT_VISIBILITIES.map((v) => (
                <label key={v} className="choice">
                  <input
                    type="checkbox"
                    checked={draft.scheduledVisibilityFilter.includes(v)}
                    onChange={(e) => change('scheduledVisibilityFilter', e.target.checked ? [...draft.scheduledVisibilityFilter, v] : draft.scheduledVisibilityFilter.filter((x): x is ReportVisibility => x !== v))}
                  />
                  <span>{visibilityLabel(v)}</span>
                </label>
              ))}
            </div>
            <p className="field-hint">{m.reports_visibility_hint()}</p>
            {messages.scheduledVisibilityFilter && <p className="field-error">{messages.scheduledVisibilityFilter}</p>}
          </fieldset>
          <Field label={m.reports_scheduled_sort()} error={messages.sortBy}>
            <select value={draft.sortBy} onChange={(e) => change('sortBy', e.target.value as ScheduledReportSort)}>
              {SCHEDULED_REPORT_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_TEXT[s]()}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {(state === 'offline' || (!online && page === null)) && (
          <p className="alert alert-info" role="status">
            {m.reports_scheduled_offline()}
          </p>
        )}
        {state === 'failed' && (
          <p className="alert alert-danger" role="alert">
            {m.reports_scheduled_failed()}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={state === 'loading'}>
            {state === 'loading' ? m.reports_loading() : m.reports_scheduled_show()}
          </button>
        </div>
      </form>
      {page && (
        <section className="card" aria-labelledby="scheduled-results-title" aria-busy={state === 'loading'}>
          <h2 id="scheduled-results-title" className="visually-hidden">
            {m.reports_scheduled_title()}
          </h2>
          {page.Items.length === 0 ? (
            <p className="empty">{m.reports_scheduled_none()}</p>
          ) : (
            <div className="table-scroll report-table-wrap" tabIndex={0} role="region" aria-labelledby="scheduled-results-title">
              <table className="report-table">
                <thead>
                  <tr>
                    <th scope="col">{m.reports_col_clip()}</th>
                    <th scope="col">{m.reports_col_program()}</th>
                    <th scope="col">{m.reports_col_network()}</th>
                    <th scope="col">{m.reports_scheduled_col_now()}</th>
                    <th scope="col">{m.reports_scheduled_col_becomes()}</th>
                    <th scope="col">{m.reports_scheduled_col_when({ timeZone: page.TimeZoneIanaId })}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.Items.map((item) => (
                    <tr key={item.ClipId}>
                      <td>{organizationId ? <Link href={`/${organizationId}/programs/${item.ProgramId}/clips/${item.ClipId}`}>{clipLabel(item)}</Link> : clipLabel(item)}</td>
                      <td>{item.Program}</td>
                      <td>{item.Network ?? ''}</td>
                      <td>{visibilityLabel(item.Visibility)}</td>
                      <td>{visibilityLabel(item.ScheduledVisibility)}</td>
                      <td>{when(item.VisibleAtUtc, page.TimeZoneIanaId)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {(page.Page > 1 || page.HasNext) && (
            <nav className="report-paging" aria-label={m.reports_page({ page: page.Page })}>
              <button type="button" className="button small" disabled={page.Page <= 1 || state === 'loading'} onClick={() => shown && void load(shown.asked, page.Page - 1)}>
                {m.reports_previous()}
              </button>
              <span>{m.reports_page({ page: page.Page })}</span>
              <button type="button" className="button small" disabled={!page.HasNext || state === 'loading'} onClick={() => shown && void load(shown.asked, page.Page + 1)}>
                {m.reports_next()}
              </button>
            </nav>
          )}
        </section>
      )}
    </>
  );
}
