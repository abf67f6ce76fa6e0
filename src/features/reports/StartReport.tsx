// Starting a report: the kind, where it runs and its filters, checked on the device by the rules of
// src/domain/reports.ts (report-form.ts) with each message at its field, then POST …/reports/{kind}
// → 202 with the operation, which is kept on the device at once and opened (ReportView polls it).
// Starting needs the network: offline the form says so and keeps everything typed (the draft is
// remembered for the page's life, per user and organization, so leaving and coming back keeps it).
import { useMemo, useState, type FormEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type * as z from 'zod';
import { m } from '../../paraglide/messages.js';
import { db } from '../../db/db.ts';
import { keepReports } from '../../db/reports-db.ts';
import { formatFormError, fieldErrorText } from '../../domain/messages.ts';
import { clipLabel } from '../../domain/clip.ts';
import { REPORT_KINDS, REPORT_SOURCES, REPORT_VISIBILITIES, MAX_COMPARISON_DAYS, type ReportKind, type ReportLevel } from '../../domain/reports.ts';
import {
  ConsumptionSummaryQuery,
  ContentReportQuery,
  SharedListenersNetworkQuery,
  SharedListenersProgramQuery,
  startClipComparison,
  startConsumptionSummary,
  startContentReport,
  startSharedListeners,
  type ReportOperation,
} from '../../protocol/api/reports.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { visibilityLabel } from '../../lib/labels.ts';
import { Field } from '../../ui/Field.tsx';
import { comparisonBody, initialDraft, KIND_LEVELS, kindFields, reportQuery, serverField, validateDraft, withKind, type DraftErrors, type DraftField, type ReportDraft } from './report-form.ts';
import { KIND_HINT, KIND_TEXT, SOURCE_TEXT } from './report-text.ts';
import { PlaceSelect, RangeFields, browserTimeZone, type Place } from './report-fields.tsx';

export type Places = { organization: boolean; networks: Place[]; programs: Place[] };

/** What was typed, per user and organization, for as long as the page lives. */
const drafts = new Map<string, ReportDraft>();

type FieldMessages = Partial<Record<DraftField, string>>;

export function StartReport({ owner, places, levels, onStarted }: { owner: string; organizationId: string; places: Places; levels: readonly ReportLevel[]; onStarted: (op: ReportOperation) => void }) {
  const online = useOnline();
  const [draft, setDraftState] = useState<ReportDraft>(() => drafts.get(owner) ?? initialDraft(new Date(), browserTimeZone(), levels[0] ?? 'organization', levels[0] === 'network' ? (places.networks[0]?.Id ?? '') : levels[0] === 'program' ? (places.programs[0]?.Id ?? '') : ''));
  const [messages, setMessages] = useState<FieldMessages>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setDraft = (next: ReportDraft) => {
    drafts.set(owner, next);
    setDraftState(next);
  };
  const clearMessage = (field: DraftField) => {
    if (!messages[field]) return;
    const { [field]: _gone, ...rest } = messages;
    setMessages(rest);
  };
  const change = (field: DraftField, value: ReportDraft[DraftField]) => {
    setDraft({ ...draft, [field]: value });
    clearMessage(field);
  };

  const kinds = REPORT_KINDS.filter((k) => KIND_LEVELS[k].some((l) => levels.includes(l)));
  const fields = kindFields(draft.kind);
  const levelValue = draft.level === 'organization' ? 'organization' : draft.levelId ? `${draft.level}:${draft.levelId}` : '';
  const allowedLevels = KIND_LEVELS[draft.kind].filter((l) => levels.includes(l));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const errors: DraftErrors = validateDraft(draft);
    const found: FieldMessages = {};
    for (const [field, error] of Object.entries(errors)) if (error) found[field as DraftField] = formatFormError(error);
    setMessages(found);
    if (Object.keys(found).length > 0) {
      setFormError(m.reports_fix_fields());
      return;
    }
    if (!online) {
      setFormError(m.reports_offline_start());
      return;
    }
    setBusy(true);
    const res = await startReport(draft);
    setBusy(false);
    if (res.kind === 'ok') {
      await keepReports(owner, [res.data]);
      onStarted(res.data);
      return;
    }
    if (res.kind === 'badRequest') {
      const atFields: FieldMessages = {};
      const elsewhere: string[] = [];
      for (const error of res.body.Errors) {
        const field = serverField(error.Field);
        if (field && (fields.has(field) || field === 'levelId')) atFields[field] ??= fieldErrorText(error);
        else elsewhere.push(`${error.Field}: ${fieldErrorText(error)}`);
      }
      setMessages(atFields);
      setFormError(elsewhere.length > 0 ? elsewhere.join(' ') : m.reports_fix_fields());
      return;
    }
    if (res.kind === 'error') return setFormError(m.reports_offline_start());
    if (res.kind === 'notFound' || (res.kind === 'status' && res.status === 403)) return setFormError(m.reports_not_allowed());
    setFormError(m.reports_start_failed());
  };

  return (
    <form className="card form report-start" onSubmit={(e) => void submit(e)} aria-labelledby="report-start-title" noValidate>
      <h2 id="report-start-title">{m.reports_start_title()}</h2>
      <div className="field-row">
        <Field label={m.reports_kind_label()} hint={KIND_HINT[draft.kind]()}>
          <select value={draft.kind} onChange={(e) => setDraft(withKind(draft, e.target.value as ReportKind, levels))}>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {KIND_TEXT[k]()}
              </option>
            ))}
          </select>
        </Field>
        <Field label={m.reports_level_label()} error={messages.levelId}>
          <PlaceSelect
            value={levelValue}
            organizationValue={allowedLevels.includes('organization') ? 'organization' : null}
            networks={allowedLevels.includes('network') ? places.networks : []}
            programs={allowedLevels.includes('program') ? places.programs : []}
            onChange={(value) => {
              const [level, id] = value.split(':') as [ReportLevel, string | undefined];
              setDraft({ ...draft, level, levelId: id ?? '', targetIds: [], clipIds: [] });
              clearMessage('levelId');
            }}
          />
        </Field>
      </div>
      {fields.has('startDate') && <RangeFields value={draft} errors={messages} onChange={(field, value) => change(field, value)} />}
      {fields.has('durationSecondsFrom') && (
        <div className="field-row">
          <Field label={m.reports_duration_from()} hint={m.reports_duration_hint()} error={messages.durationSecondsFrom}>
            <input type="text" inputMode="numeric" value={draft.durationSecondsFrom} onChange={(e) => change('durationSecondsFrom', e.target.value)} />
          </Field>
          <Field label={m.reports_duration_to()} error={messages.durationSecondsTo}>
            <input type="text" inputMode="numeric" value={draft.durationSecondsTo} onChange={(e) => change('durationSecondsTo', e.target.value)} />
          </Field>
          <Field label={m.reports_source()} error={messages.source}>
            <select value={draft.source} onChange={(e) => change('source', e.target.value)}>
              <option value="">{m.reports_source_all()}</option>
              {REPORT_SOURCES.map((s) => (
                <option key={s} value={s}>
                  {SOURCE_TEXT[s]()}
                </option>
              ))}
            </select>
          </Field>
        </div>
      )}
      {fields.has('clipVisibilityFilter') && (
        <Choices
          legend={m.reports_visibility_label()}
          hint={m.reports_visibility_hint()}
          error={messages.clipVisibilityFilter}
          options={REPORT_VISIBILITIES.map((v) => ({ Id: v, Name: visibilityLabel(v) }))}
          chosen={draft.clipVisibilityFilter}
          onChange={(ids) => change('clipVisibilityFilter', ids as ReportDraft['clipVisibilityFilter'])}
          inline
        />
      )}
      {fields.has('targetIds') && (
        <Choices
          legend={draft.level === 'network' ? m.reports_targets_networks() : m.reports_targets_programs()}
          error={messages.targetIds}
          options={(draft.level === 'network' ? places.networks : places.programs).filter((p) => p.Id !== draft.levelId)}
          empty={m.reports_targets_none()}
          chosen={draft.targetIds}
          onChange={(ids) => change('targetIds', ids)}
        />
      )}
      {fields.has('clipIds') && <ClipChoices programId={draft.levelId} chosen={draft.clipIds} error={messages.clipIds} onChange={(ids) => change('clipIds', ids)} />}
      {fields.has('days') && (
        <Field label={m.reports_days_label()} error={messages.days} className="field-narrow">
          <input type="number" min={1} max={MAX_COMPARISON_DAYS} step={1} value={draft.days} onChange={(e) => change('days', e.target.value)} />
        </Field>
      )}
      {!online && !formError && (
        <p className="alert alert-info" role="status">
          {m.reports_offline_start()}
        </p>
      )}
      {formError && (
        <p className="alert alert-danger" role="alert">
          {formError}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? m.reports_starting() : m.reports_start()}
        </button>
      </div>
    </form>
  );
}

