import { useSyncExternalStore } from 'react';

/**
 * Registers the service worker of the production build (dist/sw.js, see src/sw/sw.template.js) and
 * tracks whether a newer version of the lab has been installed beside the running one. Not in
 * `npm start`: the dev server's modules change on every edit and must never come from a cache.
 */

let waiting: ServiceWorker | null = null;
const listeners = new Set<() => void>();

function setWaiting(worker: ServiceWorker | null): void {
  waiting = worker;
  for (const listener of listeners) listener();
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  // A page that a service worker already ran is of that worker's version. When a newer worker takes
  // control (this tab's "Use the new version now", or another tab's, which claims every tab), this page's
  // lazy chunks are no longer what the server or the new cache hold: it reloads into the new version
  // at once, on the same view (the view lives in the URL), instead of asking for chunks that are gone.
  // The very first install also takes control, of a page that had none: that one is not a change of version.
  let controlled = container.controller !== null;
  let reloading = false;
  container.addEventListener('controllerchange', () => {
    if (!controlled) {
      controlled = true;
      return;
    }
    if (reloading) return;
    reloading = true;
    window.location.reload();
  });
  container
    .register(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL })
    .then((registration) => {
      // A worker that finishes installing while another one controls this page is a new version; the
      // very first install (nothing controls the page yet) is not.
      const watch = (worker: ServiceWorker | null) => {
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed' && container.controller !== null) setWaiting(worker);
        });
      };
      if (registration.waiting !== null && container.controller !== null) setWaiting(registration.waiting);
      watch(registration.installing);
      registration.addEventListener('updatefound', () => watch(registration.installing));
    })
    .catch((error: unknown) => {
      // Without a service worker the lab still works, only not offline.
      console.warn('The service worker could not be registered; the lab will not work offline.', error);
    });
}

/** Switches to the installed new version now: it takes control, then the page reloads into it. */
export function switchToNewVersion(): void {
  if (waiting === null) return;
  // The page had a controller (a waiting worker is only announced then): its controllerchange listener reloads it.
  waiting.postMessage({ type: 'skip-waiting' });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a new version of the lab is installed and waiting. */
export function useUpdateReady(): boolean {
  return useSyncExternalStore(subscribe, () => waiting !== null);
}
