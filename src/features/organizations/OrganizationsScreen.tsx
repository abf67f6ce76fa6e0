// / — the list of organizations, reached through 'Switch organization'; a member of one
// organization is taken to its home instead (domain landingOrganizationId).
import { m } from '../../paraglide/messages.js';
import { useSession } from '../../lib/session.ts';
import { Redirect } from '../../lib/router.ts';
import { landingOrganizationId } from '../../domain/permissions.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CardList } from '../../ui/CardList.tsx';

export function OrganizationsScreen() {
  const session = useSession()?.session;
  const organizations = session?.Organizations ?? [];
  const landing = session ? landingOrganizationId(session) : null;
  // Replacing '/': Back from the organization home leaves the app instead of bouncing off '/'.
  if (landing) return <Redirect to={`/${landing}`} replace />;
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
