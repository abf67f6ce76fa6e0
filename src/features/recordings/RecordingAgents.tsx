// The organization's recording agents (section 7, /v1/recording-agents; the rules:
// src/domain/recording-agents.ts): a tab of Organization settings. Each agent with the programs it
// may push to and when it last pushed; a new agent made with a name and its programs, its token
// shown once (SecretOnce) with the address an encoder pushes to; an agent edited (name, programs,
// a new token) and deleted after a confirmation. Agents are held by the server (it mints their
// tokens), so offline the tab says it needs the connection. Every refusal is shown at its field
// (Name, ProgramIds), first by the domain's rule before anything is sent, then as the server says.
// Read only without HasManageOrganizationSettingsAccess (src/domain/settings.ts).
import { useCallback, useEffect, useState } from 'react';
import { organizationFlags } from '../../domain/access.ts';
import { fieldErrorTexts, formatFormError } from '../../domain/messages.ts';
import { settingsAccess } from '../../domain/settings.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { useIdParams } from '../../lib/params.ts';
import { usePrograms } from '../../lib/rows.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { m } from '../../paraglide/messages.js';
import { createRecordingAgent, deleteRecordingAgent, listRecordingAgents, recordingAgentFormErrors, updateRecordingAgent, type RecordingAgent } from '../../protocol/api/recording-agents.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import { SecretOnce } from '../../ui/SecretOnce.tsx';

type Errors = { Name?: string; ProgramIds?: string; form?: string };
type Draft = { id: string | null; Name: string; ProgramIds: string[] };

/** The form's errors from the domain's rule: each program's at ProgramIds (the form has one list). */
function ruleErrors(draft: Draft): Errors {
  const found = recordingAgentFormErrors(draft);
  const out: Errors = {};
  for (const [field, error] of Object.entries(found)) {
    if (!error) continue;
    if (field === 'Name') out.Name = formatFormError(error);
    else out.ProgramIds ??= formatFormError(error);
  }
  return out;
}

function refusal(res: ApiResult<unknown>): Errors {
  if (res.kind === 'badRequest') {
    // ProgramIds.<i> is shown at the programs' list.
    const errors = res.body.Errors.map((e) => ({ ...e, Field: e.Field.startsWith('ProgramIds') ? 'ProgramIds' : e.Field }));
    return fieldErrorTexts(errors, ['Name', 'ProgramIds'] as const);
  }
  return { form: res.kind === 'error' && !navigator.onLine ? m.media_agents_offline() : m.media_agents_failed() };
}

