// Runs the upload queue while a user is signed in, so files picked earlier (even in another
// session of the app, before a reload or a restart) continue at app start. The queue and
// tus-js-client load in their own chunk, after the first screen.
import { useEffect } from 'react';

export function useUploadQueue(userId: string | null | undefined): void {
  useEffect(() => {
    if (!userId) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('./queue.ts').then((queue) => {
      if (!cancelled) stop = queue.startUploadQueue(userId);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId]);
}
