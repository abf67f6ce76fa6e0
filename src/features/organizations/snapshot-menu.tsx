// 'Save organization snapshot' and 'Restore organization from snapshot' (section 6, demo
// organizations): the organization menu opens the confirm dialog through this small store; the
// dialog itself (snapshot-dialog.tsx, with Ark's dialog) loads the first time it is needed.
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';

export type SnapshotRequest = { kind: 'save' | 'restore'; organizationId: string };

let current: SnapshotRequest | null = null;
const listeners = new Set<() => void>();

export function openSnapshotDialog(request: SnapshotRequest | null): void {
  current = request;
  listeners.forEach((l) => l());
}

function useSnapshotRequest(): SnapshotRequest | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

const SnapshotDialog = lazy(() => import('./snapshot-dialog.tsx').then((mod) => ({ default: mod.SnapshotDialog })));

export function SnapshotDialogHost() {
  const request = useSnapshotRequest();
  const [needed, setNeeded] = useState(false);
  if (!needed && request !== null) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <SnapshotDialog request={request} onClose={() => openSnapshotDialog(null)} />
    </Suspense>
  );
}