/** A list of checkboxes as one field: its legend, hint and error. */
function Choices({
  legend,
  hint,
  error,
  options,
  chosen,
  empty,
  inline = false,
  onChange,
}: {
  legend: string;
  hint?: string;
  error?: string | undefined;
  options: readonly Place[];
  chosen: readonly string[];
  empty?: string;
  inline?: boolean;
  onChange: (ids: string[]) => void;
}) {
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((c) => c !== id));
  return (
    <fieldset className={`field choice-group${error ? ' has-error' : ''}`}>
      <legend>{legend}</legend>
      {options.length === 0 && empty ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className={inline ? 'report-choices inline' : 'report-choices'}>
          {options.map((o) => (
            <label key={o.Id} className="choice">
              <input type="checkbox" checked={chosen.includes(o.Id)} onChange={(e) => toggle(o.Id, e.target.checked)} />
              <span>{o.Name}</span>
            </label>
          ))}
        </div>
      )}
      {hint && <p className="field-hint">{hint}</p>}
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}

/** The program's published clips on this device, newest first (a clip never published has no days since publish). */
function ClipChoices({ programId, chosen, error, onChange }: { programId: string; chosen: readonly string[]; error: string | undefined; onChange: (ids: string[]) => void }) {
  const clips = useLiveQuery(
    async () =>
      programId === ''
        ? []
        : (await db.clips.where('ProgramId').equals(programId).toArray())
            .filter((c) => !c['Deleted'] && typeof c['PublishedUtc'] === 'string')
            .sort((a, b) => String(b['PublishedUtc']).localeCompare(String(a['PublishedUtc']))),
    [programId],
  );
  const options = useMemo(() => (clips ?? []).map((c) => ({ Id: c.Id, Name: clipLabel({ Title: (c['Title'] as string | null | undefined) ?? null }) })), [clips]);
  return <Choices legend={m.reports_clips_label()} error={error} options={options} empty={m.reports_clips_none()} chosen={chosen} onChange={onChange} />;
}

