// This device's changes of a row's settings made through one named mutation that carries several
// settings at once (program.setSettings, organization.setProgramDefaults: { Monetization?,
// VideoMonetization?, HeadlinerVideos? }), told apart per setting: so a form says "waiting to be
// sent" or "crossed a change made elsewhere" of its own change only, not of another form's.
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../db/db.ts';

export type QueuedBySetting = Record<string, { pending: boolean; conflict: boolean }>;

/** For each key of `settings`, whether a change of it waits in the outbox, and whether one is in conflict. */
export function useQueuedBySetting(entityId: string, name: string, settings: readonly string[]): QueuedBySetting {
  const state = useLiveQuery(async () => {
    const [outbox, conflicts] = await Promise.all([
      db.outbox.where('entityId').equals(entityId).filter((e) => e.name === name).toArray(),
      db.conflicts.where('entityId').equals(entityId).filter((e) => e.mutation.name === name).toArray(),
    ]);
    const names = (args: Record<string, unknown>) => settings.filter((s) => args[s] !== undefined);
    return {
      pending: new Set(outbox.flatMap((e) => names(e.args))),
      conflict: new Set(conflicts.flatMap((e) => names(e.mutation.args))),
    };
  }, [entityId, name, settings.join(',')]);
  return Object.fromEntries(settings.map((s) => [s, { pending: state?.pending.has(s) ?? false, conflict: state?.conflict.has(s) ?? false }]));
}
