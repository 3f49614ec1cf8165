import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { LabError } from '../engine';

/**
 * Where the worker keeps the persistent lab ledger between runs and page loads: the bytes of one
 * SQLite file. In the browser that is IndexedDB (idb-keyval, reachable from the worker); in Node
 * tests an in-memory stand-in. Whether the bytes are a lab ledger is the engine's call (LAB010),
 * not the storage's.
 */
export interface LedgerStorage {
  /** The stored ledger file, or null when nothing is stored. */
  load(): Promise<Uint8Array | null>;
  save(bytes: Uint8Array): Promise<void>;
  clear(): Promise<void>;
  /**
   * Runs `body` while no other tab's worker works on the stored ledger: a kept-ledger run reads the
   * ledger, runs and saves it inside one call, so two tabs take turns instead of each saving over what
   * the other saved (a lost update).
   */
  exclusive<T>(body: () => Promise<T>): Promise<T>;
}

/** The Web Lock every tab's worker takes around a read-run-save of the stored ledger. */
export const LEDGER_LOCK_NAME = 'mcp-reliability-lab/ledger';
/** How long a run waits for another tab's turn with the stored ledger before it gives up (LAB013). */
export const LEDGER_LOCK_WAIT_MS = 60_000;

interface LockManagerLike {
  request<T>(name: string, options: { signal: AbortSignal }, body: () => Promise<T>): Promise<T>;
}

/**
 * The browser's Web Locks (shared by every tab and worker of one origin; released when a worker is
 * terminated by Stop). Without them (a page served over plain http from another host, not a secure
 * context) one worker's own turns are still kept in order.
 */
function webLocked(): LedgerStorage['exclusive'] {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  if (locks === undefined) return inOrder();
  return async (body) => {
    const signal = AbortSignal.timeout(LEDGER_LOCK_WAIT_MS);
    try {
      return await locks.request(LEDGER_LOCK_NAME, { signal }, body);
    } catch (error) {
      if (signal.aborted && error === signal.reason) {
        throw new LabError(
          'LAB013',
          `the stored ledger stayed in use by a run in another tab for ${LEDGER_LOCK_WAIT_MS / 1000} s; nothing was run or stored. Wait for that tab, or stop its run`,
        );
      }
      throw error;
    }
  };
}

/** Turns taken one after another within one worker (and between workers sharing one memory storage in tests). */
function inOrder(): LedgerStorage['exclusive'] {
  let last: Promise<unknown> = Promise.resolve();
  return (body) => {
    const turn = last.then(body, body);
    last = turn.catch(() => undefined);
    return turn;
  };
}

/** The browser refused a read or write (quota, private mode, a blocked database). */
export class StorageError extends Error {
  override name = 'StorageError';
}

const DATABASE_NAME = 'mcp-reliability-lab';
const STORE_NAME = 'ledger';
const LEDGER_KEY = 'lab-ledger.sqlite';

async function guarded<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof StorageError) throw error;
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StorageError(`the browser's IndexedDB could not ${what} (${reason})`);
  }
}

/** The ledger in IndexedDB. The database opens on first use, so a worker that never touches the ledger never opens it. */
export function indexedDbLedgerStorage(): LedgerStorage {
  let store: UseStore | null = null;
  const db = () => (store ??= createStore(DATABASE_NAME, STORE_NAME));
  return {
    load: () =>
      guarded('read the stored ledger', async () => {
        const value: unknown = await get(LEDGER_KEY, db());
        if (value === undefined) return null;
        if (value instanceof Uint8Array) return value;
        throw new StorageError(
          `the stored ledger is a ${typeof value}, not the bytes of a file; use Reset ledger to start a new one`,
        );
      }),
    save: (bytes) =>
      guarded('save the ledger; the previously stored ledger is unchanged', () => set(LEDGER_KEY, bytes, db())),
    clear: () => guarded('delete the stored ledger', () => del(LEDGER_KEY, db())),
    exclusive: webLocked(),
  };
}

/** The same contract in memory: for Node tests, where two workers sharing one storage stand for a page reload. */
export function memoryLedgerStorage(initial: Uint8Array | null = null): LedgerStorage {
  let stored = initial === null ? null : initial.slice();
  return {
    load: async () => (stored === null ? null : stored.slice()),
    save: async (bytes) => {
      stored = bytes.slice();
    },
    clear: async () => {
      stored = null;
    },
    exclusive: inOrder(),
  };
}
