// A named mutation called over REST: the route has read its path, body and If-Match; this runs the
// mutation's server run in one transaction on a direct store, exactly as a push would run it, and
// publishes the change after commit.
import type { Context } from 'hono';
import type { MutationDef } from '../../src/mutations/define.ts';
import { getAuth } from '../auth.ts';
import { badRequest, zodFieldErrors } from '../errors.ts';
import { now } from '../app.ts';
import type { WireRow } from '../rows.ts';
import { argsFieldName, type RunContext } from './run.ts';
import { directStore, writeConflictError } from './store.ts';

export async function runRest<A>(c: Context, def: MutationDef<string, A>, args: unknown, expected: string | null): Promise<WireRow> {
  const [row] = await runRestMany(c, def, [args], expected);
  return row!;
}

/**
 * The same mutation on several rows in ONE transaction (PATCH /v1/networks/{id}/programs moves
 * them all or none); the change published once, after commit. `expected` applies to each.
 */
export async function runRestMany<A>(c: Context, def: MutationDef<string, A>, argsList: readonly unknown[], expected: string | null): Promise<WireRow[]> {
  const deps = c.get('deps');
  const run = c.get('mutations').get(def.name);
  if (!run) throw new Error(`no server run for ${def.name}`);
  const parsed = argsList.map((args) => {
    const result = def.args.safeParse(args);
    if (!result.success) throw badRequest(zodFieldErrors(result.error, args, argsFieldName));
    return result.data;
  });
  const auth = getAuth(c);
  const ctx: RunContext = { origin: new URL(c.req.url).origin };
  const write = { organizationId: auth.organizationId, userId: auth.user.Id, now: now(deps), clientId: null };
  let rows: WireRow[];
  try {
    rows = await deps.store.tx(async (q) => {
      const store = directStore(q, auth, write);
      const out: WireRow[] = [];
      for (const args of parsed) out.push(await run.run(store, args, expected, ctx));
      return out;
    });
  } catch (err) {
    throw writeConflictError(err) ?? err;
  }
  if (rows.length > 0) deps.bus.publish({ organizationId: auth.organizationId, version: Math.max(...rows.map((r) => r.Version)) });
  return rows;
}
