// The analytics views last loaded on this device (issue 30, "Offline"), so a screen shows its
// numbers at once, and offline, with the time they were fetched. Its own small database like the
// user-name cache: the synced store (db.ts) is rebuilt from pulls, these answers come from the
// analytics API. A view is kept per user, organization and query (one user's numbers are never
// shown to another on a shared device), and only the MAX_KEPT_VIEWS most recently loaded are
// kept, so the database stays small however many ranges are looked at.
import { Dexie, type EntityTable } from 'dexie';

export const ANALYTICS_DB_NAME = 'castaway-analytics';
export const MAX_KEPT_VIEWS = 50;

export type KeptView = {
  /** analyticsViewKey(userId, organizationId, query). */
  key: string;
  userId: string;
  organizationId: string;
  /** The view's answers as the screen composed them (JSON-safe). */
  data: unknown;
  /** When the answers were fetched (ms since the epoch): the screen's "As of {time}". */
  fetchedAt: number;
};

type AnalyticsDb = Dexie & { views: EntityTable<KeptView, 'key'> };

function openAnalyticsDb(): AnalyticsDb {
  const d = new Dexie(ANALYTICS_DB_NAME) as AnalyticsDb;
  d.version(1).stores({ views: 'key, fetchedAt, [userId+organizationId]' });
  return d;
}

export const analyticsDb: AnalyticsDb = openAnalyticsDb();

/**
 * The key of one view: the user, the organization and the query's own fields in a fixed order
 * (sorted names), so the same question asked from another screen or with its parameters in
 * another order finds the same kept answer. Ids are compared without letter case.
 */
export function analyticsViewKey(userId: string, organizationId: string, query: Readonly<Record<string, string | number | null | undefined>>): string {
  const fields = Object.keys(query)
    .filter((k) => query[k] !== undefined && query[k] !== null)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(query[k]))}`);
  return [userId.toLowerCase(), organizationId.toLowerCase(), fields.join('&')].join('|');
}

export async function keptView(key: string): Promise<KeptView | undefined> {
  return analyticsDb.views.get(key);
}

/** Keeps a view (replacing its older answer) and forgets the oldest beyond MAX_KEPT_VIEWS. */
export async function keepView(view: KeptView, max = MAX_KEPT_VIEWS): Promise<void> {
  await analyticsDb.transaction('rw', analyticsDb.views, async () => {
    await analyticsDb.views.put(view);
    const count = await analyticsDb.views.count();
    if (count > max) {
      const oldest = await analyticsDb.views.orderBy('fetchedAt').limit(count - max).primaryKeys();
      await analyticsDb.views.bulkDelete(oldest);
    }
  });
}
