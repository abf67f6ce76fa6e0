// Wire shapes of GET /api/v1/reference-data/* (specification section 3, "Reference data"):
// each call answers a JSON array of these; the same for every organization.
import * as z from 'zod';

export const LanguageSchema = z.object({
  /** ISO 639-1, lower case: 'de'. */
  Code: z.string().regex(/^[a-z]{2}$/),
  Name: z.string().min(1),
});
export type Language = z.infer<typeof LanguageSchema>;

export const CountrySchema = z.object({
  /** ISO 3166-1 alpha-2, upper case: 'BR'. */
  Code: z.string().regex(/^[A-Z]{2}$/),
  Name: z.string().min(1),
});
export type Country = z.infer<typeof CountrySchema>;

export const TimeZoneSchema = z.object({
  IanaId: z.string().min(1),
  DisplayName: z.string().min(1),
  UtcOffsetMinutes: z.number().int().min(-12 * 60).max(14 * 60),
  UtcOffset: z.string().regex(/^[+-]\d{2}:\d{2}$/),
});
export type TimeZone = z.infer<typeof TimeZoneSchema>;

export const PodcastSubcategorySchema = z.object({ Id: z.string().min(1), Name: z.string().min(1) });
export const PodcastCategorySchema = z.object({
  Id: z.string().min(1),
  /** The exact <itunes:category text="…"> of an RSS feed. */
  Name: z.string().min(1),
  Subcategories: z.array(PodcastSubcategorySchema),
});
export type PodcastCategory = z.infer<typeof PodcastCategorySchema>;

export const NormalizationPresetSchema = z.object({
  Id: z.string().min(1),
  Name: z.string().min(1),
  Description: z.string(),
  /** LUFS */
  IntegratedLoudness: z.number().max(0),
  /** dBTP */
  TruePeak: z.number().max(0),
  /** LU */
  LoudnessRange: z.number().positive(),
});
export type NormalizationPreset = z.infer<typeof NormalizationPresetSchema>;

export const LanguagesResponseSchema = z.array(LanguageSchema);
export const CountriesResponseSchema = z.array(CountrySchema);
export const TimeZonesResponseSchema = z.array(TimeZoneSchema);
export const PodcastCategoriesResponseSchema = z.array(PodcastCategorySchema);
export const NormalizationPresetsResponseSchema = z.array(NormalizationPresetSchema);
