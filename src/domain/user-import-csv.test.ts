import { describe, expect, it } from 'vitest';
import { importableRows, readUserImportCsv, userImportTemplate, FLAG_COLUMNS } from './user-import-csv.ts';

const ORG = '00000000-0000-4000-8000-0000000000aa';
const PROGRAM = '00000000-0000-4000-8000-0000000000bb';
const messages = (file: ReturnType<typeof readUserImportCsv>) => file.lines.map((l) => [l.rowNumber, l.cells.map((c) => c.field), l.errors.map((e) => `${e.field}:${e.error.message ?? e.error.type}`)]);

describe('readUserImportCsv', () => {
  it('reads the columns in any order and case, flags from yes/true/1/x, and numbers rows as the file has them', () => {
    const file = readUserImportCsv(
      `Scope,EMAIL,Name,object_id,HasContentAccess,hasmanagesettingsaccess\r\nProgram,ana@example.com,Ana Ortiz,${PROGRAM},Yes,1\r\n,,,,,\r\norganization,ben@example.com,,,true,no\r\n`,
      ORG,
    );
    expect(file.problems).toEqual([]);
    expect(messages(file)).toEqual([
      [1, [], []],
      [3, [], []],
    ]);
    expect(importableRows(file)).toEqual([
      { Email: 'ana@example.com', Name: 'Ana Ortiz', ObjectType: 'Program', ObjectId: PROGRAM, Permissions: { HasContentAccess: true, HasManageSettingsAccess: true }, RowNumber: 1 },
      { Email: 'ben@example.com', ObjectType: 'Organization', Permissions: { HasContentAccess: true }, RowNumber: 3 },
    ]);
  });

  it('says what each row gets wrong with the rules the server holds it to, and leaves those rows out', () => {
    const file = readUserImportCsv(
      [
        'email,scope,objectId,HasContentAccess,HasManageOrganizationSettingsAccess',
        `ok@example.com,Program,${PROGRAM},yes,`,
        'not an address,Organization,,yes,',
        'OK@example.com,Organization,,yes,',
        `flag@example.com,Program,${PROGRAM},yes,yes`,
        'noid@example.com,Network,,yes,',
        'scope@example.com,Everywhere,,yes,',
        `value@example.com,Program,${PROGRAM},maybe,`,
      ].join('\n'),
      ORG,
    );
    expect(messages(file)).toEqual([
      [1, [], []],
      [2, [], ['Email:domain_email_invalid']],
      [3, [], ['Email:domain_user_import_duplicate']],
      [4, [], ['Permissions.HasManageOrganizationSettingsAccess:domain_permissions_organization_only']],
      [5, [], ['ObjectId:domain_required']],
      [6, ['ObjectType'], []],
      [7, ['Permissions.HasContentAccess'], []],
    ]);
    expect(file.lines[2]!.errors[0]!.error.params).toEqual({ row: 1 });
    expect(importableRows(file).map((r) => r.RowNumber)).toEqual([1]);
  });

  it('refuses a file without an email column, with an unknown or repeated column, or with no rows', () => {
    expect(readUserImportCsv('name,scope\nAna,Program', ORG).problems).toEqual([{ kind: 'noEmailColumn' }]);
    expect(readUserImportCsv('email,scope,HasContentAcess\nx@example.com,Program,yes', ORG).problems).toEqual([{ kind: 'unknownColumn', column: 'HasContentAcess' }]);
    expect(readUserImportCsv('email,Email,scope\n', ORG).problems).toEqual([{ kind: 'repeatedColumn', column: 'email' }]);
    expect(readUserImportCsv('email,scope\n\n', ORG).problems).toEqual([{ kind: 'noRows' }]);
    expect(readUserImportCsv('', ORG).problems).toEqual([{ kind: 'noRows' }]);
    const broken = readUserImportCsv('email,scope,Bogus\nx@example.com,Program', ORG);
    expect(importableRows(broken)).toEqual([]);
  });
});

describe('userImportTemplate', () => {
  it('is a file the import reads back without a problem (given the objects it names)', () => {
    const text = userImportTemplate({ networkId: PROGRAM.replace('bb', 'cc'), programId: PROGRAM });
    expect(text.split('\r\n')[0]).toBe(['email', 'name', 'scope', 'objectId', ...FLAG_COLUMNS].join(','));
    const file = readUserImportCsv(text, ORG);
    expect(file.problems).toEqual([]);
    expect(importableRows(file)).toHaveLength(3);
  });
});
