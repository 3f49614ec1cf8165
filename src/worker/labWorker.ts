import type { LabRequest } from './protocol';
import type { WorkerLike as WorkerLikeOf } from './workerClient';

/**
 * The engine worker's start, in a module of its own: the built page loads it as a second entry script
 * beside its main one (vite.config.ts), so the worker's thread and its script load while the page's
 * own modules are still being fetched, instead of after them, and the page's link goes to it at once
 * (openEarly), so the link's run starts as soon as the worker has loaded. The page's lab client takes
 * that worker as its first one (createLabWorker), with what it answered; every later one (after Stop,
 * or a run past its budget) starts fresh. Nothing here is React, and this module imports nothing at
 * run time, so it is fetched and run in one step.
 */

/**
 * The part of `Worker` the lab client uses, so tests can hand in a fake; `opening`: the id of the `open`
 * request (the page's link) already sent to it (openEarly), whose answers the client takes.
 */
export type WorkerLike = WorkerLikeOf<LabRequest> & { terminate(): void; readonly opening?: number | null };

type Listener = (event: never) => void;
type EventType = 'message' | 'messageerror' | 'error';
const EVENT_TYPES: readonly EventType[] = ['message', 'messageerror', 'error'];

/** The part of a started `Worker` that holdWorker needs. */
export type HeldWorker = Pick<Worker, 'postMessage' | 'addEventListener' | 'removeEventListener' | 'terminate'>;

function newLabWorker(): Worker {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'lab-engine' });
}

/** The id of the early `open` request: the client's own requests count from 1. */
const OPEN_REQUEST_ID = 0;
/** The longest query sent early (the `open` request's bound, OPEN_SEARCH_CHARS_MAX in schemas.ts); a longer link's run is asked for by the page as before. */
export const EARLY_SEARCH_CHARS_MAX = 65_536;

/**
 * Sends the page's link (its query, `search`) to a worker just started: the worker reads it as the
 * page will and starts the run the page's store asks for first, while the page's own modules still
 * load (host.ts, `open`). The id of that request, or null when none was sent.
 */
export function openEarly(worker: Pick<HeldWorker, 'postMessage'>, search: string): number | null {
  if (search.length > EARLY_SEARCH_CHARS_MAX) return null;
  const open: LabRequest = { type: 'open', requestId: OPEN_REQUEST_ID, search };
  worker.postMessage(open);
  return OPEN_REQUEST_ID;
}

/**
 * Holds a worker started before its client exists, until the client takes it (the returned function):
 * what the worker reported meanwhile (a failed load, the answers to the early `open`) reaches the
 * client's listeners first, in the order it came, one event a task (a message is read, so copied in,
 * where it is heard: a long run's parts heard before the page booted are not all read in one long
 * task); what comes while those are handed on waits behind them, and everything after goes to the
 * client's listeners directly.
 */
export function holdWorker(worker: HeldWorker, opening: number | null = null): () => WorkerLike {
  const heard: Event[] = [];
  const hear = (event: Event) => {
    // Said to the client when it takes the worker, not to the console now.
    if (event.type === 'error') event.preventDefault();
    heard.push(event);
  };
  for (const type of EVENT_TYPES) worker.addEventListener(type, hear);
  return () => {
    const listeners: Array<{ type: EventType; listener: Listener }> = [];
    let holding = heard.length > 0;
    const attach = (type: EventType, listener: Listener) => worker.addEventListener(type, listener as EventListener);
    const release = () => {
      const event = heard.shift();
      if (event === undefined) {
        // All handed on, in this same task: from now on the worker's events go to the client directly.
        for (const type of EVENT_TYPES) worker.removeEventListener(type, hear);
        for (const { type, listener } of listeners) attach(type, listener);
        holding = false;
        return;
      }
      for (const entry of listeners) if (entry.type === event.type) entry.listener(event as never);
      nextTask(release);
    };
    // The client adds its listeners right after taking the worker, in the same task: the first held event goes to them in the next.
    if (holding) nextTask(release);
    else for (const type of EVENT_TYPES) worker.removeEventListener(type, hear);
    return {
      opening,
      postMessage: (message: LabRequest) => worker.postMessage(message),
      addEventListener(type: EventType, listener: Listener) {
        listeners.push({ type, listener });
        if (!holding) attach(type, listener);
      },
      terminate: () => worker.terminate(),
    };
  };
}

/** Runs `task` in a task of its own: a MessageChannel message in the page (no timer clamp), a timer elsewhere (lazyChecks.ts's nextTask; this module imports nothing). */
function nextTask(task: () => void): void {
  if (typeof window === 'undefined' || typeof MessageChannel === 'undefined') {
    setTimeout(task, 0);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    task();
  };
  channel.port2.postMessage(null);
}

/**
 * The worker started now, sent the page's link (`search`, openEarly) and held (holdWorker), or null where
 * `start` throws at once (a browser without module workers, a refused URL): this module runs as the page
 * loads, so a throw here would leave the page blank; the client then starts one on first use and shows
 * why that fails.
 */
export function startEarly(start: () => HeldWorker, search: string | null = null): (() => WorkerLike) | null {
  let worker: HeldWorker;
  try {
    worker = start();
  } catch {
    return null;
  }
  let opening: number | null = null;
  try {
    if (search !== null) opening = openEarly(worker, search);
  } catch {
    // Not sent: the page asks for its link's run itself.
  }
  return holdWorker(worker, opening);
}

// Only the built page starts it early (the dev server and the Node tests start it on first use, as before;
// under Node, as Playwright loads the e2e specs that import from src/, there is no import.meta.env at all).
let early: (() => WorkerLike) | null =
  import.meta.env?.PROD === true && typeof Worker !== 'undefined' && typeof document !== 'undefined'
    ? startEarly(newLabWorker, location.search)
    : null;

/** The page's engine worker: the one started as the page loaded, the first time; a fresh one after that. */
export function createLabWorker(): WorkerLike {
  const take = early;
  early = null;
  return take === null ? newLabWorker() : take();
}
