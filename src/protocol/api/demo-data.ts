// The demo organizations' snapshot, specification section 7 "Billing, subscription, imports,
// config, demo, reference": save it, and restore it as an operation polled by its Id (section 4).
import type { RouteConfig } from '@hono/zod-openapi';
import { DemoRestoreOperationSchema } from '../admin.ts';
import { errors, idParams, jsonContent, noContent } from './common.ts';

const tags = ['Demo data'];

export const DemoRestoreOperation = DemoRestoreOperationSchema.meta({ id: 'DemoRestoreOperation' });

const Forbidden = { description: 'Not a demo organization, or the caller may not manage its settings and is not an admin (no body)' };

export const saveDemoSnapshot = {
  method: 'post',
  path: '/internal/demo-data',
  tags,
  summary: 'Saves the demo organization’s content as its snapshot (replacing an earlier one)',
  responses: { 204: noContent, 401: errors[401], 403: Forbidden, 404: errors[404] },
} as const satisfies RouteConfig;

export const startDemoRestore = {
  method: 'post',
  path: '/internal/demo-data/restores',
  tags,
  summary: 'Starts restoring the saved snapshot: poll the operation until it is no longer Busy',
  responses: {
    202: jsonContent(DemoRestoreOperation, 'Started: the operation, Busy'),
    401: errors[401],
    403: Forbidden,
    404: { description: 'No snapshot was saved (no body)' },
  },
} as const satisfies RouteConfig;

export const getDemoRestore = {
  method: 'get',
  path: '/internal/demo-data/restores/{operationId}',
  tags,
  summary: 'A restore’s progress (Busy, Success or Failed)',
  request: { params: idParams('operationId') },
  responses: { 200: jsonContent(DemoRestoreOperation, 'The operation'), 401: errors[401], 403: Forbidden, 404: errors[404] },
} as const satisfies RouteConfig;
