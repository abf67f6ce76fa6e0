// A program's settings root and its monetization, video-monetization and headliner-video settings,
// with the organization's defaults they inherit (issue 33; specification section 7: GET and PATCH
// /v1/programs/{programId}/settings, GET and PUT …/settings/monetization, GET
// …/settings/monetization/defaults, GET and PATCH …/settings/video-monetization, GET
// …/settings/headliner-videos). The organization's defaults are read and changed at
// /v1/settings/program-defaults (the studio's own route: the specification names the program's
// calls only). Rules and inheritance: src/domain/monetization.ts; served by
// sync-server/api/program-settings.ts.
//
// Each level's own values are kept on its row (the program's Monetization, VideoMonetization and
// HeadlinerVideos; the organization's MonetizationDefaults, VideoMonetizationDefaults and
// HeadlinerVideoDefaults), so devices sync them and change them offline through the named
// mutations program.setSettings and organization.setProgramDefaults
// (src/mutations/program-settings.ts). ETag and If-Match are the row's ModifiedAtUtc.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { AD_MARKER_TYPES, AD_MAX_ADS } from '../../domain/ad-markers.ts';
import { CPM_CURRENCIES, CPM_FLOOR_MAX, HEADLINER_ASPECT_RATIOS, HEADLINER_MIN_CONTRAST } from '../../domain/monetization.ts';
import { errors, idParams, IfMatchHeader, jsonBody, jsonContent, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Settings'];
const inherited = 'null: not set at this level (inherited)';

// ── Values ───────────────────────────────────────────────────────────────────────────────────

const AdType = z.enum(AD_MARKER_TYPES);
export const AdPositionSchema = z
  .object({ Type: AdType, MaxAds: z.number().meta({ description: `The most ads a break at this position holds, 1–${AD_MAX_ADS} (and no more than the program’s ad-marker rules’ MaxAdsPerBreak)` }) })
  .strict()
  .meta({ id: 'AdPosition' });
export const CpmFloorSchema = z
  .object({
    Amount: z.number().meta({ description: `Per thousand impressions, 0–${CPM_FLOOR_MAX} with at most two decimals; 0: no floor` }),
    Currency: z.string().max(16).meta({ description: `ISO 4217: ${CPM_CURRENCIES.join(', ')}` }),
  })
  .strict()
  .meta({ id: 'CpmFloor' });

const monetizationShape = {
  DynamicAdsEnabled: z.boolean().meta({ description: 'Ads are inserted into the program’s episodes when they are downloaded' }),
  AdPositions: z.array(AdPositionSchema).max(10).meta({ description: 'The positions that may be sold (PreRoll, MidRoll, PostRoll), each at most once; the types of the ad markers' }),
  MemberDownloadsAdFree: z.boolean().meta({ description: 'A new clip’s MemberDownloadsAdFree: members download it without ads' }),
  HouseAdsFallback: z.boolean().meta({ description: 'A break no campaign buys is filled with the organization’s house ads (else left out)' }),
  CpmFloor: CpmFloorSchema.meta({ description: 'The lowest price per thousand impressions sold' }),
};
const videoShape = {
  VideoAdsEnabled: z.boolean().meta({ description: 'Video episodes (MediaType AudioAndVideo) carry ads' }),
  VideoAdPositions: z.array(AdType).max(10).meta({ description: 'Where in a video ads go, each at most once' }),
};
const headlinerShape = {
  AspectRatios: z.array(z.enum(HEADLINER_ASPECT_RATIOS)).max(10).meta({ description: 'The videos made for a clip, one per aspect ratio (at least one, none twice)' }),
  TranscriptEnabled: z.boolean().meta({ description: 'The transcript is burned in as captions (POST /v1/clips/{clipId}/headliner-videos takes it as transcriptEnabled when the call names none)' }),
  BackgroundColor: z.string().max(16).meta({ description: '#RRGGBB behind the waveform and captions', example: '#14213D' }),
  ForegroundColor: z.string().max(16).meta({ description: `#RRGGBB of the waveform and captions, with a contrast of at least ${HEADLINER_MIN_CONTRAST}:1 to the background`, example: '#FCA311' }),
};

type Shape = Record<string, z.ZodType>;
const nullableShape = <S extends Shape>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.nullable().meta({ description: `${(v.meta()?.description as string | undefined) ?? ''}; ${inherited}` })])) as {
    [K in keyof S]: z.ZodNullable<S[K]>;
  };

