// Runs the upload queue while a user is signed in, so files picked earlier (even in another
// session of the app, before a reload or a restart) continue at app start. The queue and
// tus-js-client load in their own chunk, and only once the user has a file waiting: most visits
// have none, and the signed-in first screen stays within its 180 KB budget (bench:app).
import { useEffect, useState } from 'react';
import { liveQuery } from '../db/db.ts';
import { uploadsDb } from '../db/upload-db.ts';

export function useUploadQueue(userId: string | null | undefined): void {
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (!userId || needed) return;
    const waiting = liveQuery(() =>
      uploadsDb.uploads
        .where('userId')
        .equals(userId)
        .filter((r) => r.state === 'queued' || r.state === 'uploading')
        .count(),
    ).subscribe({ next: (count) => count > 0 && setNeeded(true) });
    return () => waiting.unsubscribe();
  }, [userId, needed]);
  useEffect(() => {
    if (!userId || !needed) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('./upload-queue.ts').then((queue) => {
      if (!cancelled) stop = queue.startUploadQueue(userId);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, needed]);
}
