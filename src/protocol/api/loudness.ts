// A clip's loudness (issue 34): its audio measured to EBU R128 when processed, and its loudness
// normalization to the preset in effect (src/domain/loudness.ts). Served by sync-server/api/loudness.ts.
//
//   GET /internal/clips/{clipId}/loudness   the figures before and after, the preset, the job's state
//
// "Normalize again to the current preset" is the named mutation clip.normalizeLoudness (the
// outbox; src/mutations/loudness.ts), not a route of its own.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { LOUDNESS_PROBLEMS, LOUDNESS_STATES } from '../../domain/loudness.ts';
import { errors, idParams, jsonContent } from './common.ts';

export const LoudnessFiguresSchema = z
  .object({
    /** LUFS; null when too quiet for the gates. */
    IntegratedLoudness: z.number().nullable(),
    /** dBTP; null for silence. */
    TruePeak: z.number().nullable(),
    /** LU; null under 3 s of audio. */
    LoudnessRange: z.number().nullable(),
  })
  .meta({ id: 'LoudnessFigures' });

export const ClipLoudnessSchema = z
  .object({
    ClipId: z.string(),
    State: z.enum(LOUDNESS_STATES),
    /** The preset the clip's audio is (or is being) normalized to; null when none was in effect. */
    PresetId: z.string().nullable(),
    /** The preset in effect now (the program's choice, else the organization's): what "normalize again" targets. */
    EffectivePresetId: z.string().nullable(),
    EffectiveSource: z.enum(['Program', 'Organization']),
    /** Why the normalization failed (State Failed): a code of src/domain/loudness.ts. */
    Problem: z.enum(LOUDNESS_PROBLEMS).nullable(),
    /** The clip's audio as processed, before normalization. */
    Before: LoudnessFiguresSchema.nullable(),
    /** The published version once normalized. */
    After: LoudnessFiguresSchema.nullable(),
    /** The gain applied before the true-peak limiter, dB. */
    GainDb: z.number().nullable(),
    ModifiedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'ClipLoudness' });
export type ClipLoudness = z.infer<typeof ClipLoudnessSchema>;

export const getClipLoudness = {
  method: 'get',
  path: '/internal/clips/{clipId}/loudness',
  tags: ['Clips'],
  summary: 'A clip’s loudness (EBU R128: integrated, true peak, loudness range) before and after normalization, and the normalization’s state',
  request: { params: idParams('clipId') },
  responses: { 200: jsonContent(ClipLoudnessSchema, 'The clip’s loudness'), ...errors },
} as const satisfies RouteConfig;
