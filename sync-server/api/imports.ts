// Imports from another podcast host (src/protocol/api/imports.ts). An import makes a program, so
// the organization's imports are for a member holding HasCreateProgramAccess at organization
// scope, with HasContentAccess (its lists show episode titles, which are content); an import into
// a playlist needs what writing that playlist's clips needs: content access on its program (the
// guard's 404 for a playlist the caller may not read). The work is sync-server/imports.
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/imports.ts';
import { getAuth } from '../auth.ts';
import type { ImportService } from '../imports/service.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

export function importRoutes(imports: ImportService) {
  const organization = () => guard.organization('HasCreateProgramAccess', 'HasContentAccess');
  const playlist = () => guard.row('playlists', 'playlistId');
  return resourceApp()
    .openapi(guarded(routes.listImports, organization()), async (c) => c.json(await imports.list(getAuth(c).organizationId, null, pageOf(c.req.valid('query'))), 200))
    .openapi(guarded(routes.startImport, organization()), async (c) => {
      const source = await imports.checkSource(c.req.valid('json'));
      return c.json(await imports.create(getAuth(c), source, null), 200);
    })
    .openapi(guarded(routes.retryImport, organization()), async (c) => {
      await imports.retry(getAuth(c).organizationId, c.req.valid('json').ImportId.toLowerCase());
      return c.body(null, 204);
    })
    .openapi(guarded(routes.listPlaylistImports, playlist()), async (c) =>
      c.json(await imports.list(getAuth(c).organizationId, c.var.row.Id, pageOf(c.req.valid('query'))), 200),
    )
    .openapi(guarded(routes.startPlaylistImport, playlist()), async (c) => {
      const source = await imports.checkSource(c.req.valid('json'));
      return c.json(await imports.create(getAuth(c), source, { programId: c.var.program.id, playlistId: c.var.row.Id }), 200);
    })
    .openapi(guarded(routes.refreshPlaylistImport, playlist()), async (c) => c.json(await imports.refresh(getAuth(c), c.var.row.Id, c.var.program.id), 200));
}