type StartAnswer = ApiResult<ReportOperation>;

/** POST …/reports/{kind} at the draft's level (the route declarations of src/protocol/api/reports.ts). */
async function startReport(draft: ReportDraft): Promise<StartAnswer> {
  const query = reportQuery(draft);
  const networkId = draft.levelId;
  const programId = draft.levelId;
  switch (draft.kind) {
    case 'consumption-summary-report': {
      const q = query as z.input<typeof ConsumptionSummaryQuery>;
      if (draft.level === 'network') return call(startConsumptionSummary.network, { params: { networkId }, query: q });
      if (draft.level === 'program') return call(startConsumptionSummary.program, { params: { programId }, query: q });
      return call(startConsumptionSummary.organization, { params: {}, query: q });
    }
    case 'content-report': {
      const q = query as z.input<typeof ContentReportQuery>;
      if (draft.level === 'network') return call(startContentReport.network, { params: { networkId }, query: q });
      return call(startContentReport.organization, { params: {}, query: q });
    }
    case 'shared-listeners-report':
      if (draft.level === 'network') return call(startSharedListeners.network, { params: { networkId }, query: query as z.input<typeof SharedListenersNetworkQuery> });
      return call(startSharedListeners.program, { params: { programId }, query: query as z.input<typeof SharedListenersProgramQuery> });
    case 'clip-download-comparison-report':
      return call(startClipComparison, { params: { programId }, json: comparisonBody(draft) });
    case 'apple-premium-linking-report':
      // Never offered here (KIND_LEVELS: none): a playlist's Premium feeds starts it.
      return { kind: 'error', error: new Error('apple-premium-linking-report is started from a playlist') };
  }
}
