// API keys, specification section 7 ("API keys"; issue 31): a signed-in user's keys for calling the
// API from a script or another system with `Authorization: Bearer <key>`. Served by
// sync-server/api/api-keys.ts; the Bearer check itself is sync-server/auth.ts.
//
//   GET    /internal/api-keys             ──> the caller's live keys in this organization
//   GET    /internal/api-keys/{apiKeyId}  ──> one of them (another user's, or a revoked one: 404)
//   POST   /internal/api-keys { Name }    ──> 201 with Key, the secret, shown this once (only its hash is kept)
//   DELETE /internal/api-keys/{apiKeyId}  ──> 204: revoked, refused at once as a Bearer
//
// A key acts as its user in its organization, with the user's permissions there as they are at
// each call (a permission taken away, or the membership removed, takes it from the key too).
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import type { FormError } from '../../domain/form-errors.ts';
import { validateName } from '../../domain/validators.ts';
import { BadRequestBodySchema } from '../errors.ts';
import { checkedString, errors, idParams, jsonBody, jsonContent, noContent, writeErrors } from './common.ts';

const tags = ['API keys'];

/** What every key starts with, so a key pasted where it should not be is easy to find (secret scanners). */
export const API_KEY_PREFIX = 'cak_';

export const ApiKey = z
  .object({
    Id: z.uuid(),
    OrganizationId: z.uuid(),
    Name: z.string(),
    CreatedAtUtc: z.string(),
    /** When the key was last used as a Bearer (to the minute: a key in steady use is not written at every call); null: never. */
    LastUsedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'ApiKey', description: 'An API key of the caller (its secret is never shown again after the create)' });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyWithSecret = ApiKey.extend({
  Key: z.string().meta({ description: `The key to send as Authorization: Bearer <Key>: ${API_KEY_PREFIX} and 43 characters. Shown this once` }),
}).meta({ id: 'ApiKeyWithSecret', description: 'The new key, with its secret (shown this once)' });
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;

export const ApiKeyCreate = z
  .object({ Name: checkedString((v) => validateName(v)).meta({ description: 'What the key is for, to tell keys apart: required, 100 characters at most', example: 'Nightly import' }) })
  .strict()
  .meta({ id: 'ApiKeyCreate' });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

/** The create form's one rule, run by the screen as the user submits (the server runs it through the schema). */
export function apiKeyCreateFormErrors(input: ApiKeyCreate): Partial<Record<keyof ApiKeyCreate, FormError>> {
  const name = validateName(input.Name);
  return name ? { Name: name } : {};
}

const ApiKeyParams = idParams('apiKeyId');

const access = 'The caller’s own keys in the organization (x-organization-id); another user’s key is a 404, whatever the caller’s permissions';

export const listApiKeys = {
  method: 'get',
  path: '/internal/api-keys',
  tags,
  summary: 'The caller’s API keys in this organization that are not revoked, newest first',
  description: access,
  responses: { 200: jsonContent(z.array(ApiKey), 'The keys (never their secrets)'), ...errors },
} as const satisfies RouteConfig;

export const getApiKey = {
  method: 'get',
  path: '/internal/api-keys/{apiKeyId}',
  tags,
  summary: 'One of the caller’s API keys',
  description: access,
  request: { params: ApiKeyParams },
  responses: { 200: jsonContent(ApiKey, 'The key (never its secret)'), ...errors },
} as const satisfies RouteConfig;

export const createApiKey = {
  method: 'post',
  path: '/internal/api-keys',
  tags,
  summary: 'Makes an API key for the caller in this organization: the answer carries its secret, which is never shown again',
  description: 'Only from a signed-in session: a call made with an API key is refused (403 naming Authorization), so a leaked key cannot make itself successors that outlive its revocation',
  request: { body: jsonBody(ApiKeyCreate) },
  responses: {
    201: jsonContent(ApiKeyWithSecret, 'The new key and its secret'),
    ...writeErrors,
    403: { description: 'Made with an API key, or by an account whose e-mail address is not confirmed yet: a body naming the reason (Authorization, account)', content: { 'application/json': { schema: BadRequestBodySchema } } },
  },
} as const satisfies RouteConfig;

export const revokeApiKey = {
  method: 'delete',
  path: '/internal/api-keys/{apiKeyId}',
  tags,
  summary: 'Revokes one of the caller’s API keys: from now on it is refused (401) wherever it is sent',
  description: access,
  request: { params: ApiKeyParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;
