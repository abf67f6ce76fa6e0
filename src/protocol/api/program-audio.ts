// A program's intro and outro audio files (issue 33; specification section 7):
//
//   PUT    /v1/programs/{programId}/settings/audio/{type}        file body (query fileName)  202 the operation, Busy
//   GET    /v1/programs/settings/audio/{operationId}             the operation's progress    200
//   DELETE /v1/programs/{programId}/settings/audio/{type}        removed                     204
//   POST   /internal/programs/{programId}/settings/audio/apply   existing episodes remade    202 how many
//   GET    /media/programs/{programId}/audio/{type}              the file, to play (HTTP Range; HEAD too)
//
// {type} is intro or outro. Rules: src/domain/intro-outro.ts; served by sync-server/api/program-audio.ts.
// The program's current intro and outro are on its row (Program.IntroOutro, src/protocol/entities.ts),
// so devices see them offline; changing them needs the network (a file upload and a job).
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { INTRO_OUTRO_MAX_SECONDS, INTRO_OUTRO_MIN_SECONDS, INTRO_OUTRO_TYPES, IntroOutroFailure, OperationStatus } from '../../domain/intro-outro.ts';
import { errors, IdParam, idParams, jsonContent, noContent, writeErrors } from './common.ts';

const tags = ['Settings'];

/** Bytes, not JSON: described, never validated (the server streams them under the file rules of section 5). */
const binary = z.string().meta({ format: 'binary' });

/** A string, not an enum: a path parameter that fails its schema answers 404 (it names no row), while
 *  section 7 wants a wrong type named: the handler answers 400 at type (isIntroOutroType). */
export const IntroOutroTypeParam = z.string().meta({ param: { name: 'type', in: 'path' }, description: 'intro or outro (anything else: a 400 at type)', examples: ['intro', 'outro'] });

const programTypeParams = idParams('programId').extend({ type: IntroOutroTypeParam });

export const ProgramAudioOperationSchema = z
  .object({
    Id: z.uuid().meta({ description: 'The operationId to poll' }),
    Status: z.enum([OperationStatus.Busy, OperationStatus.Success, OperationStatus.Failed]),
    ProgramId: z.uuid(),
    Type: z.enum(INTRO_OUTRO_TYPES),
    FileName: z.string(),
    /** Seconds of audio once decoded (Success), else null. */
    DurationSeconds: z.number().nullable(),
    FailureReason: z
      .object({
        Code: z.enum(Object.values(IntroOutroFailure) as [IntroOutroFailure, ...IntroOutroFailure[]]),
        Message: z.string(),
      })
      .nullable()
      .meta({ description: `Why it Failed (null otherwise): NotAudio, TooShort (under ${INTRO_OUTRO_MIN_SECONDS} s), TooLong (over ${INTRO_OUTRO_MAX_SECONDS / 60} min) or Error` }),
  })
  .meta({ id: 'ProgramAudioOperation' });
export type ProgramAudioOperation = z.infer<typeof ProgramAudioOperationSchema>;

export const ApplyIntroOutroSchema = z
  .object({ Clips: z.number().int().meta({ description: 'Episodes with audio whose published version will be made again with the program’s current intro and outro' }) })
  .meta({ id: 'ApplyIntroOutro' });

const UnsupportedMediaType = { 415: { description: 'A body whose Content-Type is not audio (nor application/octet-stream): nothing stored (no body)' } };

export const putProgramAudio = {
  method: 'put',
  path: '/v1/programs/{programId}/settings/audio/{type}',
  tags,
  summary: 'Uploads the program’s intro or outro: stored, then decoded and checked by an operation (poll it)',
  description:
    'The file body under the section 5 file rules (fileName’s extension decides its type; every broken rule a 400 at file or fileName). On Success the file is the program’s intro or outro: episodes processed from then on publish intro + episode + outro; existing episodes only after POST …/settings/audio/apply.',
  request: {
    params: programTypeParams,
    query: z.object({ fileName: z.string().optional().meta({ description: 'The file’s name (its extension decides its type)' }) }),
    body: { required: true, description: 'The audio file (streamed)', content: { 'audio/*': { schema: binary }, 'application/octet-stream': { schema: binary } } },
  },
  responses: { 202: jsonContent(ProgramAudioOperationSchema, 'Stored: the operation, Busy; poll GET /v1/programs/settings/audio/{operationId}'), ...writeErrors, ...UnsupportedMediaType },
} as const satisfies RouteConfig;

export const getProgramAudioOperation = {
  method: 'get',
  path: '/v1/programs/settings/audio/{operationId}',
  tags,
  summary: 'An intro or outro upload’s progress (Busy, Success or Failed with its reason)',
  request: { params: z.object({ operationId: IdParam.meta({ param: { name: 'operationId', in: 'path' } }) }) },
  responses: { 200: jsonContent(ProgramAudioOperationSchema, 'The operation'), ...errors },
} as const satisfies RouteConfig;

export const deleteProgramAudio = {
  method: 'delete',
  path: '/v1/programs/{programId}/settings/audio/{type}',
  tags,
  summary: 'Removes the program’s intro or outro (episodes already published keep theirs until applied again)',
  request: { params: programTypeParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const applyProgramAudio = {
  method: 'post',
  path: '/internal/programs/{programId}/settings/audio/apply',
  tags,
  summary: 'Makes the published audio of the program’s existing episodes again with its current intro and outro (a job)',
  request: { params: idParams('programId') },
  responses: { 202: jsonContent(ApplyIntroOutroSchema, 'Queued'), ...errors },
} as const satisfies RouteConfig;

export const getProgramAudioFile = {
  method: 'get',
  path: '/media/programs/{programId}/audio/{type}',
  tags,
  summary: 'The program’s intro or outro file, to play (HTTP Range)',
  request: { params: programTypeParams, headers: z.object({ range: z.string().optional().meta({ description: 'One byte range (RFC 9110 §14)' }) }) },
  responses: {
    200: { description: 'The file, whole', content: { 'audio/*': { schema: binary } } },
    206: { description: 'The byte range asked for', content: { 'audio/*': { schema: binary } } },
    416: { description: 'The range starts past the end' },
    401: errors[401],
    403: errors[403],
    404: errors[404],
  },
} as const satisfies RouteConfig;

export const headProgramAudioFile = { ...getProgramAudioFile, method: 'head', summary: `${getProgramAudioFile.summary} (headers only)` } as const satisfies RouteConfig;
