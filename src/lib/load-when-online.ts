// Server-only state a screen loads (account keys, two-factor, the organization's users): loaded on
// mount and again whenever the browser comes back online, so a screen opened offline fills in
// without a reload.
import { useEffect } from 'react';

/** Loads what lives on the server only (API keys, two-factor sign-in, users) now, and again when the
 * network comes back. */
export function useLoadWhenOnline(load: () => Promise<void>): void {
  useEffect(() => {
    void load();
    const again = () => void load();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [load]);
}
