// Members of a program and their private feeds, and the program's signing keys (issue 29;
// specification section 7 "Programs, networks, playlists, members"). The rules are in
// src/domain/member-feeds.ts; served by sync-server/api/members.ts. Members and keys are
// server-held secrets: no named mutation (nothing of them is edited offline), and key material
// never leaves the server (only its id, times and state).
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { MEMBER_EMAIL_EXISTS, validateMemberEmail, validateMemberName, validateMemberNote } from '../../domain/member-feeds.ts';
import { BoolQuery, checkedString, createErrors, errors, idParams, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, writeErrors } from './common.ts';

const tags = ['Members'];

export const Member = z
  .object({
    Id: z.uuid(),
    ProgramId: z.uuid(),
    Name: z.string(),
    Email: z.string(),
    Note: z.string().nullable(),
    CreatedAtUtc: z.string(),
    ModifiedAtUtc: z.string(),
    /** A revoked member's feed and signed URLs answer as if they did not exist. */
    Revoked: z.boolean(),
    RevokedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'Member', description: 'A member of a program: a listener with a private feed (the token is never shown; ask for the URL)' });
export type Member = z.infer<typeof Member>;

const Name = checkedString(validateMemberName);
const Email = checkedString(validateMemberEmail).transform((v) => v.trim());
const Note = checkedString(validateMemberNote).nullable();

export const MemberCreate = z.object({ Name, Email, Note: Note.optional() }).strict().meta({ id: 'MemberCreate' });
export const MemberPatch = z
  .object({ Name: Name.optional(), Email: Email.optional(), Note: Note.optional(), Revoked: z.boolean().optional() })
  .strict()
  .meta({ id: 'MemberPatch', description: 'Revoked true: the member’s private feed and signed URLs stop working at once; false gives them back' });

export const SigningKey = z
  .object({
    Id: z.uuid(),
    ProgramId: z.uuid(),
    CreatedAtUtc: z.string(),
    State: z.enum(['Current', 'Retiring', 'Retired']),
    /** When a rotated key stops verifying; null for the current key. */
    RetiresAtUtc: z.string().nullable(),
  })
  .meta({ id: 'SigningKey', description: 'A key that signs members’ media URLs (its material is never returned)' });
export type SigningKey = z.infer<typeof SigningKey>;
export const SigningKeys = z.object({ Items: z.array(SigningKey) }).meta({ id: 'SigningKeys' });

export const MemberUrl = z
  .object({ Url: z.string(), ExpiresAtUtc: z.string().nullable(), AdFree: z.boolean().optional() })
  .meta({ id: 'MemberUrl', description: 'An absolute URL for one member (a feed URL does not expire; a media URL does)' });

/** `type` of a member's feed URL: the https address, or the same with podcast:// (opens a podcast app's subscribe screen). */
export const MEMBER_FEED_URL_TYPES = ['feed', 'podcast'] as const;

const ProgramParams = idParams('programId');
const MemberParams = idParams('memberId');
const forbiddenNote = 'Needs content and manage-settings access on the program (members are listed to those who can edit its settings)';
const emailNote = `An address another member of the program has (not revoked; compared trimmed, in any case) is a 400 at Email, code ${MEMBER_EMAIL_EXISTS}, also when two requests race`;

export const listMembers = {
  method: 'get',
  path: '/v1/programs/{programId}/members',
  tags,
  summary: 'The program’s members by name',
  description: `${forbiddenNote}. filter: part of a name or e-mail address, any case.`,
  request: { params: ProgramParams, query: z.object({ ...PagingQuery, filter: z.string().max(200).optional().meta({ description: 'Part of a name or e-mail address' }) }) },
  responses: { 200: jsonContent(PagedOf(Member), 'A page of members'), ...errors },
} as const satisfies RouteConfig;

export const createMember = {
  method: 'post',
  path: '/v1/programs/{programId}/members',
  tags,
  summary: 'Adds a member (with a new private feed token)',
  description: `${forbiddenNote}. ${emailNote}.`,
  request: { params: ProgramParams, body: jsonBody(MemberCreate) },
  responses: { 201: jsonContent(Member, 'The new member'), ...createErrors },
} as const satisfies RouteConfig;

export const updateMember = {
  method: 'patch',
  path: '/v1/members/{memberId}',
  tags,
  summary: 'Changes a member (name, e-mail, note, revoked)',
  description: `${forbiddenNote}; a member the caller may not manage is a 404. ${emailNote}; so is restoring a revoked member whose address another member has since been given.`,
  request: { params: MemberParams, body: jsonBody(MemberPatch) },
  responses: { 200: jsonContent(Member, 'The member after the change'), ...writeErrors },
} as const satisfies RouteConfig;

