// A user file (CSV) as the bulk import reads it (the users screen's import dialog; the rows then go
// to POST /internal/users/import/bulk: src/protocol/api/user-import.ts).
//
//   email, name, scope, objectId, HasAnalyticsAccess … HasManageUserAccess   (the header: any order, any case)
//   ana@example.com, Ana Ortiz, Program, 3f2c…, yes, , yes, …
//
// A flag is on for yes, y, true, 1 or x (any case), off when empty or no, n, false, 0. What the file
// itself gets wrong (no email column, an unknown column, a scope or a flag value that is none of
// these) is found here; what a row means (the address, section 6, an address twice) is
// userImportRowErrors', the rules the server holds the rows to.
import { parseCsv, toCsv } from './csv.ts';
import { PermissionFlag, type PermissionFlagName, type PermissionFlags, type PermissionObjectType } from './permissions.ts';
import { userImportRowErrors, type ImportRowError, type UserImportRow } from '../protocol/api/user-import.ts';

export const FLAG_COLUMNS = Object.keys(PermissionFlag) as PermissionFlagName[];
export const IMPORT_COLUMNS = ['email', 'name', 'scope', 'objectId', ...FLAG_COLUMNS] as const;

const SCOPES: Record<string, PermissionObjectType> = { organization: 'Organization', network: 'Network', program: 'Program' };
const YES = new Set(['yes', 'y', 'true', '1', 'x']);
const NO = new Set(['', 'no', 'n', 'false', '0']);

/** A problem of the file as written (not of what a row asks): said by the dialog in its words. */
export type FileProblem =
  | { kind: 'noRows' }
  | { kind: 'noEmailColumn' }
  | { kind: 'unknownColumn'; column: string }
  | { kind: 'repeatedColumn'; column: string };

/** A cell the file gets wrong: a scope or a flag value none of the accepted words. */
export type CellProblem = { field: 'ObjectType' | `Permissions.${PermissionFlagName}`; value: string };

export type ImportLine = {
  /** 1 = the first record under the header (blank records count, so the numbers are the file's). */
  rowNumber: number;
  /** The row as the import sends it; null when a cell could not be read. */
  row: UserImportRow | null;
  cells: CellProblem[];
  /** userImportRowErrors of the row, with the other rows of the file. */
  errors: ImportRowError[];
};

export type ImportFile = { problems: FileProblem[]; lines: ImportLine[] };

const fold = (s: string) => s.trim().toLowerCase().replace(/[\s_-]/g, '');
const COLUMN_BY_KEY = new Map<string, (typeof IMPORT_COLUMNS)[number]>(IMPORT_COLUMNS.map((c) => [fold(c), c]));

/** Reads a user file: the header's columns, then one line per non-blank record, each checked. */
export function readUserImportCsv(text: string, organizationId: string): ImportFile {
  const [header, ...records] = parseCsv(text);
  if (!header) return { problems: [{ kind: 'noRows' }], lines: [] };
  const problems: FileProblem[] = [];
  const columns = header.map((name) => {
    const column = COLUMN_BY_KEY.get(fold(name)) ?? null;
    if (column === null && name.trim() !== '') problems.push({ kind: 'unknownColumn', column: name.trim() });
    return column;
  });
  for (const c of IMPORT_COLUMNS) if (columns.filter((x) => x === c).length > 1) problems.push({ kind: 'repeatedColumn', column: c });
  if (!columns.includes('email')) problems.push({ kind: 'noEmailColumn' });
  const drafts = records.flatMap((record, i) => {
    if (record.every((f) => f.trim() === '')) return [];
    const cell = (c: (typeof IMPORT_COLUMNS)[number]) => record[columns.indexOf(c)]?.trim() ?? '';
    const cells: CellProblem[] = [];
    const scope = SCOPES[cell('scope').toLowerCase()];
    if (!scope) cells.push({ field: 'ObjectType', value: cell('scope') });
    const flags: Partial<PermissionFlags> = {};
    for (const flag of FLAG_COLUMNS) {
      const value = cell(flag);
      if (YES.has(value.toLowerCase())) flags[flag] = true;
      else if (!NO.has(value.toLowerCase())) cells.push({ field: `Permissions.${flag}`, value });
    }
    const rowNumber = i + 1;
    const name = cell('name');
    const objectId = cell('objectId');
    const row: UserImportRow | null = scope
      ? { Email: cell('email'), ...(name ? { Name: name } : {}), ObjectType: scope, ...(objectId ? { ObjectId: objectId } : {}), Permissions: flags, RowNumber: rowNumber }
      : null;
    return [{ rowNumber, row, cells }];
  });
  if (drafts.length === 0 && problems.length === 0) problems.push({ kind: 'noRows' });
  // The rows' rules over the rows that could be read, an address twice included.
  const readable = drafts.filter((d) => d.row !== null);
  const errors = userImportRowErrors(readable.map((d) => d.row!), organizationId);
  const errorsOf = new Map(readable.map((d, i) => [d, errors[i]!]));
  return { problems, lines: drafts.map((d) => ({ ...d, errors: errorsOf.get(d) ?? [] })) };
}

/** The lines the import sends: read, and with nothing said against them. */
export function importableRows(file: ImportFile): UserImportRow[] {
  if (file.problems.length > 0) return [];
  return file.lines.flatMap((l) => (l.row && l.cells.length === 0 && l.errors.length === 0 ? [l.row] : []));
}

/** The template the dialog offers: the header and an example row per scope. */
export function userImportTemplate(examples: { networkId?: string | undefined; programId?: string | undefined } = {}): string {
  const flags = (on: PermissionFlagName[]) => FLAG_COLUMNS.map((f) => (on.includes(f) ? 'yes' : 'no'));
  return toCsv([
    [...IMPORT_COLUMNS],
    ['ana.ortiz@example.com', 'Ana Ortiz', 'Organization', '', ...flags(['HasAnalyticsAccess', 'HasAuditAccess', 'HasManageUserAccess'])],
    ['ben.park@example.com', 'Ben Park', 'Network', examples.networkId ?? '', ...flags(['HasContentAccess', 'HasAnalyticsAccess'])],
    ['chloe.martin@example.com', 'Chloé Martin', 'Program', examples.programId ?? '', ...flags(['HasContentAccess', 'HasManageSettingsAccess'])],
  ]);
}
