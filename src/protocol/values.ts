// Value sets of section 3 as plain constants. src/protocol/entities.ts builds its zod enums from
// them, and code on the first screens (src/domain/clip.ts, through the organization home) reads
// them without loading zod, which is 25 KB gzip of a screen that parses nothing.
export const VISIBILITY_VALUES = ['Private', 'Public', 'Restricted', 'Unlisted'] as const;
export const CLIP_STATE_VALUES = ['AudioUploaded', 'None', 'Processing', 'Draft', 'Error', 'Ready', 'Warning'] as const;
export const PUBLISH_STATE_VALUES = ['Published', 'Unpublished', 'Publishing', 'Unpublishing'] as const;

/** The values as constants by name, as a zod enum's `.enum` gives them. */
export function byName<const T extends string>(values: readonly T[]): { readonly [K in T]: K } {
  return Object.fromEntries(values.map((value) => [value, value])) as { readonly [K in T]: K };
}
