// Loaded by the service worker (vite.config.ts, `importScripts`) before Workbox's routes. A page opened
// inside a frame (the table's screen embedded in a stream scene or a virtual tabletop, `--frame-ancestors`)
// goes to the server, whose answer carries that page's own framing policy: the cached shell carries
// index.html's, which forbids framing. Only top-level pages are answered from the cache.
self.addEventListener('fetch', (event) => {
  if (event.request.mode === 'navigate' && event.request.destination !== 'document') {
    event.stopImmediatePropagation();
  }
});
