/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the service worker that keeps the app's shell (vite.config.ts, docs/web.md "Installable app").
 * A new deploy's worker takes over at once (`skipWaiting`, `clientsClaim`) and the page reloads onto its
 * shell, so no page keeps running an old shell whose files the server no longer has.
 */
if ('serviceWorker' in navigator) registerSW({ immediate: true });
