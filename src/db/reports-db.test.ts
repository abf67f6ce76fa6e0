import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReportOperation } from '../protocol/api/reports.ts';
import { KEPT_REPORTS_PER_OWNER, keepReports, keptReport, keptReports, reportsDb, reportsOwner } from './reports-db.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
function operation(n: number, over: Partial<ReportOperation> = {}): ReportOperation {
  return {
    Id: id(n),
    Kind: 'consumption-summary-report',
    Status: 'Success',
    Progress: 100,
    Level: 'organization',
    LevelId: null,
    LevelName: null,
    Filters: { startDate: '2025-05-01', endDate: '2025-05-31', timeZoneIanaId: 'UTC' },
    CreatedAtUtc: new Date(Date.UTC(2025, 5, 1) + n * 60_000).toISOString(),
    FinishedAtUtc: null,
    FailureReason: null,
    Result: { Columns: [{ Key: 'Downloads', Label: 'Downloads', Type: 'number' }], Rows: [[n]], Totals: [n] },
    ...over,
  };
}

describe('the reports kept on the device', () => {
  beforeEach(async () => {
    await reportsDb.reports.clear();
  });

  it('keeps each user’s reports of each organization apart, newest first', async () => {
    const ana = reportsOwner('User-A', 'Org-1');
    await keepReports(ana, [operation(1), operation(3), operation(2)]);
    await keepReports(reportsOwner('user-b', 'org-1'), [operation(4)]);
    await keepReports(reportsOwner('user-a', 'org-2'), [operation(5)]);
    expect((await keptReports(ana)).map((r) => r.operation.Id)).toEqual([id(3), id(2), id(1)]);
    expect(await keptReport(reportsOwner('user-b', 'org-1'), id(1))).toBeUndefined();
  });

  it('keeps a finished result when the list (no results) says the report again', async () => {
    const owner = reportsOwner('u', 'o');
    await keepReports(owner, [operation(1)]);
    const { Result: _left, ...summary } = operation(1, { Progress: 100 });
    await keepReports(owner, [summary]);
    expect((await keptReport(owner, id(1)))?.operation.Result?.Rows).toEqual([[1]]);
    // A full answer replaces it (a Busy report's progress moves on).
    await keepReports(owner, [operation(2, { Status: 'Busy', Progress: 10, Result: null })]);
    await keepReports(owner, [operation(2, { Status: 'Busy', Progress: 60, Result: null })]);
    expect((await keptReport(owner, id(2)))?.operation.Progress).toBe(60);
  });

  it(`keeps at most ${KEPT_REPORTS_PER_OWNER} per user and organization, dropping the oldest`, async () => {
    const owner = reportsOwner('u', 'o');
    await keepReports(owner, Array.from({ length: KEPT_REPORTS_PER_OWNER + 5 }, (_, i) => operation(i + 1)));
    const kept = await keptReports(owner);
    expect(kept).toHaveLength(KEPT_REPORTS_PER_OWNER);
    expect(kept.at(-1)?.operation.Id).toBe(id(6));
  });
});
