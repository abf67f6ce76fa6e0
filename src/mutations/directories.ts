// A playlist's directory submissions (src/domain/directories.ts): the whole record at once, so a
// record changed elsewhere meanwhile is a conflict on the field Directories (the user chooses,
// nothing is taken silently). Its server run, with section 6 (content access and manage-settings
// access on the program), is sync-server/mutations/directories.ts.
import * as z from 'zod';
import { DirectorySubmissionsSchema, Uuid } from '../protocol/entities.ts';
import { defineMutation } from './define.ts';

const IdArg = Uuid.transform((id) => id.toLowerCase());

export const playlistSetDirectories = defineMutation({
  name: 'playlist.setDirectories',
  entity: 'playlists',
  kind: 'update',
  args: z.object({ playlistId: IdArg, Directories: DirectorySubmissionsSchema }).strict(),
  rowId: (a) => a.playlistId,
  fields: (a) => ({ Directories: a.Directories }),
  withFields: (a, fields) => ({ ...a, Directories: 'Directories' in fields ? (fields['Directories'] as typeof a.Directories) : a.Directories }),
  apply: (row, a) => (row ? { ...row, Directories: { ...a.Directories }, Id: row.Id } : null),
});
