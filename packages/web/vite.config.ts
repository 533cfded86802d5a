import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstPaint } from './scripts/first-paint.js';
import { JSON_SCHEMA_CHUNK, lazyJsonSchema } from './scripts/lazy-json-schema.js';
import { preactAlias } from './scripts/preact-alias.js';

/** The installed app's colours: the page's background (`--bg` in src/styles.css). */
const THEME = '#0b1020';

// The engine and rulesets are bundled from their TypeScript sources (the `@roundkeeper/source` condition),
// so the web build needs no prior build of the other packages.
//
// The app is installable (docs/web.md, "Installable app"): vite-plugin-pwa writes the web app manifest and a
// Workbox service worker that precaches the shell this build made (HTML, JS, CSS, icons) and nothing else:
// the API and the live socket always go to the server.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    // The JSX transform. No Fast Refresh: React's refresh runtime drives React's renderer, not Preact's, so
    // an edit under `vite dev` reloads the page (left on, it reported the module updated and drew nothing).
    react({ refreshExclude: /./ }),
    // zod's JSON-Schema code is a chunk of its own, loaded by the screens with forms (scripts/lazy-json-schema.ts).
    lazyJsonSchema(),
    // What each page needs at first paint, for the server to preload with an encounter's page and for
    // src/bundle.test.ts to count (scripts/first-paint.ts). The GM's and a player's screens read their
    // actions and forms with zod's JSON-Schema code; the table's has no form.
    firstPaint({
      home: ['src/screens/home/Home.tsx', JSON_SCHEMA_CHUNK],
      gm: ['src/screens/EncounterPage.tsx', 'src/screens/gm/GmTracker.tsx', JSON_SCHEMA_CHUNK],
      table: ['src/screens/EncounterPage.tsx', 'src/screens/table/TableView.tsx'],
      player: ['src/screens/EncounterPage.tsx', 'src/screens/player/Player.tsx', JSON_SCHEMA_CHUNK],
    }),
    VitePWA({
      registerType: 'autoUpdate',
      // Registered by src/pwa/register.ts (loaded from index.html's head), which reloads onto a new deploy's shell.
      injectRegister: false,
      // The icons are in the shell's files already (workbox.globPatterns).
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'Roundkeeper',
        short_name: 'Roundkeeper',
        description:
          'Keeps the clock of tabletop role-playing combat: the GM’s tracker, the table view and the players’ phones.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME,
        background_color: THEME,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,css,svg,png,webmanifest}'],
        // Every page of the app (`/`, `/e/<id>?token=…`) is the same index.html: served from the cache.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//],
        // Framed pages skip the cache and get the server's headers (public/sw-frames.js).
        importScripts: ['/sw-frames.js'],
        // No runtime caching: API answers are never stored, so nothing stale can be shown as live.
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  // React's modules are Preact's (scripts/preact-alias.ts).
  resolve: { conditions: ['@roundkeeper/source', ...defaultClientConditions], alias: preactAlias },
  // The manifest tells which chunks each page loads (the server and the size test read it).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1000,
    manifest: true,
    // No modulepreload polyfill: a browser without <link rel="modulepreload"> (Safari 16, Firefox < 115)
    // still loads every chunk through its imports, only without the head start.
    modulePreload: { polyfill: false },
  },
});
