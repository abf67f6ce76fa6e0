// A named mutation's server run, and the registry the REST routes and the sync push dispatch by
// name. A run receives the mutation's arguments already parsed by its own schema (src/mutations),
// and the base it was made on (REST: If-Match; push: the mutation's base).
import type { MutationDef } from '../../src/mutations/define.ts';
import { MUTATIONS } from '../../src/mutations/registry.ts';
import type { WireRow } from '../rows.ts';
import type { OpStore } from './store.ts';

/** What a run may know of its call beyond its store. (Work that follows a change is a job queued in
 * the change's transaction: sync-server/jobs.) */
export type RunContext = {
  /** The API origin the caller reached (to read the studio's own media URLs, clip.setAudioFromUrl). */
  origin: string;
};

export type ServerRun<A> = (s: OpStore, args: A, expected: string | null, ctx: RunContext) => Promise<WireRow>;

export type ServerMutation = {
  def: MutationDef;
  run: ServerRun<unknown>;
  /** Whether the push may run it inside a batch transaction (BatchStore). A run with effects
   * outside the database runs alone, in a transaction of its own. */
  batchable: boolean;
};

export function serverMutation<N extends string, A>(def: MutationDef<N, A>, run: ServerRun<A>, options: { batchable?: boolean } = {}): ServerMutation {
  return { def: def as unknown as MutationDef, run: run as ServerRun<unknown>, batchable: options.batchable ?? true };
}

/** The runs by mutation name; every named mutation must have one (checked here, at start-up). */
export function mutationRegistry(runs: readonly ServerMutation[]): ReadonlyMap<string, ServerMutation> {
  const byName = new Map(runs.map((r) => [r.def.name, r]));
  const missing = MUTATIONS.filter((d) => !byName.has(d.name)).map((d) => d.name);
  if (missing.length > 0) throw new Error(`named mutations without a server run: ${missing.join(', ')}`);
  return byName;
}

/** An argument's path as a 400 names it: an update's fields by their own names ('Title', as the
 * REST route's body names them), other arguments by theirs ('ClipIds', 'cut.KeptRegions.0'). */
export function argsFieldName(path: readonly PropertyKey[]): string {
  const parts = path.map(String);
  return (parts[0] === 'fields' ? parts.slice(1) : parts).join('.');
}
