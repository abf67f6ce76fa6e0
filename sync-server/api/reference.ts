// Reference data (GET /api/v1/reference-data/…): the lists of sync-server/reference, the same for
// every organization; any member may read them.
import * as routes from '../../src/protocol/api/reference.ts';
import { COUNTRIES } from '../reference/countries.ts';
import { LANGUAGES } from '../reference/languages.ts';
import { NORMALIZATION_PRESETS } from '../reference/normalization-presets.ts';
import { PODCAST_CATEGORIES } from '../reference/podcast-categories.ts';
import { timeZonesAt } from '../reference/time-zones.ts';
import { now } from '../app.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

export function referenceDataRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listLanguages, guard.member()), (c) => c.json([...LANGUAGES], 200))
    .openapi(guarded(routes.listCountries, guard.member()), (c) => c.json([...COUNTRIES], 200))
    .openapi(guarded(routes.listTimeZones, guard.member()), (c) => c.json(timeZonesAt(now(c.get('deps'))), 200))
    .openapi(guarded(routes.listPodcastCategories, guard.member()), (c) =>
      c.json(
        PODCAST_CATEGORIES.map((category) => ({ ...category, Subcategories: [...category.Subcategories] })),
        200,
      ),
    )
    .openapi(guarded(routes.listNormalizationPresets, guard.member()), (c) => c.json([...NORMALIZATION_PRESETS], 200));
}
