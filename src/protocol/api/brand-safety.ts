// A clip's brand safety (specification section 7, Clips: GET /v1/clips/{clipId}/brand-safety and
// the staff tool POST /internal/tools/clips/{clipId}/brand-safety/retry). The rules, the categories
// and what the analysis is: src/domain/brand-safety.ts. A durable job makes it
// (sync-server/brand-safety.ts); reading it queues the job when the clip's title, description or
// transcript changed since the last analysis, so what is shown is never silently out of date.
//
//   GET  /v1/clips/{clipId}/brand-safety                               the analysis (Stale while made again)
//   POST /internal/tools/clips/{clipId}/brand-safety/retry             staff: make it again now
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { BRAND_SAFETY_CATEGORIES, BRAND_SAFETY_RISKS, BRAND_SAFETY_SOURCES, BRAND_SAFETY_STATUSES, ESCALATE_AT, EVIDENCE_PER_CATEGORY } from '../../domain/brand-safety.ts';
import { errors, idParams, jsonContent, noContent } from './common.ts';

const Risk = z.enum(BRAND_SAFETY_RISKS);

export const BrandSafetyMatchSchema = z
  .object({
    Term: z.string().meta({ description: 'The lexicon’s term that was matched (by word stems)' }),
    Source: z.enum(BRAND_SAFETY_SOURCES),
    StartSeconds: z.number().nullable().meta({ description: 'Where in the audio, for a transcript cue; null for the title and description' }),
    Excerpt: z.string().meta({ description: 'The words around the match, as written' }),
  })
  .meta({ id: 'BrandSafetyMatch' });

export const BrandSafetySchema = z
  .object({
    ClipId: z.string(),
    Status: z.enum(BRAND_SAFETY_STATUSES).meta({ description: 'NotAnalyzed only for a clip never read; Queued while the job runs; Completed; Failed (Problem says why)' }),
    /** True when the clip's texts changed since the analysis below was made (a new one is queued). */
    Stale: z.boolean(),
    Risk: Risk.nullable().meta({ description: 'The clip’s risk: its highest category’s (None when nothing was found); null until analyzed' }),
    Categories: z.array(
      z.object({
        Category: z.enum(BRAND_SAFETY_CATEGORIES),
        Risk: Risk.exclude(['None']),
        MatchCount: z.number().int().meta({ description: `Matches in all (a category heard ${ESCALATE_AT} times or more is one level higher, below Floor)` }),
        Matches: z.array(BrandSafetyMatchSchema).meta({ description: `The first ${EVIDENCE_PER_CATEGORY} matches` }),
      }),
    ),
    /** Whether the transcript was read (a clip without one is judged on its title and description only). */
    ReadTranscript: z.boolean(),
    WordsRead: z.number().int(),
    Problem: z.string().nullable().meta({ description: 'Failed: why, in English ("The analysis did not complete after 3 attempts."); null otherwise' }),
    Attempts: z.number().int(),
    AnalyzedAtUtc: z.string().nullable(),
    RequestedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'BrandSafety' });
export type BrandSafety = z.infer<typeof BrandSafetySchema>;

export const getClipBrandSafety = {
  method: 'get',
  path: '/v1/clips/{clipId}/brand-safety',
  tags: ['Clips'],
  summary: 'The clip’s brand safety: its risk in each GARM category, with the words that made it and where they are',
  description:
    'Read from the clip’s title, description and transcript by a job. When they changed since the last analysis (or it never ran), reading queues it: Status Queued, the earlier result kept with Stale true until the new one is made.',
  request: { params: idParams('clipId') },
  responses: { 200: jsonContent(BrandSafetySchema, 'The analysis'), ...errors },
} as const satisfies RouteConfig;

export const retryClipBrandSafety = {
  method: 'post',
  path: '/internal/tools/clips/{clipId}/brand-safety/retry',
  tags: ['Admin'],
  summary: 'Makes the clip’s brand-safety analysis again, even when it looks current',
  description: 'Admin or support users only (403 otherwise, with no body), for a clip of any organization. A clip that does not exist or is deleted is a 404.',
  request: { params: idParams('clipId') },
  responses: { 204: noContent, ...errors, 403: { description: 'The caller is neither admin nor support, or sent no x-xsrf-token (no body)' } },
} as const satisfies RouteConfig;