export function RecordingAgentsSettings() {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  const mayChange = settingsAccess('Organization', organizationFlags(entries)).write;
  const programs = usePrograms(organizationId);
  const online = useOnline();
  const [agents, setAgents] = useState<RecordingAgent[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [token, setToken] = useState<{ agent: RecordingAgent; token: string } | null>(null);
  const [deleting, setDeleting] = useState<RecordingAgent | null>(null);

  const load = useCallback(async () => {
    const res = await call(listRecordingAgents, { query: { includeProgramIds: 'true' } });
    setLoadFailed(res.kind !== 'ok');
    if (res.kind === 'ok') setAgents(res.data);
  }, []);
  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  const save = async () => {
    if (!draft) return;
    const found = ruleErrors(draft);
    setErrors(found);
    if (found.Name || found.ProgramIds) return;
    const json = { Name: draft.Name.trim(), ProgramIds: draft.ProgramIds };
    const res = draft.id === null ? await withLoading(call(createRecordingAgent, { json })) : await withLoading(call(updateRecordingAgent, { params: { recordingAgentId: draft.id }, json }));
    if (res.kind !== 'ok') return setErrors(refusal(res));
    if ('Token' in res.data && res.data.Token) setToken({ agent: res.data, token: res.data.Token });
    setDraft(null);
    void load();
  };

  const renew = async (agent: RecordingAgent) => {
    const res = await withLoading(call(updateRecordingAgent, { params: { recordingAgentId: agent.Id }, json: { RenewToken: true } }));
    if (res.kind === 'ok' && res.data.Token) setToken({ agent: res.data, token: res.data.Token });
    else setErrors(refusal(res));
  };

  const programName = (id: string) => programs?.find((p) => p.Id === id)?.Name ?? id;
  const pushUrl = (agent: RecordingAgent, programId: string) => `${window.location.origin}/api/v1/programs/${programId}/recordings/live`.replace('://', `://${agent.Id}:<token>@`);

  return (
    <section className="card" aria-labelledby="recording-agents">
      <h2 id="recording-agents">{m.media_agents_title()}</h2>
      <p>{m.media_agents_intro()}</p>
      {!online && <p className="muted">{m.media_agents_offline()}</p>}
      {loadFailed && online && <p role="alert" className="alert alert-error">{m.media_agents_failed()}</p>}
      {errors.form && <p role="alert" className="alert alert-error">{errors.form}</p>}
      {token && (
        <div className="api-key-new">
          <SecretOnce secret={token.token} words={{ once: m.media_agents_token_once(), label: m.media_agents_token_label({ name: token.agent.Name }), copy: m.media_agents_copy(), copied: m.media_agents_copied(), copyFailed: m.media_agents_copy_failed() }} />
          {token.agent.ProgramIds?.[0] && <p className="muted mono">{pushUrl(token.agent, token.agent.ProgramIds[0])}</p>}
          <button type="button" className="button" onClick={() => setToken(null)}>{m.media_agents_done()}</button>
        </div>
      )}
      {agents && agents.length === 0 && <p className="muted">{m.media_agents_none()}</p>}
      {agents && agents.length > 0 && (
        <ul className="annotation-list" aria-label={m.media_agents_title()}>
          {agents.map((a) => (
            <li key={a.Id}>
              <div className="grow">
                <strong>{a.Name}</strong>
                <p className="muted">{(a.ProgramIds ?? []).map(programName).join(', ')}</p>
                <p className="muted">{a.LastSeenAtUtc ? m.media_agents_last_seen({ when: formatDateTime(a.LastSeenAtUtc) }) : m.media_agents_never_seen()}</p>
              </div>
              {mayChange && (
                <>
                  <button type="button" className="button secondary" onClick={() => (setErrors({}), setDraft({ id: a.Id, Name: a.Name, ProgramIds: a.ProgramIds ?? [] }))}>{m.media_agents_edit({ name: a.Name })}</button>
                  <button type="button" className="button secondary" disabled={!online} onClick={() => void renew(a)}>{m.media_agents_renew({ name: a.Name })}</button>
                  <button type="button" className="button danger-outline" disabled={!online} onClick={() => setDeleting(a)}>{m.media_agents_delete({ name: a.Name })}</button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayChange && !draft && (
        <button type="button" className="button" disabled={!online} onClick={() => (setErrors({}), setDraft({ id: null, Name: '', ProgramIds: [] }))}>{m.media_agents_new()}</button>
      )}
      {draft && (
        <form
          noValidate
          aria-label={draft.id === null ? m.media_agents_new() : m.media_agents_edit({ name: draft.Name })}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Field label={m.media_agents_name()} error={errors.Name}>
            <input value={draft.Name} autoComplete="off" onChange={(e) => setDraft({ ...draft, Name: e.target.value })} />
          </Field>
          <fieldset className="field" aria-invalid={errors.ProgramIds ? true : undefined}>
            <legend>{m.media_agents_programs()}</legend>
            {(programs ?? []).map((p) => (
              <CheckboxField
                key={p.Id}
                label={p.Name}
                checked={draft.ProgramIds.includes(p.Id)}
                onChange={(on) => setDraft({ ...draft, ProgramIds: on ? [...draft.ProgramIds, p.Id] : draft.ProgramIds.filter((id) => id !== p.Id) })}
              />
            ))}
            {errors.ProgramIds && <p className="field-error" role="alert">{errors.ProgramIds}</p>}
          </fieldset>
          <div className="form-actions">
            <button type="submit" className="button" disabled={!online}>{draft.id === null ? m.media_agents_create() : m.media_agents_save()}</button>
            <button type="button" className="button secondary" onClick={() => (setDraft(null), setErrors({}))}>{m.media_agents_cancel()}</button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        danger
        title={m.media_agents_delete_title()}
        description={m.media_agents_delete_description({ name: deleting?.Name ?? '' })}
        actionLabel={m.media_agents_delete({ name: deleting?.Name ?? '' })}
        successToast={m.media_agents_deleted()}
        failureDescription={m.media_agents_failed()}
        onConfirm={async () => {
          if (!deleting) return;
          const res = await call(deleteRecordingAgent, { params: { recordingAgentId: deleting.Id } });
          // Not found: deleted meanwhile (another tab), which is what was asked.
          if (res.kind !== 'ok' && res.kind !== 'notFound') throw new Error(m.media_agents_failed());
        }}
        onDone={() => void load()}
      />
    </section>
  );
}
