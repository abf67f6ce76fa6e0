// 'Save organization snapshot' and 'Restore organization from snapshot' (section 6, demo
// organizations): the organization menu opens the confirm dialog through this small store; the
// dialog itself (snapshot-dialog.tsx, with Ark's dialog) loads the first time it is needed.
import { lazy, Suspense, useState } from 'react';
import { setShared, sharedState, useShared } from '../../lib/store.ts';

export type SnapshotRequest = { kind: 'save' | 'restore'; organizationId: string };

const snapshotRequest = sharedState<SnapshotRequest | null>(null);

export function openSnapshotDialog(request: SnapshotRequest | null): void {
  setShared(snapshotRequest, request);
}

const SnapshotDialog = lazy(() => import('./snapshot-dialog.tsx').then((mod) => ({ default: mod.SnapshotDialog })));

export function SnapshotDialogHost() {
  const request = useShared(snapshotRequest);
  const [needed, setNeeded] = useState(false);
  if (!needed && request !== null) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <SnapshotDialog request={request} onClose={() => openSnapshotDialog(null)} />
    </Suspense>
  );
}