export const deleteMember = {
  method: 'delete',
  path: '/v1/members/{memberId}',
  tags,
  summary: 'Removes a member: their private feed and signed URLs answer 404 / 403 at once',
  request: { params: MemberParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const resetMemberToken = {
  method: 'post',
  path: '/v1/members/{memberId}/token',
  tags,
  summary: 'Issues the member a new token: the old private feed URL stops working at once',
  request: { params: MemberParams },
  responses: { 200: jsonContent(Member, 'The member (the token itself is only in the URLs)'), ...errors },
} as const satisfies RouteConfig;

export const memberFeedUrl = {
  method: 'get',
  path: '/internal/playlists/{playlistId}/members/{memberId}/url',
  tags,
  summary: 'A member’s private feed URL of the playlist (absolute)',
  description: `type: ${MEMBER_FEED_URL_TYPES.join(' (default) or ')} (the same address with the podcast:// scheme). The member must be of the playlist’s program.`,
  request: {
    params: idParams('playlistId', 'memberId'),
    query: z.object({ type: z.enum(MEMBER_FEED_URL_TYPES).optional() }),
  },
  responses: { 200: jsonContent(MemberUrl, 'The URL'), ...errors },
} as const satisfies RouteConfig;

export const memberClipUrl = {
  method: 'get',
  path: '/internal/clips/{clipId}/members/{memberId}/url',
  tags,
  summary: 'A signed, expiring URL of the clip’s published audio for one member',
  description: 'Signed with the program’s current key (made when first needed); ad-free when the clip’s MemberDownloadsAdFree is true. The URL serves only while the clip is published and not Private, the member is not revoked and the key not retired.',
  request: { params: idParams('clipId', 'memberId') },
  responses: { 200: jsonContent(MemberUrl, 'The URL and when it expires'), ...errors },
} as const satisfies RouteConfig;

export const listSigningKeys = {
  method: 'get',
  path: '/v1/programs/{programId}/signing-keys',
  tags,
  summary: 'The program’s signing keys, newest first (no key material)',
  request: { params: ProgramParams },
  responses: { 200: jsonContent(SigningKeys, 'The keys'), ...errors },
} as const satisfies RouteConfig;

export const rotateSigningKey = {
  method: 'post',
  path: '/v1/programs/{programId}/signing-keys/{signingKeyId}/rotate',
  tags,
  summary: 'Rotates the current key: a new key signs from now on, the old one verifies until RetiresAtUtc',
  description: 'A key that is not the current one is a 400 naming signingKeyId.',
  request: { params: idParams('programId', 'signingKeyId') },
  responses: { 200: jsonContent(SigningKeys, 'The keys after the rotation'), ...errors },
} as const satisfies RouteConfig;

// ── The public surface (outside /api, no session) ────────────────────────────────────────────
const ConditionalHeaders = z.object({
  'if-none-match': z.string().max(2000).optional().meta({ description: 'ETags the client holds: 304 when one is current' }),
  'if-modified-since': z.string().max(100).optional().meta({ description: 'An HTTP date: 304 when nothing changed since' }),
});

export const getMemberFeed = {
  method: 'get',
  path: '/feeds/{playlistId}/members/{tokenFile}',
  tags,
  summary: 'A member’s private feed of a playlist: Restricted clips too, each enclosure a signed media URL (podcast:locked, itunes:block)',
  request: {
    params: z.object({
      playlistId: z.string().meta({ param: { name: 'playlistId', in: 'path' }, description: 'The playlist' }),
      tokenFile: z.string().meta({ param: { name: 'tokenFile', in: 'path' }, description: 'The member’s token followed by .xml' }),
    }),
    // The premium feed without ads (issue 33, playlist-premium-feed-urls with adFree): every
    // enclosure signed for the ad-free audio, whatever the clip's MemberDownloadsAdFree says.
    query: z.object({ adFree: BoolQuery.meta({ description: 'true: every enclosure the ad-free audio' }) }),
    headers: ConditionalHeaders,
  },
  responses: {
    200: { description: 'The feed', content: { 'application/rss+xml': { schema: z.string().meta({ description: 'RSS 2.0 XML' }) } } },
    304: { description: 'Not modified (no body)' },
    404: { description: 'No such playlist or token, a revoked or removed member, a Private playlist, or a member of another program: all alike (no body)' },
  },
} as const satisfies RouteConfig;

const binary = z.string().meta({ format: 'binary' });
const audioFile = { 'audio/*': { schema: binary }, 'video/*': { schema: binary } };

export const getMemberAudio = {
  method: 'get',
  path: '/audio/m/{memberId}/{clipFile}',
  tags,
  summary: 'A clip’s published audio through a member’s signed URL (HTTP Range, ETag)',
  description:
    '403 when the URL does not grant the audio: a signature that does not verify, an expired URL, a retired key, a revoked or removed member. The signature is checked before anything about the clip is looked at, so a 403 says nothing about whether the clip exists; a valid URL for a clip that has nothing to serve (unpublished, Private, deleted) is a 404 as for public audio.',
  request: {
    params: z.object({
      memberId: z.string().meta({ param: { name: 'memberId', in: 'path' }, description: 'The member' }),
      clipFile: z.string().meta({ param: { name: 'clipFile', in: 'path' }, description: '{clipId}.{ext}' }),
    }),
    query: z.object({
      k: z.string().optional().meta({ description: 'The signing key’s id' }),
      exp: z.string().optional().meta({ description: 'Expiry, unix seconds' }),
      af: z.string().optional().meta({ description: '1: ad-free audio' }),
      sig: z.string().optional().meta({ description: 'HMAC-SHA256, base64url' }),
      src: z.string().optional(),
    }),
    headers: z.object({ range: z.string().optional(), 'if-none-match': z.string().optional(), 'if-range': z.string().optional() }),
  },
  responses: {
    200: { description: 'The published audio, whole', content: audioFile },
    206: { description: 'The byte range asked for', content: audioFile },
    304: { description: 'Not modified' },
    403: { description: 'The URL does not grant this audio (no body)' },
    404: { description: 'A valid URL for a clip with nothing to serve (no body)' },
    416: { description: 'The range starts past the end' },
  },
} as const satisfies RouteConfig;
export const headMemberAudio = { ...getMemberAudio, method: 'head', summary: `${getMemberAudio.summary} (headers only)` } as const satisfies RouteConfig;