export const MonetizationValues = z.object(monetizationShape).strict().meta({ id: 'MonetizationValues', description: 'Monetization in effect: every field has a value' });
export const VideoMonetizationValues = z.object(videoShape).strict().meta({ id: 'VideoMonetizationValues' });
export const HeadlinerVideoValues = z.object(headlinerShape).strict().meta({ id: 'HeadlinerVideoValues' });

/** A level's own values: every field present, null where it is inherited (the mutations' args). */
export const MonetizationOwn = z.object(nullableShape(monetizationShape)).strict().meta({ id: 'MonetizationOwn' });
export const VideoMonetizationOwn = z.object(nullableShape(videoShape)).strict().meta({ id: 'VideoMonetizationOwn' });
export const HeadlinerVideoOwn = z.object(nullableShape(headlinerShape)).strict().meta({ id: 'HeadlinerVideoOwn' });

/** A JSON Merge Patch of a level's own values: a field left out is kept, null inherits it again. */
export const MonetizationPatch = MonetizationOwn.partial().meta({ id: 'MonetizationPatch', description: `The fields to change; one left out is kept, ${inherited}` });
export const VideoMonetizationPatch = VideoMonetizationOwn.partial().meta({ id: 'VideoMonetizationPatch', description: `The fields to change; one left out is kept, ${inherited}` });
export const HeadlinerVideoPatch = HeadlinerVideoOwn.partial().meta({ id: 'HeadlinerVideoPatch', description: `The fields to change; one left out is kept, ${inherited}` });

const Source = z.enum(['Program', 'Organization', 'Default']);
const sourcesOf = <S extends Shape>(shape: S) => z.object(Object.fromEntries(Object.keys(shape).map((k) => [k, Source])) as { [K in keyof S]: typeof Source });

/** One setting of a program with its inheritance in view. */
function settingView<S extends Shape, O extends z.ZodType, V extends z.ZodType>(id: string, shape: S, own: O, values: V) {
  return z
    .object({
      Own: own.meta({ description: `The program’s own values; ${inherited}` }),
      Effective: values.meta({ description: 'The values in effect' }),
      Sources: sourcesOf(shape).meta({ description: 'Whose each value in effect is: the program’s, the organization’s default, or the studio’s (Default)' }),
      Inherited: values.meta({ description: 'What the program gets where it sets nothing, and gets back when reset' }),
      InheritedSources: sourcesOf(shape).meta({ description: 'Whose each inherited value is (Organization or Default)' }),
    })
    .meta({ id });
}

export const MonetizationView = settingView('MonetizationView', monetizationShape, MonetizationOwn, MonetizationValues);
export const VideoMonetizationView = settingView('VideoMonetizationView', videoShape, VideoMonetizationOwn, VideoMonetizationValues);
export const HeadlinerVideoView = settingView('HeadlinerVideoView', headlinerShape, HeadlinerVideoOwn, HeadlinerVideoValues);

const rowMeta = {
  ProgramId: z.string(),
  ModifiedAtUtc: z.string().meta({ description: 'The program row’s: the ETag, and the base If-Match names' }),
};

export const ProgramMonetization = z.object({ ...rowMeta, ...MonetizationView.shape }).meta({ id: 'ProgramMonetization' });
export type ProgramMonetization = z.infer<typeof ProgramMonetization>;
export const ProgramVideoMonetization = z.object({ ...rowMeta, ...VideoMonetizationView.shape }).meta({ id: 'ProgramVideoMonetization' });
export type ProgramVideoMonetization = z.infer<typeof ProgramVideoMonetization>;
export const ProgramHeadlinerVideos = z.object({ ...rowMeta, ...HeadlinerVideoView.shape }).meta({ id: 'ProgramHeadlinerVideos' });
export type ProgramHeadlinerVideos = z.infer<typeof ProgramHeadlinerVideos>;

