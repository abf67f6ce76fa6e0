import { describe, expect, it } from 'vitest';
import { mayReadAudit, mayReadProgramAudit } from './audit.ts';
import { noPermissions, type PermissionEntry } from './permissions.ts';

const program = { Id: '00000000-0000-4000-8000-000000000001', NetworkId: '00000000-0000-4000-8000-0000000000aa' };
const entry = (ObjectType: PermissionEntry['ObjectType'], ObjectId: string, flags: Partial<ReturnType<typeof noPermissions>>): PermissionEntry => ({ ObjectType, ObjectId, Permissions: flags });

describe('who reads the audit trail (section 6: audit needs content access)', () => {
  it('needs audit and content access together', () => {
    expect(mayReadAudit({ ...noPermissions(), HasAuditAccess: true })).toBe(false);
    expect(mayReadAudit({ ...noPermissions(), HasContentAccess: true })).toBe(false);
    expect(mayReadAudit({ ...noPermissions(), HasAuditAccess: true, HasContentAccess: true })).toBe(true);
  });

  it('reads a program’s trail with both flags on the program, its network or the organization, not another program', () => {
    const both = { HasAuditAccess: true, HasContentAccess: true };
    expect(mayReadProgramAudit([entry('Program', program.Id, both)], program)).toBe(true);
    expect(mayReadProgramAudit([entry('Network', program.NetworkId, both)], program)).toBe(true);
    expect(mayReadProgramAudit([entry('Organization', '00000000-0000-4000-8000-0000000000ff', both)], program)).toBe(true);
    expect(mayReadProgramAudit([entry('Program', '00000000-0000-4000-8000-000000000002', both)], program)).toBe(false);
    expect(mayReadProgramAudit([entry('Program', program.Id, { HasContentAccess: true })], program)).toBe(false);
  });
});
