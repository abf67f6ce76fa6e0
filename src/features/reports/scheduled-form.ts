// The filters of the clip scheduled-publish report (section 7) as the screen holds them, and the
// query they make (section 5: startDate and endDate required; lists comma-joined, left out when empty).
import { listParameter } from '../../domain/call-params.ts';
import type { ReportVisibility, ScheduledReportSort } from '../../domain/reports.ts';
import { localDate } from './report-form.ts';

export type ScheduledDraft = {
  /** '' for the organization, else 'network:<id>' or 'program:<id>'. */
  level: string;
  startDate: string;
  endDate: string;
  timeZoneIanaId: string;
  clipTitleFilter: string;
  scheduledVisibilityFilter: ReportVisibility[];
  sortBy: ScheduledReportSort;
};

/** Days after today a first look covers (what is scheduled is mostly ahead). */
export const SCHEDULED_DAYS_AHEAD = 30;

/** A first look: today and the next SCHEDULED_DAYS_AHEAD days (the device's calendar), soonest first. */
export function scheduledDraft(now: Date, timeZoneIanaId: string): ScheduledDraft {
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + SCHEDULED_DAYS_AHEAD);
  return { level: '', startDate: localDate(now), endDate: localDate(end), timeZoneIanaId, clipTitleFilter: '', scheduledVisibilityFilter: [], sortBy: 'visibleAt' };
}

/** The query of the scheduled-publish report (without paging): empty filters left out. */
export function scheduledQuery(draft: ScheduledDraft): { startDate: string; endDate: string } & Record<string, string> {
  const query: { startDate: string; endDate: string } & Record<string, string> = { startDate: draft.startDate.trim(), endDate: draft.endDate.trim() };
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined && value.trim() !== '') query[name] = value.trim();
  };
  put('timeZoneIanaId', draft.timeZoneIanaId);
  put('clipTitleFilter', draft.clipTitleFilter);
  put('scheduledVisibilityFilter', listParameter(draft.scheduledVisibilityFilter));
  if (draft.sortBy !== 'visibleAt') put('sortBy', draft.sortBy);
  return query;
}
