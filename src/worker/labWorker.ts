import type { LabRequest } from './protocol';
import type { WorkerLike as WorkerLikeOf } from './workerClient';

/**
 * The engine worker's start, in a module of its own: the built page loads it as a second entry script
 * beside its main one (vite.config.ts), so the worker's thread and its script load while the page's
 * own modules are still being fetched, instead of after them. The page's lab client takes that worker
 * as its first one (createLabWorker); every later one (after Stop, or a run past its budget) starts
 * fresh. Nothing here is React, and this module imports nothing at run time, so it is fetched and run
 * in one step.
 */

/** The part of `Worker` the lab client uses, so tests can hand in a fake. */
export type WorkerLike = WorkerLikeOf<LabRequest> & { terminate(): void };

type Listener = (event: never) => void;
type EventType = 'message' | 'messageerror' | 'error';
const EVENT_TYPES: readonly EventType[] = ['message', 'messageerror', 'error'];

/** The part of a started `Worker` that holdWorker needs. */
export type HeldWorker = Pick<Worker, 'postMessage' | 'addEventListener' | 'removeEventListener' | 'terminate'>;

function newLabWorker(): Worker {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'lab-engine' });
}

/**
 * Holds a worker started before its client exists, until the client takes it (the returned function):
 * what the worker reported meanwhile (a failed load, say) reaches the client's listeners first, in
 * the order it came, and everything after goes to them directly.
 */
export function holdWorker(worker: HeldWorker): () => WorkerLike {
  const heard: Event[] = [];
  const hear = (event: Event) => {
    // Said to the client when it takes the worker, not to the console now.
    if (event.type === 'error') event.preventDefault();
    heard.push(event);
  };
  for (const type of EVENT_TYPES) worker.addEventListener(type, hear);
  return () => {
    for (const type of EVENT_TYPES) worker.removeEventListener(type, hear);
    const listeners: Array<{ type: string; listener: Listener }> = [];
    // The client adds its listeners right after taking the worker, in the same task; a new event comes in a later task, after these.
    if (heard.length > 0)
      queueMicrotask(() => {
        for (const event of heard)
          for (const entry of listeners) if (entry.type === event.type) entry.listener(event as never);
      });
    return {
      postMessage: (message: LabRequest) => worker.postMessage(message),
      addEventListener(type: EventType, listener: Listener) {
        listeners.push({ type, listener });
        worker.addEventListener(type, listener as EventListener);
      },
      terminate: () => worker.terminate(),
    };
  };
}

/**
 * The worker started now and held (holdWorker), or null where `start` throws at once (a browser without
 * module workers, a refused URL): this module runs as the page loads, so a throw here would leave the
 * page blank; the client then starts one on first use and shows why that fails.
 */
export function startEarly(start: () => HeldWorker): (() => WorkerLike) | null {
  try {
    return holdWorker(start());
  } catch {
    return null;
  }
}

// Only the built page starts it early (the dev server and the Node tests start it on first use, as before;
// under Node, as Playwright loads the e2e specs that import from src/, there is no import.meta.env at all).
let early: (() => WorkerLike) | null =
  import.meta.env?.PROD === true && typeof Worker !== 'undefined' && typeof document !== 'undefined'
    ? startEarly(newLabWorker)
    : null;

/** The page's engine worker: the one started as the page loaded, the first time; a fresh one after that. */
export function createLabWorker(): WorkerLike {
  const take = early;
  early = null;
  return take === null ? newLabWorker() : take();
}
