// The sync engine's bookkeeping that screens watch (the cursor, the first download's progress),
// apart from sync-store.ts: that module applies pulls and push results and so loads the mutation
// registry and every mutation's code, which the first screen (the login, whose sync badge watches
// the first download) has no use for: it cost the login screen 7.5 KB of gzip JS (bench:app A/B).
import { currentOrganization, liveQuery, type CastawayDb, type FirstSync } from './db.ts';
import type { PullResponse } from '../protocol/sync.ts';

export async function getCursor(d: CastawayDb): Promise<string | null> {
  const row = await d.syncState.get('cursor');
  return row && row.key === 'cursor' ? row.value : null;
}

/** The first download's progress as stored (undefined: none recorded, the store is whole). */
export async function readFirstSync(d: CastawayDb): Promise<FirstSync | undefined> {
  const row = await d.syncState.get('firstSync');
  return row?.key === 'firstSync' ? row.value : undefined;
}

/**
 * Whether the store holds only part of its organization, as the screens and the badge say it: the
 * recorded first download, or (none recorded yet) an organization chosen for sync whose first
 * page has not arrived: nothing is downloaded, and nothing is "saved" yet either. Null: whole, or
 * no organization syncing.
 */
export async function firstSyncState(d: CastawayDb): Promise<FirstSync | null> {
  return d.transaction('r', d.syncState, async () => {
    const recorded = await readFirstSync(d);
    if (recorded) return recorded;
    const [cursor, organizationId] = await Promise.all([getCursor(d), currentOrganization(d)]);
    return cursor === null && organizationId !== null ? { received: 0, total: null, done: false } : null;
  });
}

/** Calls `listener` with firstSyncState now and after every change of it; returns the unsubscribe. */
export function watchFirstSync(d: CastawayDb, listener: (state: FirstSync | null) => void): () => void {
  const subscription = liveQuery(() => firstSyncState(d)).subscribe({ next: listener, error: () => listener(null) });
  return () => subscription.unsubscribe();
}

/**
 * The first download's progress once `page` is stored (undefined: nothing to record). A page that
 * starts a pull from the start (the server's `total` is on it, or a rebuild, or the first page of
 * a device's first pull from a server that sends no total) starts the count; the pages after it,
 * in this pull or, after a reload, in the next one, add to it until a page says there is no more.
 */
export function firstSyncAfter(before: FirstSync | undefined, page: Pick<PullResponse, 'rows' | 'hasMore' | 'rebuild' | 'total'>, initial: boolean): FirstSync | undefined {
  const starts = page.total !== undefined || page.rebuild || (initial && (before === undefined || before.done));
  if (starts) return { received: page.rows.length, total: page.total ?? null, done: !page.hasMore };
  if (before && !before.done) return { ...before, received: before.received + page.rows.length, done: !page.hasMore };
  return undefined;
}

