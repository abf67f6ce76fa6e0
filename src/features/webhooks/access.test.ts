import { describe, expect, it } from 'vitest';
import type { PermissionEntry } from '../../domain/permissions.ts';
import { webhookAccess } from './access.ts';

const ORG = 'aaaaaaaa-0000-4000-8000-000000000000';
const NEWS = { Id: '11111111-0000-4000-8000-000000000000', Name: 'News' };
const SPORT = { Id: '22222222-0000-4000-8000-000000000000', Name: 'Sport' };
const at = (ObjectType: PermissionEntry['ObjectType'], ObjectId: string, Permissions: PermissionEntry['Permissions']): PermissionEntry => ({ ObjectType, ObjectId, Permissions });

describe('where webhooks may be seen and changed', () => {
  it('manage-organization-settings access at organization scope: every level, written', () => {
    const { levels } = webhookAccess([at('Organization', ORG, { HasManageOrganizationSettingsAccess: true })], [NEWS, SPORT]);
    expect(levels).toEqual([
      { networkId: null, name: '', write: true },
      { networkId: NEWS.Id, name: 'News', write: true },
      { networkId: SPORT.Id, name: 'Sport', write: true },
    ]);
  });

  it('audit access alone reads every level and writes none', () => {
    const { levels } = webhookAccess([at('Organization', ORG, { HasAuditAccess: true })], [NEWS]);
    expect(levels.map((l) => l.write)).toEqual([false, false]);
  });

  it('audit access plus manage-settings on a network writes that network only', () => {
    const { levels } = webhookAccess([at('Organization', ORG, { HasAuditAccess: true, HasManageSettingsAccess: true })], [NEWS]);
    // At organization scope, manage-settings applies to every network: the server's network rule.
    expect(levels).toEqual([
      { networkId: null, name: '', write: false },
      { networkId: NEWS.Id, name: 'News', write: true },
    ]);
  });

  it('network scope: only the networks it manages, and never the organization', () => {
    const { levels } = webhookAccess([at('Network', NEWS.Id, { HasManageSettingsAccess: true, HasAuditAccess: true })], [NEWS, SPORT]);
    expect(levels).toEqual([{ networkId: NEWS.Id, name: 'News', write: true }]);
  });

  it('content access only: nowhere', () => {
    expect(webhookAccess([at('Organization', ORG, { HasContentAccess: true })], [NEWS]).levels).toEqual([]);
  });
});
