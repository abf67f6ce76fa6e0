// The change bus: every committed write publishes { organizationId, version } AFTER its
// transaction commits (STYLE.md habit 5). The sync endpoints subscribe to poke clients. This is
// the in-process bus; the sync module provides a PostgreSQL LISTEN/NOTIFY one with the same shape.
/** organizationId null: changes of any organization may have been missed (the PostgreSQL bus
 *  after it reconnected), so every connected client is poked to pull. */
export type Change = { organizationId: string | null; version: number };

export interface ChangeBus {
  publish(change: Change): void;
  subscribe(fn: (change: Change) => void): () => void;
}

export function createMemoryBus(): ChangeBus {
  const listeners = new Set<(change: Change) => void>();
  return {
    publish(change) {
      for (const fn of [...listeners]) {
        try {
          fn(change);
        } catch {
          // A failing listener must not stop the others nor the write that already committed.
        }
      }
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