export const MonetizationDefaults = z
  .object({
    OrganizationId: z.string(),
    Values: MonetizationValues.meta({ description: 'What a program that sets nothing gets' }),
    Sources: sourcesOf(monetizationShape).meta({ description: 'Organization: the organization’s default; Default: the studio’s (the organization sets none)' }),
    ModifiedAtUtc: z.string().meta({ description: 'The organization row’s' }),
  })
  .meta({ id: 'MonetizationDefaults' });
export type MonetizationDefaults = z.infer<typeof MonetizationDefaults>;

export const ProgramSettings = z
  .object({
    ...rowMeta,
    Monetization: MonetizationView,
    VideoMonetization: VideoMonetizationView,
    HeadlinerVideos: HeadlinerVideoView,
    Normalization: z
      .object({ PresetId: z.string().nullable(), Source: z.enum(['Program', 'Organization']), OrganizationPresetId: z.string().nullable() })
      .meta({ description: 'Read here; changed at …/settings/normalization' }),
    Recording: z.object({ DeleteRecordingsAfterDays: z.number().nullable() }).meta({ description: 'Read here; changed at …/settings/recording' }),
  })
  .meta({ id: 'ProgramSettings', description: 'The program’s settings, each with what it inherits from the organization and whose each value is' });
export type ProgramSettings = z.infer<typeof ProgramSettings>;

export const ProgramSettingsPatch = z
  .object({
    Monetization: MonetizationPatch.nullable().optional(),
    VideoMonetization: VideoMonetizationPatch.nullable().optional(),
    HeadlinerVideos: HeadlinerVideoPatch.nullable().optional(),
  })
  .strict()
  .meta({ id: 'ProgramSettingsPatch', description: 'A JSON Merge Patch: a setting left out is kept; null drops the program’s own values of it (everything inherited again)' });
export type ProgramSettingsPatch = z.infer<typeof ProgramSettingsPatch>;

export const OrganizationProgramDefaults = z
  .object({
    OrganizationId: z.string(),
    ModifiedAtUtc: z.string().meta({ description: 'The organization row’s: the ETag, and the base If-Match names' }),
    Monetization: z.object({ Own: MonetizationOwn, Effective: MonetizationValues }),
    VideoMonetization: z.object({ Own: VideoMonetizationOwn, Effective: VideoMonetizationValues }),
    HeadlinerVideos: z.object({ Own: HeadlinerVideoOwn, Effective: HeadlinerVideoValues }),
  })
  .meta({ id: 'OrganizationProgramDefaults', description: 'What the organization’s programs inherit: its own values (null: the studio’s default) and those in effect' });
export type OrganizationProgramDefaults = z.infer<typeof OrganizationProgramDefaults>;

// ── Routes ───────────────────────────────────────────────────────────────────────────────────

const ProgramParams = idParams('programId');
const programAccess =
  'Read: a member who sees the program; write: HasContentAccess and HasManageSettingsAccess on the program (section 6). A program the caller does not see is a 404';
const organizationAccess = 'Read: HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope; write: HasManageOrganizationSettingsAccess at organization scope';
const refusals =
  'A field that is not valid is a 400 at its name (for example AdPositions.1.MaxAds, CpmFloor.Currency); dynamic ads (or video ads) in effect with no position a 400 at AdPositions (VideoAdPositions); ' +
  'headliner colours in effect too alike a 400 at the colour set. If-Match: the ModifiedAtUtc the change was made on (a stale one is a 412 with the settings as they are).';

export const getProgramSettings = {
  method: 'get',
  path: '/v1/programs/{programId}/settings',
  tags,
  summary: 'The program’s settings root: monetization, video monetization, headliner videos, normalization and recording, each with its inherited value and source; the ETag names the program',
  description: programAccess,
  request: { params: ProgramParams },
  responses: { 200: jsonContent(ProgramSettings, 'The settings'), ...errors },
} as const satisfies RouteConfig;

export const updateProgramSettings = {
  method: 'patch',
  path: '/v1/programs/{programId}/settings',
  tags,
  summary: 'Changes the program’s monetization, video monetization and headliner-video settings at once (mutation program.setSettings); a 400 names the field under its setting (Monetization.CpmFloor.Amount)',
  description: `${programAccess}. ${refusals}`,
  request: { params: ProgramParams, headers: IfMatchHeader, body: jsonBody(ProgramSettingsPatch) },
  responses: { 200: jsonContent(ProgramSettings, 'The settings after the change'), ...writeErrors, ...preconditionFailed(ProgramSettings) },
} as const satisfies RouteConfig;

