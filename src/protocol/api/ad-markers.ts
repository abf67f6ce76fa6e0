// Ad markers' and suggestions' calls (specification section 7; issue 34). A clip's markers and a
// program's rules are kept on their rows and changed through named mutations (clip.setAdMarkers,
// program.setAdMarkerRules, offline too); these calls are the ones that need the server:
//
//   PUT  /internal/clips/{clipId}/suggested/ad-markers    store suggested mid-rolls (204)
//   GET  /internal/clips/{clipId}/suggested/ad-markers    the suggestions (made from the audio's silences by a job when none are stored)
//   PUT  /internal/clips/{clipId}/suggested/chapters      store suggested chapters (204)
//   GET  /internal/clips/{clipId}/suggested/chapters      the suggestions (silences and the transcript's topic changes)
//   POST /internal/clips/{clipId}/ad-marker-rules/override        the clip's own rules in place of its program's (204)
//   POST /internal/programs/{programId}/ad-marker-rules/validation markers against the rules: the violations
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { AD_MARKERS_MAX } from '../../domain/ad-markers.ts';
import { CHAPTER_SUGGESTIONS_MAX, MID_ROLL_SUGGESTIONS_MAX } from '../../domain/suggestions.ts';
import { AdMarkerRulesSchema, AdMarkerSchema } from '../entities.ts';
import { FieldErrorSchema } from '../errors.ts';
import { errors, idParams, jsonBody, jsonContent, noContent } from './common.ts';

const Seconds = z.number().min(0).max(24 * 3600);

export const MidRollSuggestionSchema = z
  .object({ Seconds, SilenceSeconds: z.number().min(0).nullable().optional().meta({ description: 'Length of the silence it sits in, when made from the audio' }) })
  .strict()
  .meta({ id: 'MidRollSuggestion' });
export const ChapterSuggestionSchema = z
  .object({
    StartSeconds: Seconds,
    Title: z.string().max(200).nullable(),
    Reason: z.enum(['Silence', 'Pause', 'TopicChange', 'Other']).meta({ description: 'Why here: a silence in the audio, a pause or a change of words in the transcript' }),
  })
  .strict()
  .meta({ id: 'ChapterSuggestion' });

export const SuggestedAdMarkersPutSchema = z.object({ Items: z.array(MidRollSuggestionSchema).max(AD_MARKERS_MAX) }).strict().meta({ id: 'SuggestedAdMarkersPut' });
export const SuggestedChaptersPutSchema = z.object({ Items: z.array(ChapterSuggestionSchema).max(500) }).strict().meta({ id: 'SuggestedChaptersPut' });

const SuggestionState = {
  ClipId: z.string(),
  /** Ready: Items are the suggestions; Pending: the studio is making them (ask again); NoAudio: the clip has no audio to hear; Failed: its audio could not be read. */
  Status: z.enum(['Ready', 'Pending', 'NoAudio', 'Failed']),
  /** Studio: made from the clip's audio and transcript; Api: stored by a PUT. */
  MadeBy: z.enum(['Studio', 'Api']).nullable(),
  ModifiedAtUtc: z.string().nullable(),
};
export const SuggestedAdMarkersSchema = z.object({ ...SuggestionState, Items: z.array(MidRollSuggestionSchema) }).meta({ id: 'SuggestedAdMarkers' });
export const SuggestedChaptersSchema = z.object({ ...SuggestionState, Items: z.array(ChapterSuggestionSchema) }).meta({ id: 'SuggestedChapters' });
export type SuggestedAdMarkers = z.infer<typeof SuggestedAdMarkersSchema>;
export type SuggestedChapters = z.infer<typeof SuggestedChaptersSchema>;

export const AdMarkerRulesOverrideSchema = z
  .object({ Rules: AdMarkerRulesSchema.nullable().meta({ description: 'The clip’s own rules; null: its program’s again' }) })
  .strict()
  .meta({ id: 'AdMarkerRulesOverride' });

