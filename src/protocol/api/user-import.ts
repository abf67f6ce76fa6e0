// Bulk user import, specification section 7 ("Bulk user import: POST /internal/users/import/bulk
// (JSON); GET /internal/users/import/bulk/report"; issue 31: the users screen imports a CSV file
// with a per-row report). The file is read in the browser (src/domain/csv.ts, the users screen's
// import dialog); the server takes its rows as JSON, each row an invitation as
// POST /v1/users/invitation takes it, with one permission entry (section 6) spelled out.
// Served by sync-server/api/user-import.ts and sync-server/accounts/bulk-import.ts.
//
//   POST /internal/users/import/bulk { Rows: [{ Email, Name?, ObjectType, ObjectId?, Permissions }] }
//     ──400 (Rows missing, empty, or more than USER_IMPORT_MAX_ROWS)
//     ──> each row on its own: Invited | AlreadyMember | Failed (the field and the message the
//         single invitation gives) ──> 200 the report, kept as the organization's latest
//   GET /internal/users/import/bulk/report ──404 (no import yet) ──> 200 the latest report
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { formError, type FormError } from '../../domain/form-errors.ts';
import { permissionEntryErrors, type PermissionEntry } from '../../domain/permissions.ts';
import { USER_IMPORT_MAX_ROWS } from '../../domain/users.ts';
import { MAX_INT } from '../../domain/constants.ts';
import { validateGuid, validateName } from '../../domain/validators.ts';
import { PermissionFlagsSchema, PermissionObjectType } from '../entities.ts';
import { FieldErrorSchema } from '../errors.ts';
import { errors, jsonBody, jsonContent, writeErrors, type DomainIssueParams, mailLinkErrors } from './common.ts';
import { InvitationRequest, invitationFormErrors } from './invitations.ts';

const tags = ['Users'];

export const UserImportRow = z
  .object({
    Email: InvitationRequest.shape.Email,
    Name: z.string().optional().meta({ description: 'The person’s name, for the report (the account’s name is set by the invited person on accepting)' }),
    ObjectType: PermissionObjectType.meta({ description: 'The scope of the one permission entry (section 6)' }),
    // Checked per row (a GUID, an object of this organization the caller sees), so that a wrong id
    // in one line of the file is that row's failure and not the whole import's.
    ObjectId: z.string().max(100).optional().meta({ description: 'The network or program; for Organization scope the organization (omitted: the one acted in)' }),
    Permissions: PermissionFlagsSchema.meta({ description: 'The seven flags of section 6 (a missing flag is false)' }),
    RowNumber: z
      .number()
      .int()
      .min(1)
      .max(MAX_INT)
      .optional()
      .meta({ description: 'The row’s number in the file (1 = the first row under the header) when rows of the file were left out; default: its place in Rows' }),
  })
  .strict()
  .meta({ id: 'UserImportRow' });
export type UserImportRow = z.infer<typeof UserImportRow>;

const tooMany = formError('tooLong', 'domain_user_import_too_many_rows', { max: USER_IMPORT_MAX_ROWS });
const noRows = formError('required', 'domain_user_import_no_rows');

export const UserImportRequest = z
  .object({
    Rows: z.array(UserImportRow).superRefine((rows, ctx) => {
      const error = rows.length === 0 ? noRows : rows.length > USER_IMPORT_MAX_ROWS ? tooMany : null;
      if (error) ctx.addIssue({ code: 'custom', message: error.type, params: { formError: error } satisfies DomainIssueParams });
    }),
  })
  .strict()
  .meta({ id: 'UserImportRequest' });
export type UserImportRequest = z.infer<typeof UserImportRequest>;

export const UserImportStatus = z.enum(['Invited', 'AlreadyMember', 'Failed']).meta({
  description: 'Invited: the invitation was made and its mail queued. AlreadyMember: the address is a member of the organization; nothing was sent. Failed: Errors say why',
});
export type UserImportStatus = z.infer<typeof UserImportStatus>;

export const UserImportRowResult = z
  .object({
    RowNumber: z.number().int(),
    Email: z.string(),
    Name: z.string().nullable(),
    Status: UserImportStatus,
    Errors: z.array(FieldErrorSchema).meta({ description: 'For a Failed row: each field of the row that failed (Email, Name, ObjectId, Permissions.<flag>, or body for a limit on the importer) with its message; empty otherwise' }),
  })
  .meta({ id: 'UserImportRowResult' });
