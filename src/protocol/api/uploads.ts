// Resumable uploads of clip audio (src/protocol/uploads.ts): the tus 1.0 calls as the API document
// describes them. @tus/server speaks the protocol (sync-server/uploads), so the declarations name
// the headers it reads and the answers it gives, and no schema here validates a body: a PATCH body
// is bytes of the file, streamed to disk.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { UploadMetadataKey } from '../uploads.ts';
import { errors } from './common.ts';

const tags = ['Uploads'];

const binary = { type: 'string', format: 'binary' } as const;
const header = (description: string) => ({ description, schema: { type: 'string' } }) as const;

const TusResumable = z.string().optional().meta({ description: 'The protocol version the client speaks: 1.0.0' });
const UploadParams = z.object({ id: z.string().max(128).meta({ param: { name: 'id', in: 'path' }, description: 'The upload, as its Location named it' }) });

const uploadErrors = {
  401: errors[401],
  403: errors[403],
  404: { description: 'No such upload, or not the caller’s; or (creation) a clip the caller may not see (no body)' },
  410: { description: 'The upload expired' },
  412: { description: 'Tus-Resumable names a version the server does not speak' },
} as const;

export const createUpload = {
  method: 'post',
  path: '/internal/uploads',
  tags,
  summary: 'Starts a resumable upload of a clip’s audio (tus creation)',
  description: `Upload-Metadata carries ${UploadMetadataKey.FileName} and ${UploadMetadataKey.ClipId} (base64, tus style). The section 5 file rules are applied to the name and Upload-Length before anything is stored, with the same 400 bodies as PUT /api/v1/clips/{clipId}/audio.`,
  request: {
    headers: z.object({
      'tus-resumable': TusResumable,
      'upload-length': z.string().optional().meta({ description: 'The file’s size in bytes (required)' }),
      'upload-metadata': z.string().optional().meta({ description: `Comma-joined "key base64(value)": ${UploadMetadataKey.FileName} and ${UploadMetadataKey.ClipId}` }),
    }),
  },
  responses: {
    201: { description: 'Created, offset 0', headers: { Location: header('The upload’s URL'), 'Upload-Expires': header('When an unfinished upload is deleted') } },
    400: errors[400],
    ...uploadErrors,
    413: { description: 'Upload-Length is over what the server takes' },
    429: { description: 'The user already holds as many unfinished uploads as allowed' },
  },
} as const satisfies RouteConfig;

export const getUpload = {
  method: 'get',
  path: '/internal/uploads/{id}',
  tags,
  summary: 'Where to resume: the bytes the server holds (Upload-Offset), as headers; a finished upload answers complete',
  description: 'tus asks with HEAD (below); a GET answers the same headers, with no body (the bytes of an upload are never sent back).',
  request: { params: UploadParams, headers: z.object({ 'tus-resumable': TusResumable }) },
  responses: {
    200: { description: 'The upload', headers: { 'Upload-Offset': header('Bytes received'), 'Upload-Length': header('The file’s size') } },
    ...uploadErrors,
  },
} as const satisfies RouteConfig;
export const headUpload = { ...getUpload, method: 'head', summary: 'Where to resume: the bytes the server holds (Upload-Offset); a finished upload answers complete' } as const satisfies RouteConfig;

export const patchUpload = {
  method: 'patch',
  path: '/internal/uploads/{id}',
  tags,
  summary: 'Sends bytes from Upload-Offset on; the last byte hands the file to the clip’s audio processing',
  request: {
    params: UploadParams,
    headers: z.object({ 'tus-resumable': TusResumable, 'upload-offset': z.string().optional().meta({ description: 'Where these bytes start: the server’s offset (required)' }) }),
    body: { required: true, description: 'The next bytes of the file', content: { 'application/offset+octet-stream': { schema: binary } } },
  },
  responses: {
    204: { description: 'Received', headers: { 'Upload-Offset': header('Bytes received now') } },
    ...uploadErrors,
    409: { description: 'Upload-Offset is not the server’s offset' },
    415: { description: 'The body is not application/offset+octet-stream' },
  },
} as const satisfies RouteConfig;

export const deleteUpload = {
  method: 'delete',
  path: '/internal/uploads/{id}',
  tags,
  summary: 'Cancels an unfinished upload (tus termination)',
  request: { params: UploadParams, headers: z.object({ 'tus-resumable': TusResumable }) },
  responses: { 204: { description: 'Deleted' }, ...uploadErrors },
} as const satisfies RouteConfig;

export const uploadOptions = {
  method: 'options',
  path: '/internal/uploads',
  tags,
  summary: 'What the server speaks: Tus-Version, Tus-Extension (creation, termination, expiration), Tus-Max-Size',
  responses: {
    204: { description: 'The server’s tus capabilities', headers: { 'Tus-Version': header('1.0.0'), 'Tus-Extension': header('The extensions served'), 'Tus-Max-Size': header('The largest file, in bytes') } },
    401: errors[401],
  },
} as const satisfies RouteConfig;
