// The change bus: every committed write publishes { organizationId, version } AFTER its
// transaction commits (STYLE.md habit 5). The sync endpoints subscribe to poke clients. This is
// the in-process bus; the sync module provides a PostgreSQL LISTEN/NOTIFY one with the same shape.
/** organizationId null: changes of any organization may have been missed (the PostgreSQL bus
 *  after it reconnected), so every connected client is poked to pull. */
export type Change = { organizationId: string | null; version: number };

/** The longest signal payload the buses carry (PostgreSQL's NOTIFY takes under 8000 bytes). */
export const SIGNAL_PAYLOAD_MAX = 7_000;

export interface ChangeBus {
  publish(change: Change): void;
  subscribe(fn: (change: Change) => void): () => void;
  /**
   * A signal on a topic to the subscribers of every instance (their own included), after the
   * commit of what it announces: not a change devices pull, so the sync endpoints never hear it
   * (a live recording's appended peaks: sync-server/audio/live-ingest.ts). Best effort like a
   * poke: a listener that may miss one also reads again on a change of organizationId null (the
   * PostgreSQL bus reconnected) or a timer. `payload`: a short text (under SIGNAL_PAYLOAD_MAX
   * characters, NOTIFY's limit with room to spare) that spares the listener a read.
   */
  signal(topic: string, payload?: string): void;
  onSignal(fn: (topic: string, payload: string) => void): () => void;
}

export function createMemoryBus(): ChangeBus {
  const listeners = new Set<(change: Change) => void>();
  const signalled = new Set<(topic: string, payload: string) => void>();
  return {
    signal(topic, payload = '') {
      for (const fn of [...signalled]) {
        try {
          fn(topic, payload);
        } catch {
          // As publish: one failing listener must not stop the others.
        }
      }
    },
    onSignal(fn) {
      signalled.add(fn);
      return () => signalled.delete(fn);
    },
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

/** Each bus's batch handlers still running (read by organizationChangesHandled). */
const handling = new WeakMap<ChangeBus, Set<Promise<void>>>();

/**
 * Calls `handle` with the organizations whose changes the bus announced, once per turn of the
 * event loop: a push of many mutations is one call, not one per row. null among them: changes of
 * any organization may have been missed (the PostgreSQL bus reconnected). A change announced while
 * `handle` runs schedules a turn of its own. What `handle` fails to do (the store closing) is left
 * to its job's sweep or the next change: the write that announced it has committed already.
 */
export function onOrganizationsChanged(bus: ChangeBus, handle: (organizations: ReadonlySet<string | null>) => Promise<void>): void {
  const pending = new Set<string | null>();
  let scheduled = false;
  const inFlight = handling.get(bus) ?? new Set<Promise<void>>();
  handling.set(bus, inFlight);
  bus.subscribe((change) => {
    pending.add(change.organizationId);
    if (scheduled) return;
    scheduled = true;
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      scheduled = false;
      const organizations = new Set(pending);
      pending.clear();
      try {
        await handle(organizations);
      } catch {
        // Left to the sweep (above).
      } finally {
        inFlight.delete(done);
      }
    });
    inFlight.add(done);
  });
}

/**
 * Resolves when the handlers of the changes announced so far on this bus have run: they run a
 * turn after the announcement, on another connection than the caller's next query, so a test that
 * drains jobs after a write waits for this first, or it can find no job queued yet and stop early.
 */
export async function organizationChangesHandled(bus: ChangeBus): Promise<void> {
  for (;;) {
    const inFlight = handling.get(bus);
    if (!inFlight || inFlight.size === 0) return;
    await Promise.all(inFlight);
  }
}
