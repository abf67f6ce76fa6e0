// Apple Podcasts Subscriptions settings (issue 33; specification section 7: PUT JSON, GET and
// DELETE apple-premium at the organization's /v1/settings, a network's and a program's settings;
// the program's GET takes `inherit`). Rules and inheritance: src/domain/apple-premium.ts; served by
// sync-server/api/apple-premium.ts. Each level's values
// are kept on the level's row (synced to devices and changed offline through the named mutations
// organization/network/program.setApplePremium); the ETag and If-Match are the row's.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { APPLE_EARLY_ACCESS_HOURS_MAX, APPLE_NUMERIC_ID_MAX_DIGITS, APPLE_PREMIUM_FIELDS, APPLE_PROVIDER_ID_MAX_LENGTH, type ApplePremiumLevel } from '../../domain/apple-premium.ts';
import { BoolQuery, errors, idParams, IfMatchHeader, jsonBody, jsonContent, noContent, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Settings'];
const inherited = 'null: not set at this level (inherited)';

const Values = {
  Enabled: z.boolean().nullable().meta({ description: `Deliver premium episodes to Apple Podcasts Subscriptions; ${inherited}` }),
  ProviderId: z
    .string()
    .max(1000)
    .nullable()
    .meta({ description: `The Apple Podcasts Connect provider ID of the account that delegated delivery to the studio (letters, digits, . _ -; at most ${APPLE_PROVIDER_ID_MAX_LENGTH}); ${inherited}` }),
  ChannelId: z.string().max(1000).nullable().meta({ description: `The Apple subscription channel’s numeric ID (at most ${APPLE_NUMERIC_ID_MAX_DIGITS} digits); ${inherited}` }),
  ShowId: z
    .string()
    .max(1000)
    .nullable()
    .meta({ description: `The show’s Apple Podcasts ID, digits or its podcasts.apple.com address (a program’s only: elsewhere a 400 at ShowId); ${inherited}` }),
  DeliverAdFree: z.boolean().nullable().meta({ description: `Subscribers get the ad-free version of each episode; ${inherited}` }),
  EarlyAccessHours: z.number().nullable().meta({ description: `Hours before everyone else that subscribers get an episode, a whole number 0–${APPLE_EARLY_ACCESS_HOURS_MAX}; ${inherited}` }),
};

const Sources = z
  .object(Object.fromEntries(APPLE_PREMIUM_FIELDS.map((f) => [f, z.enum(['Organization', 'Network', 'Program', 'Default'])])) as Record<(typeof APPLE_PREMIUM_FIELDS)[number], z.ZodEnum<{ Organization: 'Organization'; Network: 'Network'; Program: 'Program'; Default: 'Default' }>>)
  .meta({ description: 'Whose value each field is (Default: no level sets it)' });

export const ApplePremiumPut = z
  .object({
    Enabled: Values.Enabled.optional(),
    ProviderId: Values.ProviderId.optional(),
    ChannelId: Values.ChannelId.optional(),
    ShowId: Values.ShowId.optional(),
    DeliverAdFree: Values.DeliverAdFree.optional(),
    EarlyAccessHours: Values.EarlyAccessHours.optional(),
  })
  .strict()
  .meta({ id: 'ApplePremiumPut', description: 'The level’s values, all of them: a field left out is not set here (inherited)' });
export type ApplePremiumPut = z.infer<typeof ApplePremiumPut>;

export const ApplePremiumSettings = z
  .object({
    Level: z.enum(['Organization', 'Network', 'Program']),
    ...Values,
    ModifiedAtUtc: z.string().meta({ description: 'The level’s row’s (organization, network or program): the ETag, and the base If-Match names' }),
    Sources: Sources.optional().meta({ description: 'With inherit=true: whose value each field is; the values are then those in effect' }),
  })
  .meta({ id: 'ApplePremiumSettings' });
export type ApplePremiumSettings = z.infer<typeof ApplePremiumSettings>;

const ACCESS: Record<ApplePremiumLevel, string> = {
  Organization: 'Read: HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope; write: HasManageOrganizationSettingsAccess at organization scope',
  Network: 'Read: HasContentAccess with HasAuditAccess or HasManageSettingsAccess on the network; write: HasContentAccess and HasManageSettingsAccess on the network. A network the caller does not see is a 404',
  Program: 'Read: HasContentAccess with HasAuditAccess or HasManageSettingsAccess on the program; write: HasContentAccess and HasManageSettingsAccess on the program. A program the caller does not see is a 404',
};

/** The three calls of one level: `where` is its path parameters (none for the organization's),
 *  `query` what its GET takes besides. */
function applePremiumRoutes<W extends object, Q extends object>(level: ApplePremiumLevel, prefix: string, where: W, query: Q) {
  const path = `${prefix}/settings/apple-premium`;
  const noun = level === 'Organization' ? 'the organization' : `a ${level.toLowerCase()}`;
  return {
    get: {
      method: 'get',
      path,
      tags,
      summary: `Apple Podcasts Subscriptions settings of ${noun}${level === 'Program' ? ' (its own, or with inherit=true those in effect)' : ''}`,
      description: `${ACCESS[level]}. Never set: every field null.`,
      request: { ...where, ...query },
      responses: { 200: jsonContent(ApplePremiumSettings, 'The settings'), ...errors },
    } as const satisfies RouteConfig,
    put: {
      method: 'put',
      path,
      tags,
      summary: `Sets the Apple Podcasts Subscriptions settings of ${noun}, all of its values at once (mutation ${level.toLowerCase()}.setApplePremium)`,
      description:
        `${ACCESS[level]}. Each field’s problem is a 400 at its name; switched on (Enabled in effect) without a provider ID in effect, a 400 at ProviderId` +
        `${level === 'Program' ? ', and without the program’s ShowId a 400 at ShowId' : ''}. If-Match: the ModifiedAtUtc the change was made on (a stale one is a 412 with the settings).`,
      request: { ...where, headers: IfMatchHeader, body: jsonBody(ApplePremiumPut) },
      responses: { 200: jsonContent(ApplePremiumSettings, 'The settings as saved'), ...writeErrors, ...preconditionFailed(ApplePremiumSettings) },
    } as const satisfies RouteConfig,
    delete: {
      method: 'delete',
      path,
      tags,
      summary: `Drops the Apple Podcasts Subscriptions settings of ${noun}: ${level === 'Organization' ? 'off, with the defaults' : 'it inherits every field again'}`,
      description: `${ACCESS[level]}. Nothing set is also a 204 (mutation ${level.toLowerCase()}.setApplePremium with null).`,
      request: { ...where, headers: IfMatchHeader },
      responses: { 204: noContent, ...errors, ...preconditionFailed(ApplePremiumSettings) },
    } as const satisfies RouteConfig,
  };
}

const InheritQuery = z.object({
  inherit: BoolQuery.meta({ description: 'true: the values in effect, inherited field by field from the network and the organization, with Sources' }),
});

export const organizationApplePremium = applePremiumRoutes('Organization', '/v1', {}, {});
export const networkApplePremium = applePremiumRoutes('Network', '/v1/networks/{networkId}', { params: idParams('networkId') }, {});
export const programApplePremium = applePremiumRoutes('Program', '/v1/programs/{programId}', { params: idParams('programId') }, { query: InheritQuery });
