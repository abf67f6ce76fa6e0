import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// Paraglide messages are compiled by `npm run paraglide` (its Vite plugin keeps `vite build`
// alive for ~30 s, ENVIRONMENT.md), so no Paraglide plugin here.
export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      // The page icons index.html links: precached like the shell, so an offline reload finds
      // them (the manifest's icons are added by the plugin itself).
      includeAssets: ['icons/favicon-32.png', 'icons/apple-touch-icon.png'],
      injectManifest: {
        // The plugin adds the web manifest and icons itself; images are cached at runtime.
        globPatterns: ['**/*.{js,css,html,wasm}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      },
      manifest: {
        name: 'Castaway Studio',
        short_name: 'Castaway',
        description: 'Manage audio, programs, playlists and clips — online or offline.',
        lang: 'en-US',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f6f7f9',
        theme_color: '#0f4c5c',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    proxy: { '/api': 'http://localhost:8787' },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
});
