// Settings (issue 33; specification section 7): named settings at every level
// (PUT, GET and DELETE /internal/…/settings/{name}) and loudness normalization, chosen for the
// organization (/v1/settings/normalization) and overridden per program
// (/v1/programs/{programId}/settings/normalization). The rules are in src/domain/settings.ts;
// served by sync-server/api/settings.ts.
//
// Named settings are server-held rows (sync-server/migrations/0520_settings.sql), written online.
// Normalization is kept on the organization's and the program's rows (Normalization), so it syncs
// and is changed offline through the named mutations organization.setNormalization and
// program.setNormalization (src/mutations/settings.ts). The organization's settings root
// (/v1/settings) is its row's settings: its measurement URL prefixes (MeasurementPrefixes,
// src/domain/measurement.ts; mutation organization.setMeasurementPrefixes), with its name and
// normalization to read.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { MEASUREMENT_PREFIX_MAX_LENGTH, MEASUREMENT_PREFIXES_MAX } from '../../domain/measurement.ts';
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN, SETTING_NAME_MAX_LENGTH, SETTING_VALUE_MAX_BYTES, type SettingLevel } from '../../domain/settings.ts';
import { NormalizationChoiceSchema } from '../entities.ts';
import { Organization } from './session.ts';
import { Program } from './schemas.ts';
import { FieldErrorSchema } from '../errors.ts';
import { errors, idParams, IfMatchHeader, jsonBody, jsonContent, noContent, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Settings'];

// ── Named settings ────────────────────────────────────────────────────────────────────────────

export const NamedSetting = z
  .object({
    Name: z.string(),
    Value: z.unknown().meta({ description: 'Any JSON value' }),
    ModifiedAtUtc: z.string(),
  })
  .meta({ id: 'NamedSetting', description: 'A named setting of an organization, network, program, playlist or clip; its ETag is its ModifiedAtUtc' });
export type NamedSetting = z.infer<typeof NamedSetting>;

export const NamedSettingPut = z
  .object({ Value: z.unknown().meta({ description: `Any JSON value, at most ${SETTING_VALUE_MAX_BYTES} bytes as JSON text` }) })
  .strict()
  .meta({ id: 'NamedSettingPut' });

/** The name in the path: checked by the handler (a bad one is a 400 at name, not a 404). */
const NameParam = z.string().meta({
  param: { name: 'name', in: 'path' },
  description: `Lower-case letters and digits in words joined by - _ or . (at most ${SETTING_NAME_MAX_LENGTH})`,
  example: 'player-theme',
});

const ACCESS: Record<SettingLevel, string> = {
  Organization: 'Read: HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope; write: HasManageOrganizationSettingsAccess at organization scope',
  Network: 'Read: HasContentAccess with HasAuditAccess or HasManageSettingsAccess on the network; write: HasContentAccess and HasManageSettingsAccess on the network. A network the caller does not see is a 404',
  Program: 'Read: HasContentAccess with HasAuditAccess or HasManageSettingsAccess on the program; write: HasContentAccess and HasManageSettingsAccess on the program. A program the caller does not see is a 404',
  Playlist: 'As the playlist’s program’s settings: read with HasContentAccess and HasAuditAccess or HasManageSettingsAccess, written with HasContentAccess and HasManageSettingsAccess. A playlist without content access on its program is a 404',
  Clip: 'As the clip’s program’s settings: read with HasContentAccess and HasAuditAccess or HasManageSettingsAccess, written with HasContentAccess and HasManageSettingsAccess. A clip without content access on its program is a 404',
};

/** The three calls of one level's named settings. */
function namedSettingRoutes<P extends string>(level: SettingLevel, prefix: string, idParam: P | null) {
  const path = `${prefix}/settings/{name}`;
  const params = idParam === null ? z.object({ name: NameParam }) : idParams(idParam).extend({ name: NameParam });
  const noun = level === 'Organization' ? 'the organization' : `the ${level.toLowerCase()}`;
  const unset = 'A name never set (or deleted) is a 404.';
  return {
    get: {
      method: 'get',
      path,
      tags,
      summary: `A named setting of ${noun}`,
      description: `${ACCESS[level]}. ${unset}`,
      request: { params },
      responses: { 200: jsonContent(NamedSetting, 'The setting'), ...errors },
    } as const satisfies RouteConfig,
    put: {
      method: 'put',
      path,
      tags,
      summary: `Sets a named setting of ${noun} (made when new)`,
      description: `${ACCESS[level]}. A bad name is a 400 at name; a value over ${SETTING_VALUE_MAX_BYTES} bytes a 400 at Value. If-Match: the setting's ModifiedAtUtc the change was made on (a stale one is a 412 with the setting).`,
      request: { params, headers: IfMatchHeader, body: jsonBody(NamedSettingPut) },
      responses: { 200: jsonContent(NamedSetting, 'The setting as saved'), ...writeErrors, ...preconditionFailed(NamedSetting) },
    } as const satisfies RouteConfig,
    delete: {
      method: 'delete',
      path,
      tags,
      summary: `Deletes a named setting of ${noun}`,
      description: `${ACCESS[level]}. ${unset}`,
      request: { params },
      responses: { 200: jsonContent(NamedSetting, 'The setting as it was'), ...errors },
    } as const satisfies RouteConfig,
  };
}

export const organizationSetting = namedSettingRoutes('Organization', '/internal', null);
export const networkSetting = namedSettingRoutes('Network', '/internal/networks/{networkId}', 'networkId');
export const programSetting = namedSettingRoutes('Program', '/internal/programs/{programId}', 'programId');
export const playlistSetting = namedSettingRoutes('Playlist', '/internal/playlists/{playlistId}', 'playlistId');
export const clipSetting = namedSettingRoutes('Clip', '/internal/clips/{clipId}', 'clipId');

// ── Normalization ─────────────────────────────────────────────────────────────────────────────

export const NormalizationSetting = NormalizationChoiceSchema.meta({
  id: 'NormalizationSetting',
  description: 'PresetId: a normalization preset’s Id (GET /v1/reference-data/normalization-presets), or null: off',
});
export type NormalizationSetting = z.infer<typeof NormalizationSetting>;

export const ProgramNormalization = z
  .object({
    PresetId: z.string().nullable().meta({ description: 'The preset the program’s audio gets (null: off)' }),
    Source: z.enum(['Program', 'Organization']).meta({ description: 'Program: the program’s own choice; Organization: inherited from the organization' }),
    OrganizationPresetId: z.string().nullable().meta({ description: 'The organization’s choice: what the program inherits, and gets again when reset' }),
  })
  .meta({ id: 'ProgramNormalization' });
export type ProgramNormalization = z.infer<typeof ProgramNormalization>;

const organizationAccess = ACCESS.Organization;
const presetNote = 'A PresetId not in the reference list is a 400 at PresetId.';

export const getNormalization = {
  method: 'get',
  path: '/v1/settings/normalization',
  tags,
  summary: 'The organization’s loudness normalization: what its programs inherit (off until chosen); the ETag names the organization’s row',
  description: organizationAccess,
  responses: { 200: jsonContent(NormalizationSetting, 'The organization’s choice'), ...errors },
} as const satisfies RouteConfig;

export const updateNormalization = {
  method: 'patch',
  path: '/v1/settings/normalization',
  tags,
  summary: 'Chooses the organization’s loudness normalization (mutation organization.setNormalization)',
  description: `${organizationAccess}. ${presetNote}`,
  request: { headers: IfMatchHeader, body: jsonBody(NormalizationSetting) },
  responses: { 200: jsonContent(NormalizationSetting, 'The choice as saved'), ...writeErrors, ...preconditionFailed(Organization) },
} as const satisfies RouteConfig;

const ProgramParams = idParams('programId');
const programAccess = 'Read: a member who sees the program; write: HasContentAccess and HasManageSettingsAccess on the program';

export const getProgramNormalization = {
  method: 'get',
  path: '/v1/programs/{programId}/settings/normalization',
  tags,
  summary: 'The program’s loudness normalization: the preset in effect and whether it is the program’s own or the organization’s; the ETag names the program',
  description: programAccess,
  request: { params: ProgramParams },
  responses: { 200: jsonContent(ProgramNormalization, 'In effect, and where from'), ...errors },
} as const satisfies RouteConfig;

export const updateProgramNormalization = {
  method: 'patch',
  path: '/v1/programs/{programId}/settings/normalization',
  tags,
  summary: 'Chooses the program’s own loudness normalization over the organization’s (mutation program.setNormalization)',
  description: `${programAccess}. ${presetNote}`,
  request: { params: ProgramParams, headers: IfMatchHeader, body: jsonBody(NormalizationSetting) },
  responses: { 200: jsonContent(ProgramNormalization, 'In effect after the change'), ...writeErrors, ...preconditionFailed(Program) },
} as const satisfies RouteConfig;

export const resetProgramNormalization = {
  method: 'delete',
  path: '/v1/programs/{programId}/settings/normalization',
  tags,
  summary: 'Drops the program’s own normalization: it inherits the organization’s again (mutation program.setNormalization)',
  description: programAccess,
  request: { params: ProgramParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Program) },
} as const satisfies RouteConfig;

