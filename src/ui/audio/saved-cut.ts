// The cut a clip opens with: the one still waiting in the outbox (the local row's PendingCut), else
// the one the server keeps (GET /internal/clips/{clipId}/cut, which answers 204 when none was
// saved), else none. Offline the server's cannot be asked: the clip opens uncut, as before.
import { call } from '../../lib/api.ts';
import { getClipCut } from '../../protocol/api/media.ts';
import { CutEditSchema, type CutEdit } from '../../protocol/media.ts';

export async function savedClipCut(clipId: string, pendingCut: unknown): Promise<CutEdit | null> {
  const pending = CutEditSchema.safeParse(pendingCut);
  if (pending.success) return pending.data;
  const res = await call(getClipCut, { params: { clipId } });
  if (res.kind !== 'ok') return null;
  const saved = CutEditSchema.safeParse(res.data);
  return saved.success ? saved.data : null;
}
