// Shared error pages (sections 2 and 8): by status 403 'Access denied', 404 'Page not found',
// 451 'Not available in your location', anything else 'Server error'; the nine not-found pages;
// 'Home' (the organization root when the route has one, else /) and 'Reload page'.
import { useState, type ReactNode } from 'react';
import { showsGrantAccess } from '../domain/permissions.ts';
import { grantAccessOutcome } from '../domain/dialogs.ts';
import { m } from '../paraglide/messages.js';
import { call } from '../lib/api.ts';
import { grantOrganizationAccess } from '../lib/shell-routes.ts';
import { withLoading } from '../lib/loading.ts';
import { useSession } from '../lib/session.ts';
import { useDocumentTitle } from './useDocumentTitle.ts';

export type NotFoundKind = 'organization' | 'clip' | 'enterprise' | 'enterpriseOrganization' | 'program' | 'playlist' | 'network' | 'recording' | 'memo';

export function notFoundTitle(kind: NotFoundKind, memoDate?: string): string {
  switch (kind) {
    case 'organization': return m.app_not_found_organization();
    case 'clip': return m.app_not_found_clip();
    case 'enterprise': return m.app_not_found_enterprise();
    case 'enterpriseOrganization': return m.app_not_found_enterprise_organization();
    case 'program': return m.app_not_found_program();
    case 'playlist': return m.app_not_found_playlist();
    case 'network': return m.app_not_found_network();
    case 'recording': return m.app_not_found_recording();
    case 'memo': return m.app_not_found_memo({ date: memoDate ?? '' });
  }
}

export function statusTitle(status: number): { title: string; text: string } {
  if (status === 403) return { title: m.app_error_403_title(), text: m.app_error_403_text() };
  if (status === 404) return { title: m.app_error_404_title(), text: m.app_error_404_text() };
  if (status === 451) return { title: m.app_error_451_title(), text: m.app_error_451_text() };
  return { title: m.app_error_500_title(), text: m.app_error_500_text() };
}

/** The organization id in the current path, if the first segment looks like one. */
function organizationRoot(): string {
  const first = location.pathname.split('/')[1] ?? '';
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(first) ? `/${first}` : '/';
}

function ErrorLayout({ code, title, text, children }: { code?: string; title: string; text: string; children?: ReactNode }) {
  useDocumentTitle([title]);
  return (
    <section className="error-page" aria-labelledby="error-title">
      {code && <p className="error-code">{code}</p>}
      <h1 id="error-title">{title}</h1>
      <p className="error-text">{text}</p>
      <div className="error-actions">
        {/* Full page loads: an error page must not depend on the state that broke. */}
        <a className="button primary" href={organizationRoot()}>{m.app_error_home()}</a>
        <button type="button" className="button" onClick={() => location.reload()}>{m.app_error_reload()}</button>
        {children}
      </div>
    </section>
  );
}

export function StatusErrorPage({ status }: { status: number }) {
  const { title, text } = statusTitle(status);
  return <ErrorLayout code={m.app_error_status({ status })} title={title} text={text} />;
}

export function NotFoundPage({ kind, organizationId, memoDate, detail }: { kind: NotFoundKind; organizationId?: string; memoDate?: string; detail?: string }) {
  const user = useSession()?.session.User;
  const grant = kind === 'organization' && organizationId && showsGrantAccess({ isAdminOrSupport: user?.IsAdminOrSupport ?? false });
  return (
    <ErrorLayout code="404" title={notFoundTitle(kind, memoDate)} text={detail ?? m.app_not_found_text()}>
      {grant && <GrantAccessButton organizationId={organizationId} />}
    </ErrorLayout>
  );
}

/** 'Grant access' (section 6): POST /api/admin/users/me/organizations; 404 → 'Organization does not exist'. */
function GrantAccessButton({ organizationId }: { organizationId: string }) {
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const grant = async () => {
    setBusy(true);
    setAlert(null);
    const res = await withLoading(call(grantOrganizationAccess, { json: { OrganizationId: organizationId } }));
    setBusy(false);
    const outcome = grantAccessOutcome(res);
    if (outcome.action === 'reload') location.reload();
    // The catalogue loads only for this alert: it is 24 KB gzip of every screen that shows a 404.
    else setAlert((await import('../domain/messages.ts')).domainMessage(outcome.message));
  };
  return (
    <>
      <button type="button" className="button" disabled={busy} onClick={() => void grant()}>{m.app_grant_access()}</button>
      {alert && <p role="alert" className="alert alert-danger">{alert}</p>}
    </>
  );
}