// ── The organization's settings root ─────────────────────────────────────────────────────────

const PrefixList = z.array(z.string()).meta({
  description:
    `Measurement URL prefixes (OP3, Podtrac, Chartable and the like), in the order a listener’s request passes through them; [] for none. ` +
    `Each is put in front of every enclosure URL of the public feeds, taking it without its scheme: https://op3.dev/e/ + studio.example/audio/….mp3. ` +
    `At most ${MEASUREMENT_PREFIXES_MAX}, none twice; each https, naming a host, with a path ending in / and no query or fragment (at most ${MEASUREMENT_PREFIX_MAX_LENGTH} characters). ` +
    `Member (private) feeds are not measured: their enclosure URLs carry the member’s signed link.`,
  example: ['https://op3.dev/e/'],
});

export const OrganizationSettings = z
  .object({
    OrganizationId: z.string(),
    Name: z.string().meta({ description: 'The organization’s name (read here; shown to listeners as a feed’s author when a program names none)' }),
    MeasurementPrefixes: PrefixList,
    /** Read here; changed at /v1/settings/normalization. */
    Normalization: NormalizationSetting,
    ModifiedAtUtc: z.string().meta({ description: 'The organization row’s: the ETag, and the base If-Match names' }),
  })
  .meta({ id: 'OrganizationSettings', description: 'The organization’s own settings, kept on its row (synced to devices, changed offline through named mutations)' });
