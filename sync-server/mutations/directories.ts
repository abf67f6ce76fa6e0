// The server run of playlist.setDirectories (src/mutations/directories.ts): the record checked by
// the domain's rule (a listing URL of another site is a 400 at its field), and who did what taken
// from the session, not from the device: an entry the change touches is stamped with the caller.
import { directoriesErrors, directoriesOf, type DirectorySubmissions } from '../../src/domain/directories.ts';
import { deepEqual } from '../../src/protocol/json-equal.ts';
import { playlistSetDirectories } from '../../src/mutations/directories.ts';
import { badRequest, fieldError } from '../errors.ts';
import { checkPrecondition } from '../http.ts';
import { serverMutation } from './run.ts';
import { lockContent, requireFlags } from './store.ts';

/** The sent record with each changed entry's authors the caller (dates as the device made them:
 * when the user did it, offline too). */
function stamped(current: DirectorySubmissions, sent: DirectorySubmissions, userId: string): DirectorySubmissions {
  const out: DirectorySubmissions = {};
  for (const [id, s] of Object.entries(sent) as [keyof DirectorySubmissions, NonNullable<DirectorySubmissions[keyof DirectorySubmissions]>][]) {
    const before = current[id];
    if (deepEqual(before, s)) {
      out[id] = s;
      continue;
    }
    const submittedChanged = before?.SubmittedAtUtc !== s.SubmittedAtUtc;
    const removedChanged = before?.RemovedAtUtc !== s.RemovedAtUtc;
    out[id] = {
      ...s,
      SubmittedById: s.SubmittedAtUtc === null ? null : submittedChanged ? userId : (before?.SubmittedById ?? userId),
      RemovedById: s.RemovedAtUtc === null ? null : removedChanged ? userId : (before?.RemovedById ?? userId),
    };
  }
  return out;
}

export const DIRECTORY_RUNS = [
  serverMutation(playlistSetDirectories, async (s, a, expected) => {
    const { current, flags } = await lockContent(s, 'playlist', a.playlistId);
    // Where a feed is listed is a setting of the playlist (section 6: managing settings needs content access).
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    const errors = directoriesErrors(a.Directories);
    if (errors.length > 0) throw badRequest(errors.map((e) => fieldError(e.field, e.error)));
    const userId = s.write.userId ?? s.auth.user.Id;
    return s.update('playlist', current, { ...current, Directories: stamped(directoriesOf(current), a.Directories, userId) });
  }),
];
