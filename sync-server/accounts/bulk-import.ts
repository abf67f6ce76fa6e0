// Bulk user import (issue 31; section 7 POST /internal/users/import/bulk, GET …/report; the routes:
// api/user-import.ts; the table: migrations/0550_user_import_reports.sql). Each row goes through
// the single invitation's code path (api/invitations.ts invite) on its own, so a row fails with
// exactly what POST /v1/users/invitation would answer for it, and the rows before and after it are
// invited all the same:
//
//   row ──the rules the dialog also shows (userImportRowErrors: the address, once in the file, the
//        object id, section 6)──> Failed
//       ──a member already──> AlreadyMember (nothing sent)
//       ──invite: this organization's objects, the limits──> Failed (its 400 or 429 fields)
//       ──> Invited (the invitation made or renewed, its mail queued)
//   ──> the report, kept as the organization's latest (the one before it replaced)
//
// Rows run one after another: each is a transaction and a mail, and the limits count them in order.
import { randomUUID } from 'node:crypto';
import { USER_IMPORT_MAX_ROWS } from '../../src/domain/users.ts';
import { importRowEntry, userImportRowErrors, type UserImportReport, type UserImportRequest, type UserImportRowResult } from '../../src/protocol/api/user-import.ts';
import type { FieldError } from '../../src/protocol/errors.ts';
import { invite, isMember, type Inviter } from '../api/invitations.ts';
import { now, type AppDeps } from '../app.ts';
import { AppError, fieldError } from '../errors.ts';

/** An invitation's field in the terms of an import row: its one entry's paths lose `Permissions.0.`. */
function rowField(field: string): string {
  if (field === 'Permissions.0.ObjectId') return 'ObjectId';
  return field.replace(/^Permissions\.0\.Permissions\./, 'Permissions.');
}

/** The fields of a refused invitation (400, 429, or the plan’s 403), or null for any other failure (not the row’s: rethrown). */
function refusal(err: unknown): FieldError[] | null {
  // 403 with a body: the plan's ExtraSeats cap (billing/entitlements.ts), said at the row like the rest.
  if (!(err instanceof AppError) || (err.status !== 400 && err.status !== 429 && !(err.status === 403 && err.body !== undefined))) return null;
  const body = err.body as { Errors?: FieldError[] } | undefined;
  return (body?.Errors ?? []).map((e) => ({ ...e, Field: rowField(e.Field) }));
}

type ReportRow = {
  id: string;
  organization_id: string;
  created_by_id: string;
  created_by_name: string;
  created_at_utc: Date | string;
  invited: number;
  already_member: number;
  failed: number;
  rows: UserImportRowResult[];
};

const reportOf = (r: ReportRow): UserImportReport => ({
  Id: r.id,
  OrganizationId: r.organization_id,
  CreatedAtUtc: new Date(r.created_at_utc).toISOString(),
  CreatedById: r.created_by_id,
  CreatedByName: r.created_by_name,
  Counts: { Invited: Number(r.invited), AlreadyMember: Number(r.already_member), Failed: Number(r.failed) },
  Rows: r.rows,
});

/** Invites every row that holds, reports every row, and keeps the report as the organization's latest. */
export async function importUsers(deps: AppDeps, inviter: Inviter & { user: { Name: string } }, request: UserImportRequest, origin: string): Promise<UserImportReport> {
  const local = userImportRowErrors(request.Rows, inviter.organizationId);
  const results: UserImportRowResult[] = [];
  for (const [i, row] of request.Rows.entries()) {
    const base = { RowNumber: row.RowNumber ?? i + 1, Email: row.Email.trim(), Name: row.Name?.trim() || null };
    const errors = local[i]!;
    if (errors.length > 0) {
      results.push({ ...base, Status: 'Failed', Errors: errors.map(({ field, error }) => fieldError(field, error)) });
      continue;
    }
    if (await isMember(deps.store, inviter.organizationId, row.Email)) {
      results.push({ ...base, Status: 'AlreadyMember', Errors: [] });
      continue;
    }
    try {
      await invite(deps, inviter, { Email: row.Email, Permissions: [importRowEntry(row, inviter.organizationId)] }, origin, USER_IMPORT_MAX_ROWS);
      results.push({ ...base, Status: 'Invited', Errors: [] });
    } catch (err) {
      const fields = refusal(err);
      if (!fields) throw err;
      results.push({ ...base, Status: 'Failed', Errors: fields });
    }
  }
  const count = (status: UserImportRowResult['Status']) => results.filter((r) => r.Status === status).length;
  const report: ReportRow = {
    id: randomUUID(),
    organization_id: inviter.organizationId,
    created_by_id: inviter.user.Id,
    created_by_name: inviter.user.Name,
    created_at_utc: now(deps),
    invited: count('Invited'),
    already_member: count('AlreadyMember'),
    failed: count('Failed'),
    rows: results,
  };
  await deps.store.query(
    `INSERT INTO user_import_reports (id, organization_id, created_by_id, created_at_utc, invited, already_member, failed, rows)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (organization_id) DO UPDATE SET id = EXCLUDED.id, created_by_id = EXCLUDED.created_by_id, created_at_utc = EXCLUDED.created_at_utc,
       invited = EXCLUDED.invited, already_member = EXCLUDED.already_member, failed = EXCLUDED.failed, rows = EXCLUDED.rows`,
    [report.id, report.organization_id, report.created_by_id, report.created_at_utc, report.invited, report.already_member, report.failed, JSON.stringify(report.rows)],
  );
  return reportOf(report);
}

/** The organization's latest report, or null. */
export async function latestImportReport(deps: AppDeps, organizationId: string): Promise<UserImportReport | null> {
  const [row] = await deps.store.query<ReportRow>(
    `SELECT r.id, r.organization_id, r.created_by_id, u.name AS created_by_name, r.created_at_utc, r.invited, r.already_member, r.failed, r.rows
     FROM user_import_reports r JOIN users u ON u.id = r.created_by_id WHERE r.organization_id = $1`,
    [organizationId],
  );
  return row ? reportOf(row) : null;
}
