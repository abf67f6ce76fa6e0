// The cut a clip opens with: the one still waiting in the outbox (the local row's PendingCut), else
// the one the server keeps (GET /internal/clips/{clipId}/cut, which answers 204 when none was
// saved; every answer is kept on the device, src/db/cut-cache-db.ts), else, offline or when the
// server cannot be reached, the one this device last knew. A clip whose cut this device never
// learnt opens uncut, and says so ('unknown').
import { cachedCut, rememberCut } from '../../db/cut-cache-db.ts';
import { call } from '../../lib/api.ts';
import { getClipCut } from '../../protocol/api/media.ts';
import { CutEditSchema, type CutEdit } from '../../protocol/media.ts';

export type OpeningCut = { cut: CutEdit | null; from: 'pending' | 'server' | 'device' | 'unknown' };

export async function savedClipCut(clipId: string, pendingCut: unknown, options: { online: boolean }): Promise<OpeningCut> {
  const pending = CutEditSchema.safeParse(pendingCut);
  if (pending.success) return { cut: pending.data, from: 'pending' };
  if (options.online) {
    const res = await call(getClipCut, { params: { clipId } });
    if (res.kind === 'ok') {
      const saved = CutEditSchema.safeParse(res.data);
      const cut = saved.success ? saved.data : null;
      // The device's copy is a convenience: a full disk must not keep the editor from opening.
      await rememberCut(clipId, cut).catch(() => undefined);
      return { cut, from: 'server' };
    }
    if (res.kind === 'notFound') return { cut: null, from: 'server' };
    // Unreachable, or the server failed: what this device last knew.
  }
  const kept = await cachedCut(clipId).catch(() => undefined);
  return kept === undefined ? { cut: null, from: 'unknown' } : { cut: kept, from: 'device' };
}

/** A cut the user saved in the editor: the device keeps it as the clip's last saved cut. */
export function rememberSavedCut(clipId: string, cut: CutEdit): Promise<void> {
  return rememberCut(clipId, cut).catch(() => undefined);
}
