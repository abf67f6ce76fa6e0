// Admin calls, specification section 7 "Images and admin" (section 6, "Grant access").
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { validateGuid } from '../../domain/validators.ts';
import { GrantOrganizationAccessSchema } from '../admin.ts';
import { BadRequestBodySchema } from '../errors.ts';
import { STAFF_LOOKUP_KINDS, STAFF_LOOKUP_PER_KIND, STAFF_LOOKUP_QUERY_MAX_LENGTH, STAFF_LOOKUP_TEXT_MIN_LENGTH } from '../../domain/staff-lookup.ts';
import { errors, idParams, jsonBody, jsonContent, noContent, writeErrors, type DomainIssueParams } from './common.ts';

/** The body, its id checked as a GUID ('Not a valid GUID', 'required' for null) and lower-cased. */
export const GrantOrganizationAccess = GrantOrganizationAccessSchema.extend({
  OrganizationId: z
    .string()
    .nullable()
    .superRefine((value, ctx) => {
      const error = validateGuid(value, { required: true });
      if (error) ctx.addIssue({ code: 'custom', message: error.type, params: { formError: error } satisfies DomainIssueParams });
    })
    // Only a GUID gets here (a refused value stops the parse before its transform).
    .transform((id) => (id ?? '').toLowerCase()),
}).meta({ id: 'GrantOrganizationAccess' });

export const grantOrganizationAccess = {
  method: 'post',
  path: '/admin/users/me/organizations',
  tags: ['Admin'],
  summary: 'Makes the caller (an admin or support user) a member of the organization; an existing membership stays as it is',
  request: { body: jsonBody(GrantOrganizationAccess) },
  responses: {
    204: noContent,
    ...writeErrors,
    403: { description: 'The caller is neither admin nor support, or sent no x-xsrf-token (no body)' },
    404: errors[404],
  },
} as const satisfies RouteConfig;

// ── Object search (the Admin section's "Object search"; src/domain/staff-lookup.ts) ──────────

export const StaffLookupRow = z
  .object({
    Kind: z.enum(STAFF_LOOKUP_KINDS),
    Id: z.string(),
    Title: z.string().meta({ description: 'Its name or title (a user: their name); "" when it has none' }),
    Detail: z.string().nullable().meta({ description: 'What tells it apart: a slug, an e-mail address, the program a clip is in' }),
    OrganizationId: z.string().nullable().meta({ description: 'The organization it belongs to (a user: one they are a member of; null: of none)' }),
    OrganizationName: z.string().nullable(),
    ProgramId: z.string().nullable(),
    Deleted: z.boolean(),
    CallerIsMember: z.boolean().meta({ description: 'Whether the caller is a member of its organization: if not, Grant access (POST /admin/users/me/organizations) opens it' }),
    Href: z.string().nullable().meta({ description: 'Where it opens in the studio (section 2’s routes)' }),
    ModifiedAtUtc: z.string(),
  })
  .meta({ id: 'StaffLookupRow' });
export type StaffLookupRow = z.infer<typeof StaffLookupRow>;

export const StaffLookupResult = z
  .object({
    Query: z.string(),
    ReadAs: z.enum(['ids', 'email', 'text']).meta({ description: 'How the query was read: ids (an id, or the ids in a studio address), an e-mail address, or text (slugs equal to it and titles containing it)' }),
    Results: z.array(StaffLookupRow),
  })
  .meta({ id: 'StaffLookupResult' });
export type StaffLookupResult = z.infer<typeof StaffLookupResult>;

export const staffLookup = {
  method: 'get',
  path: '/admin/lookup',
  tags: ['Admin'],
  summary: 'Finds organizations, networks, programs, playlists, clips, recordings and users of every organization by id, studio address, e-mail, slug or title',
  description:
    `Admin or support users only (403 otherwise, with no body). query: an id or an address of the studio (each id in it, whatever it is the id of), an e-mail address (that person and their organizations), ` +
    `or at least ${STAFF_LOOKUP_TEXT_MIN_LENGTH} characters (slugs equal to it, names and titles containing it, at most ${STAFF_LOOKUP_PER_KIND} of each kind, the most recently changed first). Deleted rows are found too, and say so.`,
  request: {
    query: z.object({
      query: z
        .string()
        .max(STAFF_LOOKUP_QUERY_MAX_LENGTH * 4)
        .meta({ description: `What to find (at most ${STAFF_LOOKUP_QUERY_MAX_LENGTH} characters); required` }),
    }),
  },
  responses: { 200: jsonContent(StaffLookupResult, 'What was found'), ...errors, 403: { description: 'The caller is neither admin nor support (no body)' } },
} as const satisfies RouteConfig;

// ── Staff clip tools ─────────────────────────────────────────────────────────────────────────

export const regenerateClipAudio = {
  method: 'post',
  path: '/internal/tools/clips/{clipId}/regenerate-audio',
  tags: ['Admin'],
  summary: 'Makes the clip’s published audio, waveforms and loudness again from its original upload and its cut, even when they look current',
  description:
    'Admin or support users only (403 otherwise, with no body), for a clip of any organization. Queued as the clip’s processing job (its state and any problem show on the clip as after an upload). ' +
    'A clip that does not exist or is deleted is a 404; one with no audio to make it from is a 409 with a body.',
  request: { params: idParams('clipId') },
  responses: {
    204: noContent,
    ...errors,
    403: { description: 'The caller is neither admin nor support, or sent no x-xsrf-token (no body)' },
    409: jsonContent(BadRequestBodySchema, 'The clip has no audio to make its version from (the error at clipId)'),
  },
} as const satisfies RouteConfig;
