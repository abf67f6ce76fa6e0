import { describe, expect, it } from 'vitest';
import { comparisonBody, initialDraft, reportQuery, serverField, validateDraft, withKind, type ReportDraft } from './report-form.ts';
import { scheduledDraft, scheduledQuery } from './scheduled-form.ts';

const base = (over: Partial<ReportDraft> = {}): ReportDraft => ({ ...initialDraft(new Date(2025, 4, 31), 'Europe/Berlin'), ...over });
const types = (draft: ReportDraft) => Object.fromEntries(Object.entries(validateDraft(draft)).map(([k, v]) => [k, v?.type]));

describe('the report form', () => {
  it('starts with the last 30 days up to today and a consumption summary of the organization', () => {
    const d = initialDraft(new Date(2025, 4, 31, 23, 59), 'UTC');
    expect(d).toMatchObject({ kind: 'consumption-summary-report', level: 'organization', startDate: '2025-05-02', endDate: '2025-05-31', timeZoneIanaId: 'UTC' });
    expect(validateDraft(d)).toEqual({});
  });

  it('says startDate and endDate are required (section 5, reports), each at its field', () => {
    expect(types(base({ startDate: '', endDate: ' ' }))).toEqual({ startDate: 'required', endDate: 'required' });
  });

  it('says a reversed range at the end date and a from above to at the upper bound', () => {
    expect(types(base({ startDate: '2025-05-31', endDate: '2025-05-01' }))).toEqual({ endDate: 'reversed' });
    expect(types(base({ durationSecondsFrom: '600', durationSecondsTo: '60' }))).toEqual({ durationSecondsTo: 'reversed' });
    expect(types(base({ durationSecondsFrom: '-1', durationSecondsTo: '1.5' }))).toMatchObject({ durationSecondsFrom: expect.any(String), durationSecondsTo: expect.any(String) });
  });

  it('asks for a network or program when the report runs at one, targets for shared listeners, clips and days for a comparison', () => {
    expect(types(base({ kind: 'shared-listeners-report', level: 'network', levelId: '' }))).toEqual({ levelId: 'required', targetIds: 'required' });
    expect(types(base({ kind: 'clip-download-comparison-report', level: 'program', levelId: 'p', days: '91' }))).toEqual({ clipIds: 'required', days: 'outOfRange' });
    // A comparison has no dates: none are asked for.
    expect(types(base({ kind: 'clip-download-comparison-report', level: 'program', levelId: 'p', clipIds: ['c'], startDate: '' }))).toEqual({});
  });

  it('moves to a level the new kind allows, forgetting targets and clips chosen for another place', () => {
    const atOrg = base();
    const shared = withKind(atOrg, 'shared-listeners-report', ['organization', 'network', 'program']);
    expect(shared).toMatchObject({ level: 'network', levelId: '', targetIds: [] });
    const atNetwork = base({ level: 'network', levelId: 'n1', targetIds: ['n2'] });
    expect(withKind(atNetwork, 'content-report', ['organization', 'network'])).toMatchObject({ level: 'network', levelId: 'n1', targetIds: ['n2'] });
    expect(withKind(atNetwork, 'clip-download-comparison-report', ['program'])).toMatchObject({ level: 'program', levelId: '' });
  });

  it('sends the filters its kind takes, empty ones left out, lists comma-joined', () => {
    const content = base({ kind: 'content-report', durationSecondsFrom: ' 60 ', source: 'feed', clipVisibilityFilter: ['Public', 'Unlisted'] });
    expect(reportQuery(content)).toEqual({ startDate: '2025-05-02', endDate: '2025-05-31', timeZoneIanaId: 'Europe/Berlin', durationSecondsFrom: '60', source: 'feed', clipVisibilityFilter: 'Public,Unlisted' });
    // The consumption summary takes no visibility filter, even one left from a content report.
    expect(reportQuery({ ...content, kind: 'consumption-summary-report' })).not.toHaveProperty('clipVisibilityFilter');
    expect(reportQuery(base({ kind: 'shared-listeners-report', level: 'program', levelId: 'p', targetIds: ['a', 'b'], source: 'feed' }))).toEqual({
      startDate: '2025-05-02',
      endDate: '2025-05-31',
      timeZoneIanaId: 'Europe/Berlin',
      targetProgramIds: 'a,b',
    });
    expect(reportQuery(base({ kind: 'shared-listeners-report', level: 'network', levelId: 'n', targetIds: ['x'] }))).toHaveProperty('targetNetworkIds', 'x');
    expect(comparisonBody(base({ kind: 'clip-download-comparison-report', clipIds: ['c1', 'c2'], days: ' 14 ' }))).toEqual({ clipIds: ['c1', 'c2'], days: 14 });
  });

  it("puts a server's 400 back on the field it names", () => {
    expect(serverField('startDate')).toBe('startDate');
    expect(serverField('TimeZoneIanaId')).toBe('timeZoneIanaId');
    expect(serverField('targetNetworkIds')).toBe('targetIds');
    expect(serverField('clipIds.2')).toBe('clipIds');
    expect(serverField('programId')).toBe('levelId');
    expect(serverField('body')).toBeNull();
  });
});

describe('the scheduled-publish filters', () => {
  it('look ahead 30 days from today, soonest first, and send only what is filled in', () => {
    const d = scheduledDraft(new Date(2025, 11, 20), 'America/Los_Angeles');
    expect(d).toMatchObject({ startDate: '2025-12-20', endDate: '2026-01-19', sortBy: 'visibleAt' });
    expect(scheduledQuery(d)).toEqual({ startDate: '2025-12-20', endDate: '2026-01-19', timeZoneIanaId: 'America/Los_Angeles' });
    expect(scheduledQuery({ ...d, clipTitleFilter: ' news ', scheduledVisibilityFilter: ['Public'], sortBy: '-title' })).toMatchObject({ clipTitleFilter: 'news', scheduledVisibilityFilter: 'Public', sortBy: '-title' });
  });
});
