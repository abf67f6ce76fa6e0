import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { OrganizationUser } from '../protocol/entities.ts';
import { getUserList, putUserList } from './users-cache.ts';

const user = (n: number): OrganizationUser => ({
  Id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  Name: `User ${n}`,
  FirstName: 'User',
  Email: `user${n}@example.com`,
  ImageUrl: null,
  IsAdmin: false,
  IsAdminOrSupport: false,
  HasResellerAccess: false,
  InterfaceLanguage: 'en-US',
  Activated: true,
  Permissions: [{ ObjectType: 'Program', ObjectId: '00000000-0000-4000-8000-00000000aaaa', Permissions: { HasContentAccess: true } }],
});

describe('the users list kept on the device for offline', () => {
  it('keeps the last list of each organization with its time, replaced whole by the next one', async () => {
    expect(await getUserList('org-a')).toBeUndefined();
    await putUserList('org-a', [user(1), user(2)], 1000);
    await putUserList('org-b', [user(3)], 2000);
    await putUserList('org-a', [user(2)], 3000);
    expect(await getUserList('org-a')).toEqual({ organizationId: 'org-a', fetchedAt: 3000, users: [user(2)] });
    expect((await getUserList('org-b'))?.users.map((u) => u.Email)).toEqual(['user3@example.com']);
  });
});
