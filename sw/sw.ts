/// <reference lib="webworker" />
// Castaway Studio service worker (vite-plugin-pwa injectManifest).
//
//   install ──> waiting ──(page posts {type:'SKIP_WAITING'})──> activate ──> clients.claim()
//
// The app shell (JS, CSS, HTML) is precached, every navigation (any route of the SPA) is answered
// with the precached index.html so the studio opens offline; images are cached at runtime.
// skipWaiting happens only when the page asks: the page's update prompt waits while the outbox is
// flushing or a form has unsaved changes.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { IMAGE_CACHE_NAME } from '../src/protocol/cache-names.ts';
import { PUBLIC_PREFIXES } from '../src/domain/public-urls.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    // The public pages (show pages, the embed player, feeds) are the server's, not the studio's screens.
    denylist: [/^\/api\//, /^\/logout/, ...PUBLIC_PREFIXES.map((prefix) => new RegExp(`^${prefix}`))],
  }),
);

registerRoute(
  ({ request, url }) => request.destination === 'image' && !url.pathname.startsWith('/api/'),
  new CacheFirst({
    cacheName: IMAGE_CACHE_NAME,
    // exactOptionalPropertyTypes: the plugin's optional callbacks are typed without undefined.
    plugins: [new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600 }) as WorkboxPlugin],
  }),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING') {
    void self.skipWaiting();
  }
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
