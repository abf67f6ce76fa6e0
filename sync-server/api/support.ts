// The support inbox's calls (src/protocol/api/support.ts; what they do: support/inbox.ts), for
// admin and support users only (section 6's Admin section).
import * as routes from '../../src/protocol/api/support.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import { loadCaller } from '../auth.ts';
import { notFound } from '../errors.ts';
import { listEnquiries, setHandled } from '../support/inbox.ts';
import { adminOrSupport } from './admin.ts';
import { guarded, resourceApp } from './route.ts';

export function supportRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listSupportEnquiries, adminOrSupport()), async (c) => {
      const query = c.req.valid('query');
      return c.json(await listEnquiries(c.get('deps').store, query.state ?? [], pageOf(query)), 200);
    })
    .openapi(guarded(routes.updateSupportEnquiry, adminOrSupport()), async (c) => {
      const { user } = (await loadCaller(c))!;
      const enquiry = await setHandled(c.get('deps'), c.req.valid('param').enquiryId, c.req.valid('json').Handled, user.Id);
      if (!enquiry) throw notFound();
      return c.json(enquiry, 200);
    });
}
