import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { analyticsDb, analyticsViewKey, keepView, keptView } from './analytics-cache.ts';

const view = (key: string, fetchedAt: number) => ({ key, userId: 'u', organizationId: 'o', data: { Total: fetchedAt }, fetchedAt });

describe('analytics view cache', () => {
  beforeEach(async () => {
    await analyticsDb.views.clear();
  });

  it('keys a view by user, organization and query, whatever the order of its fields', () => {
    const a = analyticsViewKey('U1', 'O1', { level: 'organization', startDate: '2026-01-01', endDate: '2026-01-31', timeZone: 'Europe/Berlin' });
    const b = analyticsViewKey('u1', 'o1', { timeZone: 'Europe/Berlin', endDate: '2026-01-31', startDate: '2026-01-01', level: 'organization' });
    expect(a).toBe(b);
    expect(analyticsViewKey('u2', 'o1', { level: 'organization' })).not.toBe(analyticsViewKey('u1', 'o1', { level: 'organization' }));
    expect(analyticsViewKey('u1', 'o2', { level: 'organization' })).not.toBe(analyticsViewKey('u1', 'o1', { level: 'organization' }));
    expect(analyticsViewKey('u1', 'o1', { timeZone: 'UTC' })).not.toBe(analyticsViewKey('u1', 'o1', { timeZone: 'Europe/Berlin' }));
  });

  it('a field holding the separators cannot make two queries one key', () => {
    expect(analyticsViewKey('u', 'o', { a: 'x&b=y' })).not.toBe(analyticsViewKey('u', 'o', { a: 'x', b: 'y' }));
  });

  it('keeps the newest answer of a view and forgets the oldest views beyond the bound', async () => {
    for (let i = 1; i <= 5; i++) await keepView(view(`k${i}`, i), 3);
    await keepView(view('k3', 10), 3);
    expect((await analyticsDb.views.orderBy('fetchedAt').primaryKeys()).sort()).toEqual(['k3', 'k4', 'k5']);
    expect((await keptView('k3'))?.data).toEqual({ Total: 10 });
    expect(await keptView('k1')).toBeUndefined();
  });
});
