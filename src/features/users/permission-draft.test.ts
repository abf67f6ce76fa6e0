import { describe, expect, it } from 'vitest';
import { objectFlagErrors, objectFlagKey } from './permission-draft.ts';

const morning = { kind: 'program', programId: 'p1', networkId: 'n1' } as const;

describe('one program’s flags for a member', () => {
  it('an organization-only flag is refused at that flag; a mixed scope under the flags', () => {
    expect(Object.keys(objectFlagErrors([], morning, { HasContentAccess: true }))).toEqual([]);
    expect(Object.keys(objectFlagErrors([], morning, { HasContentAccess: true, HasManageOrganizationSettingsAccess: true }))).toEqual(['HasManageOrganizationSettingsAccess']);
    const network = [{ ObjectType: 'Network' as const, ObjectId: 'n2', Permissions: { HasContentAccess: true } }];
    expect(Object.keys(objectFlagErrors(network, morning, { HasContentAccess: true }))).toEqual(['form']);
  });

  it('the server’s fields land at the flag they name, or under the flags', () => {
    expect(objectFlagKey('2.Permissions.HasManageOrganizationSettingsAccess')).toBe('HasManageOrganizationSettingsAccess');
    expect(objectFlagKey('body')).toBe('form');
    expect(objectFlagKey('0.ObjectId')).toBe('form');
    expect(objectFlagKey('0.Permissions.NotAFlag')).toBe('form');
  });
});
