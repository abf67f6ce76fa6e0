// A component test's sync engine and connection, against the real server (tests/page-on-app.ts):
// the device's outbox pushed as the sync worker pushes it and the answers applied to the local
// database; the browser's connection turned off and on as the page hears it. Load it after the DOM
// (tests/happy-page.ts): React and the local database load on first use.
import { expect } from 'vitest';
import { SYNC_PROTOCOL_VERSION } from '../src/protocol/sync.ts';
import { settle } from './page-on-app.ts';

type Api = (path: string, init?: RequestInit) => Response | Promise<Response>;

/** What the sync engine does with the outbox: pushes it (through `api`, signed in) and applies the answers. */
export async function flushOutbox(api: Api): Promise<void> {
  const { act } = await import('react');
  const { db } = await import('../src/db/db.ts');
  const { applyPushResults, readBatch } = await import('../src/db/sync-store.ts');
  const batch = await readBatch(db, 50);
  if (batch.length === 0) return;
  const mutations = batch.map(({ id, name, args, base, createdAt }) => ({ id, name, args, base, createdAt }));
  const res = await api('/api/sync/push', { method: 'POST', body: JSON.stringify({ protocolVersion: SYNC_PROTOCOL_VERSION, clientId: crypto.randomUUID(), mutations }) });
  expect(res.status).toBe(200);
  const { results } = (await res.json()) as { results: Parameters<typeof applyPushResults>[1] };
  await act(async () => void (await applyPushResults(db, results, batch)));
  await settle(300);
}

/** The connection as the page hears it (navigator.onLine and the window's online/offline event). */
export async function setOnline(online: boolean): Promise<void> {
  const { act } = await import('react');
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  await act(async () => window.dispatchEvent(new Event(online ? 'online' : 'offline')));
  await settle(200);
}