export type OrganizationSettings = z.infer<typeof OrganizationSettings>;

export const OrganizationSettingsPatch = z
  .object({ MeasurementPrefixes: PrefixList.optional() })
  .strict()
  .meta({ id: 'OrganizationSettingsPatch', description: 'The settings to change; one left out is kept as it is' });

export const getOrganizationSettings = {
  method: 'get',
  path: '/v1/settings',
  tags,
  summary: 'The organization’s settings: its measurement URL prefixes, name and normalization; the ETag names the organization’s row',
  description: organizationAccess,
  responses: { 200: jsonContent(OrganizationSettings, 'The organization’s settings'), ...errors },
} as const satisfies RouteConfig;

export const updateOrganizationSettings = {
  method: 'patch',
  path: '/v1/settings',
  tags,
  summary: 'Changes the organization’s settings (MeasurementPrefixes: mutation organization.setMeasurementPrefixes); the public feeds’ enclosures follow at once',
  description: `${organizationAccess}. A prefix that is not valid is a 400 at MeasurementPrefixes.{index} with the reason (GET /v1/settings/validate-url-prefix says the same of one prefix); too many, or one twice, a 400 at MeasurementPrefixes.`,
  request: { headers: IfMatchHeader, body: jsonBody(OrganizationSettingsPatch) },
  responses: { 200: jsonContent(OrganizationSettings, 'The settings as saved'), ...writeErrors, ...preconditionFailed(OrganizationSettings) },
} as const satisfies RouteConfig;

export const UrlPrefixCheck = z
  .object({
    PrefixUrl: z.string().meta({ description: 'The prefix asked about, as given' }),
    Valid: z.boolean(),
    Error: FieldErrorSchema.nullable().meta({ description: 'Why not (Field prefixUrl), in the words a PATCH would refuse it with; null when valid' }),
    ExampleEnclosureUrl: z.string().meta({ description: 'An enclosure as this studio’s feeds write one, on its public origin' }),
    ExampleUrl: z.string().nullable().meta({ description: 'What a listener’s app is given for it with this prefix alone in front; null when not valid' }),
  })
  .meta({ id: 'UrlPrefixCheck' });
export type UrlPrefixCheck = z.infer<typeof UrlPrefixCheck>;

export const validateUrlPrefix = {
  method: 'get',
  path: '/v1/settings/validate-url-prefix',
  tags,
  summary: 'Whether a measurement URL prefix is valid, why not, and what an example enclosure URL becomes with it',
  description:
    `${organizationAccess}. The check is syntactic, the rule of PATCH /v1/settings (https, a host, a path ending in /, no query or fragment); ` +
    'the prefix is not fetched: whether the measurement service answers is for its own dashboard to show. A prefix that is not valid is a 200 with Valid false and the reason; a missing prefixUrl is a 400 at prefixUrl.',
  request: {
    query: z.object({
      prefixUrl: z.string().max(4096).meta({ description: 'The prefix to check (required)', example: 'https://op3.dev/e/' }),
    }),
  },
  responses: { 200: jsonContent(UrlPrefixCheck, 'The answer'), ...errors },
} as const satisfies RouteConfig;

