// Apple Podcasts Subscriptions settings at the organization, a network and a program
// (src/protocol/api/apple-premium.ts; rules: src/domain/apple-premium.ts).
//
// Each level's values are kept on its own row (ApplePremium on the organization's, the network's
// and the program's), so devices sync them and change them offline through the named mutations
// organization/network/program.setApplePremium (src/mutations/settings.ts). These calls are the
// REST face of the same: PUT and DELETE run the mutation (runRest), so a call and a device's
// queued change are judged alike; the ETag and If-Match are the row's. A program's GET with
// inherit=true reads its network's and the organization's rows too and resolves them field by field.
import type { Context } from 'hono';
import * as routes from '../../src/protocol/api/apple-premium.ts';
import { BoolQuery } from '../../src/protocol/api/common.ts';
import { effectiveApplePremium, EMPTY_APPLE_PREMIUM, type ApplePremiumLevel, type ApplePremiumValues } from '../../src/domain/apple-premium.ts';
import { networkSetApplePremium, organizationSetApplePremium, programSetApplePremium } from '../../src/mutations/settings.ts';
import { getAuth } from '../auth.ts';
import { AppError, notFound } from '../errors.ts';
import { etagOf, ifMatch } from '../http.ts';
import { runRest } from '../mutations/rest.ts';
import { loadRow, type WireRow } from '../rows.ts';
import { guarded, resourceApp } from './route.ts';
import { OBJECT_AT, settingsGuard } from './settings.ts';
import { withFeature } from '../billing/entitlements.ts';

const ENTITY = { Organization: 'organization', Network: 'network', Program: 'program' } as const;

const valuesOf = (row: WireRow | null): ApplePremiumValues | null => (row?.['ApplePremium'] as ApplePremiumValues | null | undefined) ?? null;

const answer = (level: ApplePremiumLevel, row: WireRow): routes.ApplePremiumSettings => ({ Level: level, ...(valuesOf(row) ?? EMPTY_APPLE_PREMIUM), ModifiedAtUtc: row.ModifiedAtUtc });

async function rowAt(c: Context, level: ApplePremiumLevel, id: string): Promise<WireRow | null> {
  const row = await loadRow(c.get('deps').store, ENTITY[level], getAuth(c).organizationId, id);
  return row && !row.Deleted ? row : null;
}

/** The PUT's body as the level's values: a field left out is not set here. */
const sentValues = (body: routes.ApplePremiumPut): ApplePremiumValues => ({
  Enabled: body.Enabled ?? null,
  ProviderId: body.ProviderId ?? null,
  ChannelId: body.ChannelId ?? null,
  ShowId: body.ShowId ?? null,
  DeliverAdFree: body.DeliverAdFree ?? null,
  EarlyAccessHours: body.EarlyAccessHours ?? null,
});

/** The mutation's 412 (the row as it now is) answered as these settings. */
function asPrecondition(level: ApplePremiumLevel, err: unknown): unknown {
  return err instanceof AppError && err.status === 412 && err.body ? new AppError(412, answer(level, err.body as WireRow), err.headers) : err;
}

function levelRoutes(level: ApplePremiumLevel, declared: typeof routes.organizationApplePremium | typeof routes.networkApplePremium | typeof routes.programApplePremium) {
  const run = async (c: Context, values: ApplePremiumValues | null): Promise<WireRow> => {
    const id = OBJECT_AT[level](c);
    const expected = ifMatch(c);
    try {
      if (level === 'Organization') return await runRest(c, organizationSetApplePremium, { organizationId: id, ApplePremium: values }, expected);
      if (level === 'Network') return await runRest(c, networkSetApplePremium, { networkId: id, ApplePremium: values }, expected);
      return await runRest(c, programSetApplePremium, { programId: id, ApplePremium: values }, expected);
    } catch (err) {
      throw asPrecondition(level, err);
    }
  };
  return resourceApp()
    .openapi(guarded(declared.get, settingsGuard(level, 'read')), async (c) => {
      const row = await rowAt(c, level, OBJECT_AT[level](c));
      if (!row) throw notFound();
      const own = answer(level, row);
      c.header('ETag', etagOf(row));
      // Only a program's GET declares `inherit` (validated there: a bad value is a 400 at inherit).
      if (level !== 'Program' || BoolQuery.parse(c.req.query('inherit')) !== true) return c.json(own, 200);
      const organizationId = getAuth(c).organizationId;
      const networkId = (row['NetworkId'] as string | null | undefined) ?? null;
      const { values, sources } = effectiveApplePremium({
        Organization: valuesOf(await rowAt(c, 'Organization', organizationId)),
        Network: networkId ? valuesOf(await rowAt(c, 'Network', networkId)) : null,
        Program: valuesOf(row),
      });
      return c.json({ ...own, ...values, Sources: sources }, 200);
    })
    // Setting values needs the plan's apple-premium (the mutation checks it too, for devices' edits);
    // reading and clearing them do not.
    .openapi(guarded(declared.put, withFeature(settingsGuard(level, 'write'), 'apple-premium')), async (c) => {
      const row = await run(c, sentValues(c.req.valid('json') as routes.ApplePremiumPut));
      c.header('ETag', etagOf(row));
      return c.json(answer(level, row), 200);
    })
    .openapi(guarded(declared.delete, settingsGuard(level, 'write')), async (c) => {
      const row = await run(c, null);
      c.header('ETag', etagOf(row));
      return c.body(null, 204);
    });
}

export function applePremiumRoutes() {
  return resourceApp()
    .route('/', levelRoutes('Organization', routes.organizationApplePremium))
    .route('/', levelRoutes('Network', routes.networkApplePremium))
    .route('/', levelRoutes('Program', routes.programApplePremium));
}
