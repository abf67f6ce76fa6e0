// The studio's configuration for staff (issue 33, the Admin section's "Admin settings"; specification
// section 7: GET /internal/config, /config/{name}, /config/{name}/{id}, /config/organization,
// /config/programs/{id}). Read-only, for admin and support users: the settings the studio runs with
// (never a secret: a password, a token or a connection string is said to be set, never shown), the
// plan catalogue, and the features in effect for an organization and a program, read from its
// subscription (src/domain/billing.ts featuresOf: the one source of them). Served by
// sync-server/api/config.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { FEATURES, PLAN_IDS } from '../../domain/billing.ts';
import { errors, idParams, jsonContent } from './common.ts';

const tags = ['Config'];

export const CONFIG_SECTIONS = ['runtime', 'mail', 'storage', 'transcription', 'caching', 'plans', 'add-ons', 'features'] as const;
export type ConfigSectionName = (typeof CONFIG_SECTIONS)[number];

const ConfigValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
export const ConfigEntry = z.object({ Id: z.string(), Values: z.record(z.string(), ConfigValue) }).meta({ id: 'ConfigEntry' });
export type ConfigEntry = z.infer<typeof ConfigEntry>;

export const ConfigSection = z
  .object({
    Name: z.enum(CONFIG_SECTIONS),
    Values: z.record(z.string(), ConfigValue).meta({ description: 'The section’s settings (secrets only as set or not)' }),
    Entries: z.array(ConfigEntry).meta({ description: 'A catalogue’s entries (plans, add-ons, features), each also at /internal/config/{name}/{id}' }),
  })
  .meta({ id: 'ConfigSection' });
export type ConfigSection = z.infer<typeof ConfigSection>;

export const OrganizationConfig = z
  .object({
    OrganizationId: z.string(),
    Name: z.string(),
    Provider: z.string(),
    IsDemo: z.boolean(),
    Plan: z.enum(PLAN_IDS),
    Features: z.array(z.enum(FEATURES)),
    ProgramId: z.string().nullable(),
    ProgramName: z.string().nullable(),
  })
  .meta({ id: 'OrganizationConfig' });
export type OrganizationConfig = z.infer<typeof OrganizationConfig>;

const staffOnly = { 403: { description: 'The caller is neither admin nor support (no body)' } };
const NameParam = z.object({ name: z.enum(CONFIG_SECTIONS).meta({ param: { name: 'name', in: 'path' } }) });

export const getConfig = {
  method: 'get',
  path: '/internal/config',
  tags,
  summary: 'Every section of the studio’s configuration (admin and support users)',
  responses: { 200: jsonContent(z.object({ Sections: z.array(ConfigSection) }), 'The configuration'), ...errors, ...staffOnly },
} as const satisfies RouteConfig;

export const getConfigSection = {
  method: 'get',
  path: '/internal/config/{name}',
  tags,
  summary: 'One section of the configuration (an unknown name is a 404)',
  request: { params: NameParam },
  responses: { 200: jsonContent(ConfigSection, 'The section'), ...errors, ...staffOnly },
} as const satisfies RouteConfig;

export const getConfigEntry = {
  method: 'get',
  path: '/internal/config/{name}/{id}',
  tags,
  summary: 'One entry of a catalogue section (a plan, an add-on, a feature); anything else is a 404',
  request: { params: NameParam.extend({ id: z.string().max(100).meta({ param: { name: 'id', in: 'path' } }) }) },
  responses: { 200: jsonContent(ConfigEntry, 'The entry'), ...errors, ...staffOnly },
} as const satisfies RouteConfig;

export const getOrganizationConfig = {
  method: 'get',
  path: '/internal/config/organization',
  tags,
  summary: 'The organization’s plan and the features in effect (admin and support users who are members)',
  responses: { 200: jsonContent(OrganizationConfig, 'The organization’s configuration'), ...errors, ...staffOnly },
} as const satisfies RouteConfig;

export const getProgramConfig = {
  method: 'get',
  path: '/internal/config/programs/{programId}',
  tags,
  summary: 'The features in effect for a program (its organization’s)',
  request: { params: idParams('programId') },
  responses: { 200: jsonContent(OrganizationConfig, 'The program’s configuration'), ...errors, ...staffOnly },
} as const satisfies RouteConfig;
