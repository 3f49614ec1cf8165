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
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
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
