// Reference data, specification section 7 "Billing, subscription, imports, config, demo,
// reference" (the lists of section 3): the same for every organization, but like every call of the
// API it needs a session or an API key.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { CountrySchema, LanguageSchema, NormalizationPresetSchema, PodcastCategorySchema, TimeZoneSchema } from '../reference.ts';
import { errors, jsonContent } from './common.ts';

/** GET /v1/reference-data/{list}: the whole list, no parameters (so only 401 and 404 can fail). */
function referenceList<L extends string, T extends z.ZodType>(list: L, item: T, summary: string) {
  return {
    method: 'get',
    path: `/v1/reference-data/${list}`,
    tags: ['Reference data'],
    summary,
    responses: { 200: jsonContent(z.array(item), 'The whole list'), 401: errors[401], 404: errors[404] },
  } as const satisfies RouteConfig;
}

export const listLanguages = referenceList('languages', LanguageSchema.meta({ id: 'Language' }), 'The ISO 639-1 languages, by code, with English names');
export const listCountries = referenceList('countries', CountrySchema.meta({ id: 'Country' }), 'The ISO 3166-1 countries, by code, with English names');
export const listTimeZones = referenceList('time-zones', TimeZoneSchema.meta({ id: 'TimeZone' }), 'The IANA time zones with the UTC offset in force now (the server clock)');
export const listPodcastCategories = referenceList(
  'podcast-categories',
  PodcastCategorySchema.meta({ id: 'PodcastCategory' }),
  'The podcast categories of RSS feeds (<itunes:category>), with their subcategories',
);
export const listNormalizationPresets = referenceList(
  'normalization-presets',
  NormalizationPresetSchema.meta({ id: 'NormalizationPreset' }),
  'The loudness normalization presets (LUFS, dBTP, LU)',
);
