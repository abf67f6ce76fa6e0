// GET /api/v1/reference-data/{languages, countries, time-zones, podcast-categories,
// normalization-presets} (specification section 7, "Billing, subscription, imports, config, demo,
// reference"). Reference data is the same for every organization, but like every API call it
// needs a session (or an API key): requireSession answers 401 otherwise.
import { Hono } from 'hono';
import { requireSession } from '../auth.ts';
import { COUNTRIES } from './countries.ts';
import { LANGUAGES } from './languages.ts';
import { NORMALIZATION_PRESETS } from './normalization-presets.ts';
import { PODCAST_CATEGORIES } from './podcast-categories.ts';
import type {
  Country,
  Language,
  NormalizationPreset,
  PodcastCategory,
  TimeZone,
} from './schemas.ts';
import { timeZonesAt } from './time-zones.ts';

export type ReferenceDataDeps = { clock?: (() => Date) | undefined };

export function referenceDataRoutes(deps: ReferenceDataDeps = {}) {
  const now = deps.clock ?? (() => new Date());
  return new Hono()
    .use('*', requireSession)
    .get('/languages', (c) => c.json<Language[]>([...LANGUAGES]))
    .get('/countries', (c) => c.json<Country[]>([...COUNTRIES]))
    .get('/time-zones', (c) => c.json<TimeZone[]>(timeZonesAt(now())))
    .get('/podcast-categories', (c) =>
      c.json<PodcastCategory[]>(PODCAST_CATEGORIES.map((category) => ({
        ...category,
        Subcategories: [...category.Subcategories],
      }))),
    )
    .get('/normalization-presets', (c) => c.json<NormalizationPreset[]>([...NORMALIZATION_PRESETS]));
}
