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
  const deps = c.get('deps');
  const run = c.get('mutations').get(def.name);
  if (!run) throw new Error(`no server run for ${def.name}`);
  const parsed = def.args.safeParse(args);
  if (!parsed.success) throw badRequest(zodFieldErrors(parsed.error, args, argsFieldName));
  const auth = getAuth(c);
  const ctx: RunContext = { origin: new URL(c.req.url).origin };
  const write = { organizationId: auth.organizationId, userId: auth.user.Id, now: now(deps), clientId: null };
  let row: WireRow;
  try {
    row = await deps.store.tx((q) => run.run(directStore(q, auth, write), parsed.data, expected, ctx));
  } catch (err) {
    throw writeConflictError(err) ?? err;
  }
  deps.bus.publish({ organizationId: auth.organizationId, version: row.Version });
  return row;
}
