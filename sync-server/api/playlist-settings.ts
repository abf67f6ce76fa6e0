// A playlist's settings: its auto-add rule, read from the playlist's row and written through the
// named mutation playlist.setAutoAdd (so a REST call and a queued offline edit are judged alike).
import { autoAddRuleOf } from '../../src/domain/auto-add.ts';
import type { AutoAddRule } from '../../src/protocol/entities.ts';
import * as routes from '../../src/protocol/api/playlist-settings.ts';
import { playlistSetAutoAdd } from '../../src/mutations/playlists.ts';
import { etagOf, ifMatch } from '../http.ts';
import { runRest } from '../mutations/rest.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

const ruleOf = (row: Record<string, unknown>) => autoAddRuleOf(row as { AutoAdd?: AutoAddRule | null });

export function playlistSettingsRoutes() {
  return resourceApp()
    .openapi(guarded(routes.getAutoAdd, guard.row('playlists', 'playlistId')), (c) => {
      c.header('ETag', etagOf(c.var.row));
      return c.json(ruleOf(c.var.row), 200);
    })
    .openapi(guarded(routes.updateAutoAdd, guard.row('playlists', 'playlistId', 'HasContentAccess', 'HasManageSettingsAccess')), async (c) => {
      // The fields sent over the rule as the guard read it; the mutation carries the whole rule, so
      // the three-way merge of a stale If-Match compares rules, as a device's queued edit does.
      const rule = { ...ruleOf(c.var.row), ...c.req.valid('json') };
      const row = await runRest(c, playlistSetAutoAdd, { playlistId: c.var.row.Id, AutoAdd: rule }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.json(ruleOf(row), 200);
    });
}
