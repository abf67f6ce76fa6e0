// /{organizationId}/reports (section 2 "Organization reports"; issue 30): run a report of
// downloads (section 7's asynchronous reports), watch it progress, read it as a table, download
// it as CSV, and open earlier ones; a second tab holds the clip scheduled-publish report, a paged
// GET. Reached from the organization menu (content access) and from the analytics screen
// (analytics access), so either right opens it.
//
// Offline first: the list and the finished reports come from the device's own reports database
// (src/db/reports-db.ts), filled from the server's answers whenever online; nothing here waits
// for the network. The URL says what is open (?report=<id>&kind=<kind>, ?tab=scheduled), so the
// back button and a reload land where the user was.
import { useMemo } from 'react';
import { m } from '../../paraglide/messages.js';
import { anyPermissions, permissionsFor } from '../../domain/permissions.ts';
import { REPORT_KINDS, type ReportKind, type ReportLevel } from '../../domain/reports.ts';
import { reportsOwner } from '../../db/reports-db.ts';
import { useIdParams } from '../../lib/params.ts';
import { navigate, useSearch } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { useNetworks, usePrograms } from '../../lib/rows.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { StatusErrorPage } from '../../ui/ErrorPage.tsx';
import { StartReport, type Places } from './StartReport.tsx';
import { ReportList } from './ReportList.tsx';
import { ReportView } from './ReportView.tsx';
import { ScheduledReport } from './ScheduledReport.tsx';
import './reports.css';

export function ReportsScreen() {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const search = new URLSearchParams(useSearch());
  const programs = usePrograms(organizationId);
  const networks = useNetworks(organizationId);
  const entries = useMemo(() => (session ? (organizationById(session, organizationId)?.UserPermissions ?? []) : []), [session, organizationId]);

  // Where downloads reports may run: where the user holds analytics access (the server's rule for
  // reports of downloads); the organization only with an organization-level right.
  const places = useMemo<Places>(() => {
    const analytics = (flags: { HasAnalyticsAccess: boolean }) => flags.HasAnalyticsAccess;
    return {
      organization: analytics(permissionsFor(entries, { kind: 'organization' })),
      networks: (networks ?? []).filter((n) => analytics(permissionsFor(entries, { kind: 'network', networkId: n.Id }))).map((n) => ({ Id: n.Id, Name: n.Name })),
      programs: (programs ?? [])
        .filter((p) => analytics(permissionsFor(entries, { kind: 'program', programId: p.Id, networkId: p.NetworkId ?? null })))
        .map((p) => ({ Id: p.Id, Name: p.Name })),
    };
  }, [entries, networks, programs]);

  const any = anyPermissions(entries);
  if (!any.HasAnalyticsAccess && !any.HasContentAccess) return <StatusErrorPage status={403} />;
  const userId = session?.User?.Id;
  if (!userId) return null;
  const owner = reportsOwner(userId, organizationId);

  const tab = search.get('tab') === 'scheduled' ? 'scheduled' : 'reports';
  const openId = search.get('report');
  const kindParam = search.get('kind');
  const openKind = (REPORT_KINDS as readonly string[]).includes(kindParam ?? '') ? (kindParam as ReportKind) : null;
  const base = `/${organizationId}/reports`;
  const levels: ReportLevel[] = [...(places.organization ? ['organization' as const] : []), ...(places.networks.length > 0 ? ['network' as const] : []), ...(places.programs.length > 0 ? ['program' as const] : [])];

  return (
    <>
      <PageHeader
        title={m.reports_title()}
        tabs={[
          { id: 'reports', label: m.reports_tab_reports(), selected: tab === 'reports', onSelect: () => navigate(base) },
          { id: 'scheduled', label: m.reports_tab_scheduled(), selected: tab === 'scheduled', onSelect: () => navigate(`${base}?tab=scheduled`) },
        ]}
      />
      {tab === 'reports' ? (
        <div role="tabpanel" id="panel-reports" aria-labelledby="tab-reports">
          {openId ? (
            <ReportView owner={owner} operationId={openId} kind={openKind} backHref={base} />
          ) : (
            <>
              <p className="muted">{m.reports_intro()}</p>
              {levels.length > 0 ? (
                <StartReport owner={owner} organizationId={organizationId} places={places} levels={levels} onStarted={(op) => navigate(`${base}?report=${op.Id}&kind=${op.Kind}`)} />
              ) : (
                <p className="alert alert-info">{m.reports_no_levels()}</p>
              )}
              <ReportList owner={owner} hrefOf={(op) => `${base}?report=${op.Id}&kind=${op.Kind}`} />
            </>
          )}
        </div>
      ) : (
        <div role="tabpanel" id="panel-scheduled" aria-labelledby="tab-scheduled">
          <ScheduledReport entries={entries} networks={networks ?? []} programs={programs ?? []} />
        </div>
      )}
    </>
  );
}
