// "Normalize again to the current preset" (issue 34): queued on the device like any edit, so it is
// asked offline too and sent when the connection returns; the server's run
// (sync-server/audio/loudness-record.ts) queues the normalization job. The row does not change here:
// the published version does, later, on the server.
import * as z from 'zod';
import { Uuid } from '../protocol/entities.ts';
import { defineMutation } from './define.ts';

export const clipNormalizeLoudness = defineMutation({
  name: 'clip.normalizeLoudness',
  entity: 'clips',
  kind: 'action',
  args: z.object({ clipId: Uuid.transform((s) => s.toLowerCase()) }).strict(),
  rowId: (a) => a.clipId,
  apply: (row) => row,
});
