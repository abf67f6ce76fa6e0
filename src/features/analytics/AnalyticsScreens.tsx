// The analytics screens (issue 30): /{organizationId}/analytics for the organization,
// …/programs/{programId}/analytics and …/programs/{programId}/clips/{clipId}/analytics. They read
// the analytics API, not the synced store (a program's or clip's name is taken from the store
// when it is there), and show the last loaded view at once and offline (use-view.ts).
import { clipLabel } from '../../domain/clip.ts';
import { m } from '../../paraglide/messages.js';
import { useIdParams } from '../../lib/params.ts';
import { asClip, asProgram, useRow } from '../../lib/rows.ts';
import { Link, useSearch } from '../../lib/router.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { AnalyticsView } from './AnalyticsView.tsx';
import { PlanGate } from './NotInPlan.tsx';

export function OrganizationAnalyticsScreen() {
  const { organizationId } = useIdParams('organizationId');
  return (
    <>
      <PageHeader title={m.analytics_title()} actions={<Link href={`/${organizationId}/reports`} className="button">{m.analytics_reports_link()}</Link>} />
      <PlanGate organizationId={organizationId}>
        <AnalyticsView organizationId={organizationId} level={{ kind: 'organization' }} />
      </PlanGate>
    </>
  );
}

/** The query of this screen carried to the next (a program's numbers in the same range). */
function useCarriedSearch(): string {
  const search = useSearch();
  return search ? `?${search.replace(/^\?/, '')}` : '';
}

export function ProgramAnalyticsScreen() {
  const { organizationId, programId } = useIdParams('organizationId', 'programId');
  const program = useRow('programs', programId);
  const carried = useCarriedSearch();
  const name = program.state === 'ok' ? asProgram(program.row).Name : null;
  return (
    <>
      <PageHeader
        eyebrow={m.analytics_eyebrow()}
        title={name ?? m.analytics_program_title()}
        link={
          <>
            <Link href={`/${organizationId}/programs/${programId}`}>{m.analytics_back_program()}</Link>
            {' · '}
            <Link href={`/${organizationId}/analytics${carried}`}>{m.analytics_title()}</Link>
          </>
        }
      />
      <PlanGate organizationId={organizationId}>
        <AnalyticsView organizationId={organizationId} level={{ kind: 'program', programId }} />
      </PlanGate>
    </>
  );
}

export function ClipAnalyticsScreen() {
  const { organizationId, programId, clipId } = useIdParams('organizationId', 'programId', 'clipId');
  const clip = useRow('clips', clipId);
  const carried = useCarriedSearch();
  const title = clip.state === 'ok' ? clipLabel(asClip(clip.row)) : null;
  return (
    <>
      <PageHeader
        eyebrow={m.analytics_eyebrow()}
        title={title ?? m.analytics_clip_title()}
        link={
          <>
            <Link href={`/${organizationId}/programs/${programId}/clips/${clipId}`}>{m.analytics_back_clip()}</Link>
            {' · '}
            <Link href={`/${organizationId}/programs/${programId}/analytics${carried}`}>{m.analytics_program_title()}</Link>
          </>
        }
      />
      <PlanGate organizationId={organizationId}>
        <AnalyticsView organizationId={organizationId} level={{ kind: 'clip', clipId }} />
      </PlanGate>
    </>
  );
}
