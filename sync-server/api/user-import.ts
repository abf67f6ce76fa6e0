// Bulk user import's routes (section 7; src/protocol/api/user-import.ts): manage-user access at
// organization scope, as a single invitation needs; the rows' work is accounts/bulk-import.ts.
import * as routes from '../../src/protocol/api/user-import.ts';
import { importUsers, latestImportReport } from '../accounts/bulk-import.ts';
import { getAuth } from '../auth.ts';
import { notFound } from '../errors.ts';
import { mailOrigin } from '../public-origin.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

export function userImportRoutes() {
  return resourceApp()
    .openapi(guarded(routes.importUsers, guard.organization('HasManageUserAccess')), async (c) => {
      const auth = getAuth(c);
      const report = await importUsers(c.get('deps'), { organizationId: auth.organizationId, user: auth.user }, c.req.valid('json'), mailOrigin(c));
      return c.json(report, 200);
    })
    .openapi(guarded(routes.getUserImportReport, guard.organization('HasManageUserAccess')), async (c) => {
      const report = await latestImportReport(c.get('deps'), getAuth(c).organizationId);
      if (!report) throw notFound();
      return c.json(report, 200);
    });
}
