// The lab's service worker: after the first visit the whole lab (page, scripts, workers, styles,
// sql.js's WASM) comes from the cache, so it works with the network off. The build
// (scripts/vite-plugins.ts) writes dist/sw.js from this file, filling in VERSION (a hash of every
// built file) and PRECACHE (their paths). A changed build is a new sw.js: the browser installs it
// beside the running one, the page offers to switch (see src/ui/serviceWorker.ts), and otherwise
// it takes over on the next visit, once no tab runs the old version. Nothing here ever reaches
// another origin.
const VERSION = '__LAB_VERSION__';
const PRECACHE = [/* __LAB_PRECACHE__ */];
const CACHE_PREFIX = 'mcp-reliability-lab-';
const CACHE = `${CACHE_PREFIX}${VERSION}`;
const SCOPE = new URL(self.registration.scope);
const SHELL = new URL('index.html', SCOPE).href;

self.addEventListener('install', (event) => {
  // cache: 'reload' skips the HTTP cache, so the precache holds exactly this build's bytes.
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((path) => new Request(new URL(path, SCOPE), { cache: 'reload' })))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
      );
      // The first install serves the page that registered it at once, without a reload.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  // The page's "Use the new version" button: the waiting worker replaces the running one now.
  if (event.data?.type === 'skip-waiting') self.skipWaiting();
  if (event.data?.type === 'version') event.source?.postMessage({ type: 'version', version: VERSION });
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  // ignoreVary: module scripts and the worker's fetch carry an Origin header the precache request did not.
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit !== undefined) return hit;
  const response = await fetch(request);
  // A static host answers a path it does not have with the page itself (a single-page fallback). A script,
  // style or worker that arrives as HTML is a chunk of another version, gone from this one: it is a 404,
  // so the part that asked fails in its place, never runs the page as a script.
  const destination = request.destination;
  const html = (response.headers.get('content-type') ?? '').includes('text/html');
  if (html && destination !== 'document' && destination !== '' && destination !== 'iframe') {
    return new Response(`${new URL(request.url).pathname} is not part of this version of the lab (${VERSION})`, {
      status: 404,
      headers: { 'content-type': 'text/plain' },
    });
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin) return;
  // The lab is one page whose view lives in the query string: every visit to it is the cached shell.
  if (request.mode === 'navigate' && (url.pathname === SCOPE.pathname || url.href.split('?')[0] === SHELL)) {
    event.respondWith(fromCache(SHELL));
    return;
  }
  event.respondWith(fromCache(request));
});
