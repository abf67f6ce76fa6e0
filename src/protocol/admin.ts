// Wire schemas of the admin and demo-data calls (specification section 7, "Images and admin" and
// "Demo"): grant access to an organization, and the demo organizations' snapshot restore, whose
// start answers 202 with the operation's progress, later fetched by its Id (section 4 polling).
import * as z from 'zod';

/** POST /admin/users/me/organizations. The id is checked as a GUID by the route (400 naming the field). */
export const GrantOrganizationAccessSchema = z.object({ OrganizationId: z.string().nullable() }).strict();
export type GrantOrganizationAccess = z.infer<typeof GrantOrganizationAccessSchema>;

export const OperationStatusSchema = z.enum(['Busy', 'Failed', 'Success']);

/** POST /internal/demo-data/restores (202) and GET /internal/demo-data/restores/{operationId} (200). */
export const DemoRestoreOperationSchema = z.object({ Id: z.uuid(), Status: OperationStatusSchema });
export type DemoRestoreOperation = z.infer<typeof DemoRestoreOperationSchema>;
