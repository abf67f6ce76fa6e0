// Playlist mutations beyond the content ones (src/mutations/content.ts): the auto-add rule. Its
// server run, with section 6 (content access and manage-settings access on the program), is
// sync-server/mutations/playlists.ts.
import * as z from 'zod';
import { normaliseAutoAddRule } from '../domain/auto-add.ts';
import { AutoAddRuleSchema, Uuid } from '../protocol/entities.ts';
import { defineMutation } from './define.ts';

const IdArg = Uuid.transform((id) => id.toLowerCase());

/** The playlist's whole auto-add rule (null: none), on the row's base: a rule changed elsewhere
 * meanwhile is a conflict on the field AutoAdd, as any field of the playlist. */
export const playlistSetAutoAdd = defineMutation({
  name: 'playlist.setAutoAdd',
  entity: 'playlists',
  kind: 'update',
  args: z.object({ playlistId: IdArg, AutoAdd: AutoAddRuleSchema.nullable() }).strict(),
  rowId: (a) => a.playlistId,
  fields: (a) => ({ AutoAdd: a.AutoAdd }),
  withFields: (a, fields) => ({ ...a, AutoAdd: 'AutoAdd' in fields ? (fields['AutoAdd'] as typeof a.AutoAdd) : a.AutoAdd }),
  apply: (row, a) => (row ? { ...row, AutoAdd: a.AutoAdd === null ? null : normaliseAutoAddRule(a.AutoAdd), Id: row.Id } : null),
});