// ── Recording settings and deletion estimates ────────────────────────────────────────────────

export const RecordingSettings = z
  .object({
    DeleteRecordingsAfterDays: z
      .number()
      .nullable()
      .meta({ description: `Recordings created more than this many days ago are deleted (a whole number, ${RETENTION_DAYS_MIN} to ${RETENTION_DAYS_MAX}); null: kept for ever`, example: 90 }),
  })
  .strict()
  .meta({ id: 'RecordingSettings', description: 'A program’s recording settings, kept on the program’s row (mutation program.setRecordingSettings)' });
export type RecordingSettings = z.infer<typeof RecordingSettings>;

export const DeletionEstimate = z
  .object({
    Days: z.number().meta({ description: 'The retention asked about' }),
    CutoffUtc: z.string().meta({ description: 'Rows created before this instant would be deleted' }),
    Count: z.number().meta({ description: 'Live rows the caller sees that a retention of Days would delete now' }),
    TotalDurationSeconds: z.number().meta({ description: 'Their total duration (rows without a duration count 0)' }),
    OldestCreatedAtUtc: z.string().nullable().meta({ description: 'When the oldest of them was created (null: none)' }),
  })
  .meta({ id: 'DeletionEstimate' });
export type DeletionEstimate = z.infer<typeof DeletionEstimate>;

const DaysQuery = z.object({
  days: z.string().max(20).meta({ description: `The retention in days, a whole number from ${RETENTION_DAYS_MIN} to ${RETENTION_DAYS_MAX} (missing or bad: a 400 at days)`, example: '90' }),
});

const recordingWrite = 'Read: a member who sees the program; write: HasContentAccess and HasManageSettingsAccess on the program';

export const getRecordingSettings = {
  method: 'get',
  path: '/v1/programs/{programId}/settings/recording',
  tags,
  summary: 'The program’s recording settings (retention); the ETag names the program',
  description: recordingWrite,
  request: { params: ProgramParams },
  responses: { 200: jsonContent(RecordingSettings, 'The program’s recording settings'), ...errors },
} as const satisfies RouteConfig;

export const updateRecordingSettings = {
  method: 'patch',
  path: '/v1/programs/{programId}/settings/recording',
  tags,
  summary: 'Changes the program’s recording settings (mutation program.setRecordingSettings); the retention job deletes recordings past it',
  description: `${recordingWrite}. A DeleteRecordingsAfterDays that is not a whole number from ${RETENTION_DAYS_MIN} to ${RETENTION_DAYS_MAX} (or null) is a 400 at DeleteRecordingsAfterDays.`,
  request: { params: ProgramParams, headers: IfMatchHeader, body: jsonBody(RecordingSettings) },
  responses: { 200: jsonContent(RecordingSettings, 'The settings as saved'), ...writeErrors, ...preconditionFailed(Program) },
} as const satisfies RouteConfig;

const estimateAccess = {
  program: 'HasContentAccess on the program (a program the caller does not see is a 404)',
  organization: 'HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope; counts the rows of the programs the caller has content access on',
};

const estimateSummary = (kind: 'clip' | 'recording', where: string) =>
  `How many live ${kind}s ${where} a retention of days would delete now (created more than days ago): their count, total duration and the oldest’s date`;

function programEstimate<P extends string>(path: P, kind: 'clip' | 'recording') {
  return {
    method: 'get',
    path,
    tags,
    summary: estimateSummary(kind, 'of the program'),
    description: estimateAccess.program,
    request: { params: ProgramParams, query: DaysQuery },
    responses: { 200: jsonContent(DeletionEstimate, 'The estimate'), ...errors },
  } as const satisfies RouteConfig;
}

function organizationEstimate<P extends string>(path: P, kind: 'clip' | 'recording') {
  return {
    method: 'get',
    path,
    tags,
    summary: estimateSummary(kind, 'of the organization'),
    description: estimateAccess.organization,
    request: { query: DaysQuery },
    responses: { 200: jsonContent(DeletionEstimate, 'The estimate'), ...errors },
  } as const satisfies RouteConfig;
}

export const programClipDeletionEstimate = programEstimate('/v1/programs/{programId}/settings/clip-deletion-estimate', 'clip');
export const programRecordingDeletionEstimate = programEstimate('/v1/programs/{programId}/settings/recording-deletion-estimate', 'recording');
export const clipDeletionEstimate = organizationEstimate('/v1/settings/clip-deletion-estimate', 'clip');
export const recordingDeletionEstimate = organizationEstimate('/v1/settings/recording-deletion-estimate', 'recording');