export type UserImportRowResult = z.infer<typeof UserImportRowResult>;

export const UserImportReport = z
  .object({
    Id: z.uuid(),
    OrganizationId: z.uuid(),
    CreatedAtUtc: z.string(),
    CreatedById: z.uuid(),
    CreatedByName: z.string(),
    Counts: z.object({ Invited: z.number().int(), AlreadyMember: z.number().int(), Failed: z.number().int() }),
    Rows: z.array(UserImportRowResult),
  })
  .meta({ id: 'UserImportReport' });
export type UserImportReport = z.infer<typeof UserImportReport>;

/** A row's one permission entry: Organization scope without an id names the organization acted in. */
export function importRowEntry(row: Pick<UserImportRow, 'ObjectType' | 'ObjectId' | 'Permissions'>, organizationId: string): PermissionEntry {
  const id = row.ObjectId?.trim() ?? '';
  return {
    ObjectType: row.ObjectType,
    ObjectId: id === '' ? (row.ObjectType === 'Organization' ? organizationId : null) : id.toLowerCase(),
    Permissions: Object.fromEntries(Object.entries(row.Permissions).filter(([, v]) => v !== undefined)),
  };
}

export type ImportRowError = { field: string; error: FormError };

/**
 * What can be said of each row without the server's data, in the order of the rows: the invite
 * form's rule for the address, a name no longer than a name may be, the object id a GUID (required
 * below Organization scope), section 6 for the entry, and an address once in the file (a repeat
 * names the row that has it first). The import dialog shows them before sending; the server holds
 * every row to them before it invites (and then to what only it knows: the organization's objects,
 * its members).
 */
export function userImportRowErrors(rows: ReadonlyArray<Pick<UserImportRow, 'Email' | 'Name' | 'ObjectType' | 'ObjectId' | 'Permissions' | 'RowNumber'>>, organizationId: string): ImportRowError[][] {
  const firstRow = new Map<string, number>();
  return rows.map((row, i) => {
    const out: ImportRowError[] = [];
    const email = invitationFormErrors(row).Email;
    if (email) out.push({ field: 'Email', error: email });
    else {
      const key = row.Email.trim().toLowerCase();
      const first = firstRow.get(key);
      if (first !== undefined) out.push({ field: 'Email', error: formError('invalid', 'domain_user_import_duplicate', { row: first }) });
      else firstRow.set(key, row.RowNumber ?? i + 1);
    }
    if (row.Name !== undefined && row.Name.trim() !== '') {
      const name = validateName(row.Name);
      if (name) out.push({ field: 'Name', error: name });
    }
    const id = validateGuid(row.ObjectId?.trim(), { required: row.ObjectType !== 'Organization' });
    if (id) out.push({ field: 'ObjectId', error: id });
    else for (const { path, error } of permissionEntryErrors([importRowEntry(row, organizationId)])) out.push({ field: path.replace(/^0\./, '') || 'Permissions', error });
    return out;
  });
}

export const importUsers = {
  method: 'post',
  path: '/internal/users/import/bulk',
  tags,
  summary: 'Invites the rows of a user file (CSV read by the client), each row on its own, and answers the per-row report',
  description: `Manage-user access at organization scope. At most ${USER_IMPORT_MAX_ROWS} rows (more, or none: a 400 naming Rows). A row that fails (the address, section 6, an object of another organization or not seen, an address twice in the file, the invitation limits) is reported with its fields and messages, as POST /v1/users/invitation says them; the other rows are invited. The report is kept as the organization's latest (GET …/report)`,
  request: { body: jsonBody(UserImportRequest) },
  responses: { ...mailLinkErrors, 200: jsonContent(UserImportReport, 'The report: one result per row, in the order of Rows'), ...writeErrors },
} as const satisfies RouteConfig;

export const getUserImportReport = {
  method: 'get',
  path: '/internal/users/import/bulk/report',
  tags,
  summary: 'The report of the organization’s latest bulk user import',
  description: 'Manage-user access at organization scope. No import yet: 404',
  responses: { 200: jsonContent(UserImportReport, 'The latest report'), ...errors },
} as const satisfies RouteConfig;
