// The demo organizations' snapshot calls (sections 4, 6 and 7), for the organization of the API
// (x-organization-id): save (POST /internal/demo-data, 204), and restore: start (POST
// /internal/demo-data/restores, 202 with the operation), then poll it by its Id every 1500 ms until
// it is no longer Busy, for at most 90 s (src/domain/polling.ts). Both are online-only: a result
// that is not a success rejects, and the caller shows the error toast of section 8.
import { pollOperation, type Clock } from '../../domain/polling.ts';
import { DemoRestoreOperationSchema, type DemoRestoreOperation } from '../../protocol/admin.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { getDemoRestore, saveDemoSnapshot, startDemoRestore } from '../../protocol/api/demo-data.ts';

export class SnapshotCallError extends Error {
  constructor(readonly result: ApiResult<unknown>) {
    super(result.kind === 'error' ? 'network error' : `HTTP ${result.status}`);
    this.name = 'SnapshotCallError';
  }
}

/** A lost connection or a server error while polling is worth another poll; a 4xx is not. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof SnapshotCallError)) return false;
  const { result } = error;
  return result.kind === 'error' || (result.kind === 'status' && result.status >= 500);
}

const realClock: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

export async function saveSnapshot(): Promise<void> {
  const res = await call(saveDemoSnapshot);
  if (res.kind !== 'ok') throw new SnapshotCallError(res);
}

async function operation(res: ApiResult<unknown>): Promise<DemoRestoreOperation> {
  if (res.kind !== 'ok') throw new SnapshotCallError(res);
  return DemoRestoreOperationSchema.parse(res.data);
}

/** Starts the restore and resolves once it has succeeded; rejects when it failed, timed out or a call was refused. */
export async function restoreSnapshot(clock: Clock = realClock): Promise<void> {
  const initial = await operation(await call(startDemoRestore));
  const outcome = await pollOperation(initial, {
    fetch: async (id) => operation(await call(getDemoRestore, { params: { operationId: id } })),
    isTransient,
    clock,
  });
  if (outcome.status === 'aborted') throw outcome.error;
  if (outcome.status !== 'success') throw new Error(`snapshot restore ${outcome.status}`);
}
