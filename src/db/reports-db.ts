// The reports a user started, kept on the device so the reports screen lists them and opens the
// finished ones offline (issue 30, "Offline": the reports list and finished reports open offline).
// Its own small database ('castaway-reports', as the user names have theirs: users-cache.ts): the
// synced store is rebuilt from pulls, and reports are not synced rows but answers of
// GET /internal/reports and GET /v1/reports/{kind}/{operationId}.
//
// One record per report, keyed by user + organization + operation id: another user signing in on
// this device, or the same user in another organization, never sees them. A record holds the
// operation as the server last said it; a finished report keeps its Result, which a later listing
// (answers without results) never takes away. At most KEPT_REPORTS_PER_OWNER per user and
// organization, the newest by CreatedAtUtc.
import { Dexie, type EntityTable } from 'dexie';
import type { ReportOperation, ReportOperationSummary } from '../protocol/api/reports.ts';

export type KeptReport = {
  /** `${owner}:${operation.Id}` */
  key: string;
  /** `${userId}:${organizationId}` (lowercase) */
  owner: string;
  operation: ReportOperation;
  keptAt: number;
};

type ReportsDb = Dexie & { reports: EntityTable<KeptReport, 'key'> };

export const REPORTS_DB_NAME = 'castaway-reports';
export const KEPT_REPORTS_PER_OWNER = 100;

function openReportsDb(): ReportsDb {
  const d = new Dexie(REPORTS_DB_NAME) as ReportsDb;
  d.version(1).stores({ reports: 'key, owner' });
  return d;
}

export const reportsDb: ReportsDb = openReportsDb();

export const reportsOwner = (userId: string, organizationId: string) => `${userId.toLowerCase()}:${organizationId.toLowerCase()}`;
const keyOf = (owner: string, operationId: string) => `${owner}:${operationId.toLowerCase()}`;
const newestFirst = (a: KeptReport, b: KeptReport) => Date.parse(b.operation.CreatedAtUtc) - Date.parse(a.operation.CreatedAtUtc);

/** The kept reports of a user in an organization, newest first. */
export async function keptReports(owner: string): Promise<KeptReport[]> {
  const rows = await reportsDb.reports.where('owner').equals(owner).toArray();
  return rows.sort(newestFirst);
}

export async function keptReport(owner: string, operationId: string): Promise<KeptReport | undefined> {
  return reportsDb.reports.get(keyOf(owner, operationId));
}

/**
 * Keeps operations as the server answered them: a full operation (with its Result, null while
 * Busy) replaces what was kept; a summary from the list updates the rest and keeps a Result
 * already stored. Then trims the owner's reports to the newest KEPT_REPORTS_PER_OWNER.
 */
export async function keepReports(owner: string, operations: ReadonlyArray<ReportOperation | ReportOperationSummary>, now = Date.now()): Promise<void> {
  if (operations.length === 0) return;
  await reportsDb.transaction('rw', reportsDb.reports, async () => {
    const keys = operations.map((o) => keyOf(owner, o.Id));
    const before = await reportsDb.reports.bulkGet(keys);
    await reportsDb.reports.bulkPut(
      operations.map((o, i) => {
        const result = 'Result' in o ? o.Result : (before[i]?.operation.Result ?? null);
        return { key: keys[i]!, owner, operation: { ...o, Result: result }, keptAt: now };
      }),
    );
    const all = await reportsDb.reports.where('owner').equals(owner).toArray();
    if (all.length <= KEPT_REPORTS_PER_OWNER) return;
    all.sort(newestFirst);
    await reportsDb.reports.bulkDelete(all.slice(KEPT_REPORTS_PER_OWNER).map((r) => r.key));
  });
}
