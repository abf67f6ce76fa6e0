// Apple Podcasts Subscriptions settings at the organization, a network and a program
// (src/protocol/api/apple-premium.ts; rules: src/domain/apple-premium.ts).
//
// Each level's values are one record kept among the named settings (named_settings: the same
// ETag, If-Match and 412 behaviour, the same guards as /internal/…/settings/{name}), under a name
// those calls cannot address (STORED_NAME fails the setting-name rule), so this record is only
// ever written whole through these calls and their rules. A program's GET with inherit=true reads
// its network's and the organization's records too and resolves them field by field.
import type { Context } from 'hono';
import * as routes from '../../src/protocol/api/apple-premium.ts';
import { BoolQuery } from '../../src/protocol/api/common.ts';
import { applePremiumDeliveryErrors, applePremiumErrors, effectiveApplePremium, EMPTY_APPLE_PREMIUM, parseAppleShowId, type ApplePremiumLevel, type ApplePremiumValues } from '../../src/domain/apple-premium.ts';
import { getAuth } from '../auth.ts';
import { AppError, badRequest, fieldError } from '../errors.ts';
import { checkPrecondition, etagOf, ifMatch } from '../http.ts';
import type { Queryable } from '../store/store.ts';
import { guarded, resourceApp } from './route.ts';
import { KEY_WHERE, keyParams, OBJECT_AT, putSetting, readSetting, settingsGuard, type Key, type SettingRow } from './settings.ts';

/** Not a valid setting name (src/domain/settings.ts): /internal/…/settings/{name} never reaches it. */
const STORED_NAME = '$apple-premium';

const keyAt = (organizationId: string, level: ApplePremiumLevel, objectId: string): Key => ({ organizationId, level, objectId, name: STORED_NAME });
const keyOf = (c: Context, level: ApplePremiumLevel): Key => keyAt(getAuth(c).organizationId, level, OBJECT_AT[level](c));

/** A stored record's values (written only by this module, so whole; a field missing reads as unset). */
function valuesOf(row: SettingRow | null): ApplePremiumValues | null {
  if (!row) return null;
  const stored = (row.value ?? {}) as Partial<ApplePremiumValues>;
  return { ...EMPTY_APPLE_PREMIUM, ...stored };
}

function answer(level: ApplePremiumLevel, row: SettingRow | null): routes.ApplePremiumSettings {
  return { Level: level, ...(valuesOf(row) ?? EMPTY_APPLE_PREMIUM), ModifiedAtUtc: row ? new Date(row.modified_at_utc).toISOString() : null };
}

/** The levels above this one, as stored (a program's network: the one it is in, if any). */
async function levelsAbove(q: Queryable, c: Context, level: ApplePremiumLevel): Promise<{ Organization: ApplePremiumValues | null; Network: ApplePremiumValues | null }> {
  const organizationId = getAuth(c).organizationId;
  const organization = level === 'Organization' ? null : valuesOf(await readSetting(q, keyAt(organizationId, 'Organization', organizationId)));
  const networkId = level === 'Program' ? (c.var.program.network_id as string | null) : null;
  const network = networkId ? valuesOf(await readSetting(q, keyAt(organizationId, 'Network', networkId))) : null;
  return { Organization: organization, Network: network };
}

/** The body as this level's values, each field checked at its name (400). */
function checkedValues(level: ApplePremiumLevel, body: routes.ApplePremiumPut): ApplePremiumValues {
  const values: ApplePremiumValues = {
    Enabled: body.Enabled ?? null,
    ProviderId: body.ProviderId === undefined || body.ProviderId === null ? null : body.ProviderId.trim(),
    ChannelId: body.ChannelId === undefined || body.ChannelId === null ? null : body.ChannelId.trim(),
    ShowId: body.ShowId === undefined || body.ShowId === null ? null : parseAppleShowId(body.ShowId),
    DeliverAdFree: body.DeliverAdFree ?? null,
    EarlyAccessHours: body.EarlyAccessHours ?? null,
  };
  const errors = applePremiumErrors(level, values);
  if (errors.length > 0) throw badRequest(errors.map((e) => fieldError(e.field, e.error)));
  return values;
}

/** The named setting's 412 answered as these settings. */
function asPrecondition(level: ApplePremiumLevel, err: unknown): unknown {
  if (!(err instanceof AppError) || err.status !== 412) return err;
  const body = err.body as { Value?: unknown; ModifiedAtUtc?: string } | undefined;
  if (!body?.ModifiedAtUtc) return err;
  const current = answer(level, { name: STORED_NAME, value: body.Value, modified_at_utc: body.ModifiedAtUtc });
  return new AppError(412, current, { ETag: etagOf({ ModifiedAtUtc: body.ModifiedAtUtc }) });
}

/** The ETag names the level's record; one never set has none. */
function setEtag(c: Context, settings: routes.ApplePremiumSettings): void {
  if (settings.ModifiedAtUtc !== null) c.header('ETag', etagOf({ ModifiedAtUtc: settings.ModifiedAtUtc }));
}

function levelRoutes(level: ApplePremiumLevel, declared: typeof routes.organizationApplePremium) {
  return resourceApp()
    .openapi(guarded(declared.get, settingsGuard(level, 'read')), async (c) => {
      const { store } = c.get('deps');
      const row = await readSetting(store, keyOf(c, level));
      const own = answer(level, row);
      setEtag(c, own);
      // Only a program's GET declares `inherit` (validated there: a bad value is a 400 at inherit).
      const inherit = level === 'Program' && BoolQuery.parse(c.req.query('inherit')) === true;
      if (!inherit) return c.json(own, 200);
      const { values, sources } = effectiveApplePremium({ ...(await levelsAbove(store, c, level)), Program: valuesOf(row) });
      return c.json({ ...own, ...values, Sources: sources }, 200);
    })
    .openapi(guarded(declared.put, settingsGuard(level, 'write')), async (c) => {
      const { store } = c.get('deps');
      const values = checkedValues(level, c.req.valid('json'));
      const above = await levelsAbove(store, c, level);
      const delivery = applePremiumDeliveryErrors(level, effectiveApplePremium({ ...above, Program: null, [level]: values }).values);
      if (delivery.length > 0) throw badRequest(delivery.map((e) => fieldError(e.field, e.error)));
      let saved;
      try {
        saved = await putSetting(c, keyOf(c, level), values, ifMatch(c));
      } catch (err) {
        throw asPrecondition(level, err);
      }
      const settings = answer(level, { name: STORED_NAME, value: saved.Value, modified_at_utc: saved.ModifiedAtUtc });
      setEtag(c, settings);
      return c.json(settings, 200);
    })
    .openapi(guarded(declared.delete, settingsGuard(level, 'write')), async (c) => {
      const k = keyOf(c, level);
      const expected = ifMatch(c);
      await c.get('deps').store.tx(async (q) => {
        const row = await readSetting(q, k, true);
        if (expected !== null) {
          const current = answer(level, row);
          // Gone meanwhile, or changed since it was read: the settings as they now are.
          if (current.ModifiedAtUtc === null) throw new AppError(412, current);
          checkPrecondition(expected, { ...current, ModifiedAtUtc: current.ModifiedAtUtc });
        }
        if (row) await q.query(`DELETE FROM named_settings WHERE ${KEY_WHERE}`, keyParams(k));
      });
      return c.body(null, 204);
    });
}

export function applePremiumRoutes() {
  return resourceApp()
    .route('/', levelRoutes('Organization', routes.organizationApplePremium))
    .route('/', levelRoutes('Network', routes.networkApplePremium))
    .route('/', levelRoutes('Program', routes.programApplePremium));
}
