// / — the list of organizations, reached through 'Switch organization'.
import { m } from '../../paraglide/messages.js';
import { useSession } from '../../lib/session.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CardList } from '../../components/CardList.tsx';

export function OrganizationsScreen() {
  const organizations = useSession()?.session.Organizations ?? [];
  return (
    <>
      <PageHeader title={m.app_organizations_title()} />
      {organizations.length === 0 ? (
        <p className="empty">{m.app_organizations_empty()}</p>
      ) : (
        <CardList
          items={organizations.map((o) => ({
            id: o.Id,
            href: `/${o.Id}`,
            title: o.Name,
            ...(o.IsDemoOrganization ? { details: <span className="pill">{m.app_organizations_demo()}</span> } : {}),
          }))}
        />
      )}
    </>
  );
}
