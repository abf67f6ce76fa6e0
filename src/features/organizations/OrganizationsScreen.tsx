// / — the list of organizations, reached through 'Switch organization'.
import { m } from '../../paraglide/messages.js';
import { Link } from '../../lib/router.ts';
import { useSession } from '../../lib/session.ts';
import { PageHeader } from '../../components/PageHeader.tsx';

export function OrganizationsScreen() {
  const organizations = useSession()?.session.Organizations ?? [];
  return (
    <>
      <PageHeader title={m.app_organizations_title()} />
      {organizations.length === 0 ? (
        <p className="empty">{m.app_organizations_empty()}</p>
      ) : (
        <ul className="card-list">
          {organizations.map((o) => (
            <li key={o.Id}>
              <Link href={`/${o.Id}`} className="card-link">
                <span className="avatar" aria-hidden="true">{o.Name.slice(0, 1).toUpperCase()}</span>
                <span className="card-title">{o.Name}</span>
                {o.IsDemoOrganization && <span className="pill">{m.app_organizations_demo()}</span>}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
