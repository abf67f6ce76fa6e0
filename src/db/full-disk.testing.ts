// For tests: a local store whose writes the "disk" refuses while `full.now` (a Dexie middleware
// that rejects every write with the QuotaExceededError a browser over its quota gives).
import type { Dexie } from 'dexie';

export function refuseWritesWhileFull<D extends Dexie>(d: D, tables?: readonly string[]): { full: { now: boolean } } {
  const full = { now: false };
  d.use({
    stack: 'dbcore',
    name: 'disk-full',
    create: (down) => ({
      ...down,
      table: (name) => {
        const t = down.table(name);
        if (tables && !tables.includes(name)) return t;
        return { ...t, mutate: (req) => (full.now ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : t.mutate(req)) };
      },
    }),
  });
  return { full };
}
