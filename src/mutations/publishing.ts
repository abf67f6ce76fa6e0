// Publish and Unpublish (specification section 4, PublishState): actions on a clip that the device
// shows at once as the pending state (Publishing, Unpublishing) and the server runs as a durable
// job (sync-server/publishing). No base: the last one sent wins, and the job does what the row's
// PublishState says when it runs. Their server runs are sync-server/publishing/mutations.ts.
import * as z from 'zod';
import { Uuid } from '../protocol/entities.ts';
import { defineMutation, type Row } from './define.ts';

const args = z.object({ clipId: Uuid.transform((id) => id.toLowerCase()) }).strict();

/** An action the device shows as its pending state until the server's row arrives. */
const pendingAction = <N extends string>(name: N, state: 'Publishing' | 'Unpublishing') =>
  defineMutation({
    name,
    entity: 'clips',
    kind: 'action',
    args,
    rowId: (a) => a.clipId,
    apply: (row: Row | null) => (row ? { ...row, PublishState: state, PublishProblem: null } : null),
  });

export const clipPublish = pendingAction('clip.publish', 'Publishing');
export const clipUnpublish = pendingAction('clip.unpublish', 'Unpublishing');