export const getMonetization = {
  method: 'get',
  path: '/v1/programs/{programId}/settings/monetization',
  tags,
  summary: 'The program’s monetization: its own values, those in effect and whose each is; the ETag names the program',
  description: programAccess,
  request: { params: ProgramParams },
  responses: { 200: jsonContent(ProgramMonetization, 'The monetization'), ...errors },
} as const satisfies RouteConfig;

export const putMonetization = {
  method: 'put',
  path: '/v1/programs/{programId}/settings/monetization',
  tags,
  summary: 'Sets the program’s own monetization, all of it at once: a field left out or null is inherited (mutation program.setSettings)',
  description: `${programAccess}. ${refusals}`,
  request: { params: ProgramParams, headers: IfMatchHeader, body: jsonBody(MonetizationPatch) },
  responses: { 200: jsonContent(ProgramMonetization, 'The monetization as saved'), ...writeErrors, ...preconditionFailed(ProgramMonetization) },
} as const satisfies RouteConfig;

export const getMonetizationDefaults = {
  method: 'get',
  path: '/v1/programs/{programId}/settings/monetization/defaults',
  tags,
  summary: 'The monetization the program inherits: the organization’s defaults, filled with the studio’s where the organization sets none',
  description: programAccess,
  request: { params: ProgramParams },
  responses: { 200: jsonContent(MonetizationDefaults, 'The defaults'), ...errors },
} as const satisfies RouteConfig;

export const getVideoMonetization = {
  method: 'get',
  path: '/v1/programs/{programId}/settings/video-monetization',
  tags,
  summary: 'The program’s video monetization with its inheritance; the ETag names the program',
  description: programAccess,
  request: { params: ProgramParams },
  responses: { 200: jsonContent(ProgramVideoMonetization, 'The video monetization'), ...errors },
} as const satisfies RouteConfig;

export const updateVideoMonetization = {
  method: 'patch',
  path: '/v1/programs/{programId}/settings/video-monetization',
  tags,
  summary: 'Changes the program’s video monetization (a JSON Merge Patch: null inherits a field again; mutation program.setSettings)',
  description: `${programAccess}. ${refusals}`,
  request: { params: ProgramParams, headers: IfMatchHeader, body: jsonBody(VideoMonetizationPatch) },
  responses: { 200: jsonContent(ProgramVideoMonetization, 'The video monetization as saved'), ...writeErrors, ...preconditionFailed(ProgramVideoMonetization) },
} as const satisfies RouteConfig;

export const getHeadlinerVideos = {
  method: 'get',
  path: '/v1/programs/{programId}/settings/headliner-videos',
  tags,
  summary: 'The program’s headliner-video (audiogram) defaults with their inheritance; changed through PATCH …/settings (HeadlinerVideos); the ETag names the program',
  description: programAccess,
  request: { params: ProgramParams },
  responses: { 200: jsonContent(ProgramHeadlinerVideos, 'The headliner-video defaults'), ...errors },
} as const satisfies RouteConfig;

export const getProgramDefaults = {
  method: 'get',
  path: '/v1/settings/program-defaults',
  tags,
  summary: 'The monetization, video-monetization and headliner-video defaults the organization’s programs inherit; the ETag names the organization’s row',
  description: organizationAccess,
  responses: { 200: jsonContent(OrganizationProgramDefaults, 'The defaults'), ...errors },
} as const satisfies RouteConfig;

export const updateProgramDefaults = {
  method: 'patch',
  path: '/v1/settings/program-defaults',
  tags,
  summary: 'Changes the organization’s program defaults (a JSON Merge Patch like PATCH /v1/programs/{programId}/settings; mutation organization.setProgramDefaults); programs that set nothing follow at once',
  description: `${organizationAccess}. ${refusals}`,
  request: { headers: IfMatchHeader, body: jsonBody(ProgramSettingsPatch) },
  responses: { 200: jsonContent(OrganizationProgramDefaults, 'The defaults as saved'), ...writeErrors, ...preconditionFailed(OrganizationProgramDefaults) },
} as const satisfies RouteConfig;