export const AdMarkerValidationRequestSchema = z
  .object({
    ClipId: z.uuid().optional().meta({ description: 'A clip of the program: its markers, length and rules (its override, else the program’s) unless given here' }),
    AdMarkers: z.array(AdMarkerSchema).max(AD_MARKERS_MAX).optional(),
    DurationSeconds: z.number().min(0).nullable().optional(),
    Rules: AdMarkerRulesSchema.optional().meta({ description: 'Rules to judge by instead (a draft of the program’s)' }),
  })
  .strict()
  .meta({ id: 'AdMarkerValidationRequest' });
export const AdMarkerViolationSchema = FieldErrorSchema.meta({ id: 'AdMarkerViolation', description: 'Field: AdMarkers, or AdMarkers.<i>.<Type|Seconds|MaxAds>; Code: PreRollMissing, PostRollMissing, TooFewMidRolls, TooManyMidRolls, TooEarly, TooLate, TooClose or TooManyAds' });
export const AdMarkerValidationSchema = z
  .object({
    Valid: z.boolean(),
    Rules: AdMarkerRulesSchema,
    /** Whose rules: the clip's override, the program's, none set, or the request's. */
    Source: z.enum(['Clip', 'Program', 'None', 'Request']),
    Violations: z.array(AdMarkerViolationSchema),
  })
  .meta({ id: 'AdMarkerValidation' });
export type AdMarkerValidation = z.infer<typeof AdMarkerValidationSchema>;

const tags = ['Clips'];
const ClipParams = idParams('clipId');

export const putSuggestedAdMarkers = {
  method: 'put',
  path: '/internal/clips/{clipId}/suggested/ad-markers',
  tags,
  summary: 'Stores the clip’s suggested mid-roll positions, replacing those stored (an empty list: none left to suggest)',
  request: { params: ClipParams, body: jsonBody(SuggestedAdMarkersPutSchema) },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const getSuggestedAdMarkers = {
  method: 'get',
  path: '/internal/clips/{clipId}/suggested/ad-markers',
  tags,
  summary: `The clip’s suggested mid-roll positions: those stored, else made from the silences of its audio within its ad-marker rules (at most ${MID_ROLL_SUGGESTIONS_MAX}; Status Pending while a job makes them)`,
  request: { params: ClipParams },
  responses: { 200: jsonContent(SuggestedAdMarkersSchema, 'The suggestions'), ...errors },
} as const satisfies RouteConfig;

export const putSuggestedChapters = {
  method: 'put',
  path: '/internal/clips/{clipId}/suggested/chapters',
  tags,
  summary: 'Stores the clip’s suggested chapters, replacing those stored',
  request: { params: ClipParams, body: jsonBody(SuggestedChaptersPutSchema) },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const getSuggestedChapters = {
  method: 'get',
  path: '/internal/clips/{clipId}/suggested/chapters',
  tags,
  summary: `The clip’s suggested chapters: those stored, else made from the silences of its audio and its transcript’s pauses and changes of words (at most ${CHAPTER_SUGGESTIONS_MAX}; Status Pending while a job makes them)`,
  request: { params: ClipParams },
  responses: { 200: jsonContent(SuggestedChaptersSchema, 'The suggestions'), ...errors },
} as const satisfies RouteConfig;

export const overrideAdMarkerRules = {
  method: 'post',
  path: '/internal/clips/{clipId}/ad-marker-rules/override',
  tags,
  summary: 'Holds the clip to its own ad-marker rules instead of its program’s (Rules null: its program’s again); each invalid rule a 400 at Rules.<Field>',
  request: { params: ClipParams, body: jsonBody(AdMarkerRulesOverrideSchema) },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const validateAdMarkers = {
  method: 'post',
  path: '/internal/programs/{programId}/ad-marker-rules/validation',
  tags: ['Programs'],
  summary:
    'Judges ad markers (given, or a clip’s) by the program’s ad-marker rules (or the clip’s override, or rules given): each violation at the field it names. Markers that can never be stored are a 400 at AdMarkers.<i>.<Field>, invalid rules at Rules.<Field>',
  request: { params: idParams('programId'), body: jsonBody(AdMarkerValidationRequestSchema) },
  responses: { 200: jsonContent(AdMarkerValidationSchema, 'The rules applied and the violations'), ...errors },
} as const satisfies RouteConfig;
