// /enterprises/{enterpriseId}/organizations/{organizationId} — one organization of an enterprise:
// "Open" (PUT …/access) and what the enterprise keeps about it (PATCH: its name there, its plan,
// notes), checked here by the server's own rule (src/domain/enterprises.ts) and saved with
// If-Match; a change someone made meanwhile is shown and the edit made again, never overwritten.
// An enterprise the caller may not see is 'Enterprise not found'; an organization the enterprise
// does not hold (or an id that is none) 'Enterprise organization not found' (section 2).
import { useEffect, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { enterprisePath, validateEnterpriseOrganizationEdit, type EnterpriseOrganizationField } from '../../domain/enterprises.ts';
import { fieldErrorTexts, formatFormError } from '../../domain/messages.ts';
import { isGuid } from '../../domain/validators.ts';
import { getEnterprise, getEnterpriseOrganization, updateEnterpriseOrganization, type EnterpriseOrganization } from '../../protocol/api/enterprises.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';
import { useIdParams } from '../../lib/params.ts';
import { Link, useParams } from '../../lib/router.ts';
import { Field } from '../../ui/Field.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { OpenOrganizationButton, StateNote } from './EnterpriseParts.tsx';
import { useServerRead } from './load.ts';
import './enterprises.css';

export function EnterpriseOrganizationScreen() {
  const { enterpriseId } = useIdParams('enterpriseId');
  const raw = (useParams() as { organizationId?: string }).organizationId ?? '';
  // Not an id: no organization of this enterprise (the page says so, as for one it does not hold).
  const organizationId = isGuid(raw) ? raw.toLowerCase() : null;
  const [enterprise] = useServerRead(`enterprise:${enterpriseId}`, () => call(getEnterprise, { params: { enterpriseId } }));
  const [state, , replace] = useServerRead(`enterprise-organization:${enterpriseId}:${organizationId ?? ''}`, () =>
    organizationId ? call(getEnterpriseOrganization, { params: { enterpriseId, organizationId } }) : Promise.resolve({ kind: 'notFound' as const, status: 404 as const }),
  );
  if (enterprise.kind === 'notFound') return <NotFoundPage kind="enterprise" />;
  if (state.kind === 'notFound' || organizationId === null) return <NotFoundPage kind="enterpriseOrganization" />;
  const organization = state.kind === 'ok' ? state.data : null;
  const enterpriseName = enterprise.kind === 'ok' ? enterprise.data.Name : m.enterprises_eyebrow();
  const label = organization ? (organization.DisplayName ?? organization.Name) : '';
  return (
    <>
      <PageHeader
        title={organization ? label : m.enterprises_eyebrow()}
        eyebrow={m.enterprises_eyebrow()}
        link={<Link href={enterprisePath(enterpriseId)}>{enterpriseName}</Link>}
        actions={organization && !organization.Deleted ? <OpenOrganizationButton enterpriseId={enterpriseId} organizationId={organization.OrganizationId} label={label} /> : undefined}
      />
      <StateNote state={state} />
      {organization && (
        <>
          <dl className="card enterprise-facts">
            <dt>{m.enterprises_organization_name()}</dt>
            <dd>
              {organization.Name}
              {organization.Deleted && <span className="pill pill-error">{m.enterprises_deleted()}</span>}
            </dd>
            <dt>{m.enterprises_organization_id()}</dt>
            <dd>
              <code>{organization.OrganizationId}</code>
            </dd>
          </dl>
          <EditForm organization={organization} onSaved={replace} />
        </>
      )}
    </>
  );
}

type Values = Record<EnterpriseOrganizationField, string>;
const valuesOf = (o: EnterpriseOrganization): Values => ({ DisplayName: o.DisplayName ?? '', PlanLabel: o.PlanLabel ?? '', Notes: o.Notes ?? '' });
const FIELDS: readonly EnterpriseOrganizationField[] = ['DisplayName', 'PlanLabel', 'Notes'];

function EditForm({ organization, onSaved }: { organization: EnterpriseOrganization; onSaved: (o: EnterpriseOrganization) => void }) {
  const online = useOnline();
  const [values, setValues] = useState<Values>(() => valuesOf(organization));
  const [errors, setErrors] = useState<Partial<Record<EnterpriseOrganizationField | 'form', string>>>({});
  const [notice, setNotice] = useState<{ kind: 'saved' | 'conflict'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Another answer (the one saved, or someone else's after a 412): the form shows it.
  useEffect(() => setValues(valuesOf(organization)), [organization]);

  const set = (field: EnterpriseOrganizationField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => {
      const { [field]: _field, form: _form, ...rest } = e;
      return rest;
    });
    setNotice(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problems = validateEnterpriseOrganizationEdit(values);
    if (problems.length > 0) {
      setErrors(Object.fromEntries(problems.map((p) => [p.field, formatFormError(p.error)])));
      return;
    }
    setBusy(true);
    setNotice(null);
    const res = await withLoading(
      call(updateEnterpriseOrganization, {
        params: { enterpriseId: organization.EnterpriseId, organizationId: organization.OrganizationId },
        json: values,
        headers: { 'if-match': `"${organization.ModifiedAtUtc}"` },
      }),
    );
    setBusy(false);
    if (res.kind === 'ok') {
      setErrors({});
      setNotice({ kind: 'saved', text: m.enterprises_saved() });
      return onSaved(res.data);
    }
    if (res.kind === 'badRequest') return setErrors(fieldErrorTexts(res.body.Errors, FIELDS));
    if (res.kind === 'status' && res.status === 412 && res.body) {
      setNotice({ kind: 'conflict', text: m.enterprises_conflict() });
      return onSaved(res.body as EnterpriseOrganization);
    }
    setErrors({ form: res.kind === 'error' ? m.enterprises_offline_save() : res.kind === 'notFound' ? m.enterprises_open_gone() : m.enterprises_save_failed() });
  };

  return (
    <form className="card form" noValidate aria-labelledby="enterprise-edit-title" onSubmit={(e) => void submit(e)}>
      <h2 id="enterprise-edit-title">{m.enterprises_edit_title()}</h2>
      <Field label={m.enterprises_display_name()} hint={m.enterprises_display_name_hint()} error={errors.DisplayName}>
        <input type="text" value={values.DisplayName} placeholder={organization.Name} autoComplete="off" onChange={(e) => set('DisplayName', e.target.value)} />
      </Field>
      <Field label={m.enterprises_plan_label()} hint={m.enterprises_plan_label_hint()} error={errors.PlanLabel}>
        <input type="text" value={values.PlanLabel} autoComplete="off" onChange={(e) => set('PlanLabel', e.target.value)} />
      </Field>
      <Field label={m.enterprises_notes()} error={errors.Notes}>
        <textarea rows={5} value={values.Notes} onChange={(e) => set('Notes', e.target.value)} />
      </Field>
      {!online && (
        <p className="muted" role="status">
          {m.enterprises_offline_save()}
        </p>
      )}
      {errors.form && (
        <p className="alert alert-error" role="alert">
          {errors.form}
        </p>
      )}
      {notice && (
        <p className={`alert ${notice.kind === 'saved' ? 'alert-info' : 'alert-error'}`} role={notice.kind === 'saved' ? 'status' : 'alert'}>
          {notice.text}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy || !online}>
          {m.enterprises_save()}
        </button>
      </div>
    </form>
  );
}
