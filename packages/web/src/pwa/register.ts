/// <reference types="vite-plugin-pwa/client" />

/**
 * Registers the service worker that keeps the app's shell (vite.config.ts, docs/web.md "Installable app").
 * A new deploy's worker takes over at once (`skipWaiting`, `clientsClaim`) and the page reloads onto its
 * shell, so no page keeps running an old shell whose files the server no longer has.
 * The worker's helper is loaded after the page, as a chunk of its own: it is in no page's first load
 * (bundle.test.ts holds each page to its size).
 */
if ('serviceWorker' in navigator)
  void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }));
