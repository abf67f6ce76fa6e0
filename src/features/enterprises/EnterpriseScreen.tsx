// /enterprises/{enterpriseId} — one enterprise: its organizations (each opened with "Open", which
// makes the caller a member, or its details edited), its users and its sales codes. An id that is
// not an enterprise's, or one the caller may not see, is the 'Enterprise not found' page
// (section 2): the server answers both alike.
import { m } from '../../paraglide/messages.js';
import { enterpriseOrganizationPath, enterprisesPath } from '../../domain/enterprises.ts';
import { getEnterprise, listEnterpriseOrganizations, listEnterpriseUsers, type Enterprise, type EnterpriseOrganization, type EnterpriseUser } from '../../protocol/api/enterprises.ts';
import { call } from '../../lib/api.ts';
import { useIdParams } from '../../lib/params.ts';
import { Link } from '../../lib/router.ts';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { MoreButton, OpenOrganizationButton, StateNote, useMore } from './EnterpriseParts.tsx';
import { useServerRead } from './load.ts';
import './enterprises.css';

const PAGE_SIZE = 100;

export function EnterpriseScreen() {
  const { enterpriseId } = useIdParams('enterpriseId');
  const [state] = useServerRead(`enterprise:${enterpriseId}`, () => call(getEnterprise, { params: { enterpriseId } }));
  if (state.kind === 'notFound') return <NotFoundPage kind="enterprise" />;
  const enterprise = state.kind === 'ok' ? state.data : null;
  return (
    <>
      <PageHeader title={enterprise?.Name ?? m.enterprises_eyebrow()} eyebrow={m.enterprises_eyebrow()} link={<Link href={enterprisesPath()}>{m.enterprises_back()}</Link>} />
      <StateNote state={state} />
      {enterprise && (
        <>
          <Organizations enterpriseId={enterpriseId} />
          <Users enterpriseId={enterpriseId} />
          <SalesCodes enterprise={enterprise} />
        </>
      )}
    </>
  );
}

function Organizations({ enterpriseId }: { enterpriseId: string }) {
  const query = (page: number) => call(listEnterpriseOrganizations, { params: { enterpriseId }, query: { page: String(page), pageSize: String(PAGE_SIZE) } });
  const [state] = useServerRead(`enterprise-organizations:${enterpriseId}`, () => query(1));
  const { more, failed, showMore } = useMore<EnterpriseOrganization>(query);
  const first = state.kind === 'ok' ? state.data : null;
  const items = [...(first?.Items ?? []), ...(more?.items ?? [])];
  return (
    <section className="enterprise-section" aria-labelledby="enterprise-organizations">
      <h2 id="enterprise-organizations">{m.enterprises_organizations()}</h2>
      <p className="muted">{m.enterprises_open_hint()}</p>
      <StateNote state={state} />
      {first && items.length === 0 && <p className="muted">{m.enterprises_organizations_none()}</p>}
      {items.length > 0 && (
        <ul className="plain-list" aria-label={m.enterprises_organizations()}>
          {items.map((o) => (
            <OrganizationCard key={o.OrganizationId} organization={o} />
          ))}
        </ul>
      )}
      <MoreButton hasNext={more ? more.hasNext : (first?.HasNext ?? false)} failed={failed} onMore={() => void showMore()} />
    </section>
  );
}

function OrganizationCard({ organization: o }: { organization: EnterpriseOrganization }) {
  const label = o.DisplayName ?? o.Name;
  return (
    <li className="card enterprise-card" aria-label={label}>
      <h3 className="enterprise-card-title">{label}</h3>
      <p className="enterprise-pills">
        <span className="pill">{o.PlanLabel ?? m.enterprises_plan_none()}</span>
        {o.CallerIsMember && <span className="pill">{m.enterprises_member()}</span>}
        {o.Deleted && <span className="pill pill-error">{m.enterprises_deleted()}</span>}
      </p>
      {o.DisplayName && o.DisplayName !== o.Name && (
        <p className="muted">
          {m.enterprises_organization_name()}: {o.Name}
        </p>
      )}
      {o.Notes && <p className="enterprise-notes">{o.Notes}</p>}
      <div className="form-actions">
        {!o.Deleted && <OpenOrganizationButton enterpriseId={o.EnterpriseId} organizationId={o.OrganizationId} label={label} />}
        <Link href={enterpriseOrganizationPath(o.EnterpriseId, o.OrganizationId)} className="button" aria-label={`${m.enterprises_details()}: ${label}`}>
          {m.enterprises_details()}
        </Link>
      </div>
    </li>
  );
}

function Users({ enterpriseId }: { enterpriseId: string }) {
  const query = (page: number) => call(listEnterpriseUsers, { params: { enterpriseId }, query: { page: String(page), pageSize: String(PAGE_SIZE) } });
  const [state] = useServerRead(`enterprise-users:${enterpriseId}`, () => query(1));
  const { more, failed, showMore } = useMore<EnterpriseUser>(query);
  const first = state.kind === 'ok' ? state.data : null;
  const items = [...(first?.Items ?? []), ...(more?.items ?? [])];
  return (
    <section className="enterprise-section" aria-labelledby="enterprise-users">
      <h2 id="enterprise-users">{m.enterprises_users()}</h2>
      <StateNote state={state} />
      {first && items.length === 0 && <p className="muted">{m.enterprises_users_none()}</p>}
      {items.length > 0 && (
        <ul className="card enterprise-rows" aria-label={m.enterprises_users()}>
          {items.map((u) => (
            <li key={u.Id}>
              <strong>{u.Name}</strong> <span className="muted">{u.Email}</span>
            </li>
          ))}
        </ul>
      )}
      <MoreButton hasNext={more ? more.hasNext : (first?.HasNext ?? false)} failed={failed} onMore={() => void showMore()} />
    </section>
  );
}

function SalesCodes({ enterprise }: { enterprise: Enterprise }) {
  return (
    <section className="enterprise-section" aria-labelledby="enterprise-sales-codes">
      <h2 id="enterprise-sales-codes">{m.enterprises_sales_codes()}</h2>
      <p className="muted">{m.enterprises_sales_codes_hint()}</p>
      {enterprise.SalesCodes.length === 0 ? (
        <p className="muted">{m.enterprises_sales_codes_none()}</p>
      ) : (
        <ul className="card enterprise-rows" aria-label={m.enterprises_sales_codes()}>
          {enterprise.SalesCodes.map((s) => (
            <li key={s.Name}>
              <code>{s.Name}</code> <span className="muted">{s.OwnerName ? m.enterprises_sales_code_owner({ name: s.OwnerName }) : m.enterprises_sales_code_no_owner()}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
