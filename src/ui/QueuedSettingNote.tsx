// What a settings form says of this device's change of it through the outbox: saved here and
// waiting to be sent, or crossed by a change made elsewhere (the sync page resolves it). The
// server's refusal is shown by each form at the field it names.
import { m } from '../paraglide/messages.js';
import type { QueuedSetting } from '../lib/normalization.ts';
import { Link } from '../lib/router.ts';

export function QueuedSettingNote({ queued, organizationId }: { queued: Pick<QueuedSetting, 'pending' | 'conflict'>; organizationId: string }) {
  return (
    <>
      {queued.pending && (
        <p className="muted" role="status">
          {m.settings_normalization_pending()}
        </p>
      )}
      {queued.conflict && (
        <p className="alert alert-warning">
          {m.settings_normalization_conflict()} <Link href={`/${organizationId}/sync`}>{m.app_clip_resolve_conflict()}</Link>
        </p>
      )}
    </>
  );
}
