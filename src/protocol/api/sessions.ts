// The signed-in user's sessions (issue 31: "sessions list with sign out everywhere"; not in the
// specification's call list, so under /internal/users/me like the other account calls): each
// browser signed in to the account, when it was last used and from where, and signing one out, or
// every one but this. Session calls only (an API key is refused, 403). Served by
// sync-server/api/sessions.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { errors, idParams, jsonContent, noContent, writeErrors } from './common.ts';

const tags = ['Session'];

export const AccountSession = z
  .object({
    Id: z.string(),
    Current: z.boolean().meta({ description: 'The session this call was made with' }),
    CreatedAtUtc: z.string().meta({ description: 'When it was signed in' }),
    LastSeenAtUtc: z.string().nullable().meta({ description: 'Its last use, to 5 minutes' }),
    ExpiresAtUtc: z.string(),
    Device: z.string().nullable().meta({ description: 'Browser and system, from the User-Agent of its last use (e.g. "Chrome 126 on Android")' }),
    ClientAddress: z.string().nullable().meta({ description: 'The client address of its last use' }),
  })
  .meta({ id: 'AccountSession' });
export type AccountSession = z.infer<typeof AccountSession>;

const byKey = { 403: { description: 'Called with an API key (the error names Authorization), or without x-xsrf-token (no body)' } };

export const listMySessions = {
  method: 'get',
  path: '/internal/users/me/sessions',
  tags,
  summary: 'The browsers signed in to this account, the current one first, then by last use',
  responses: { 200: jsonContent(z.object({ Items: z.array(AccountSession) }), 'The sessions'), ...errors, ...byKey },
} as const satisfies RouteConfig;

export const endMySession = {
  method: 'delete',
  path: '/internal/users/me/sessions/{sessionId}',
  tags,
  summary: 'Signs one of this account’s sessions out (its open event streams close); the current one signs this browser out',
  request: { params: idParams('sessionId') },
  responses: { 204: noContent, ...errors, ...byKey },
} as const satisfies RouteConfig;

export const endMyOtherSessions = {
  method: 'delete',
  path: '/internal/users/me/sessions',
  tags,
  summary: 'Signs every session of this account out but the current one ("sign out everywhere else")',
  responses: { 204: noContent, ...writeErrors, ...byKey },
} as const satisfies RouteConfig;
