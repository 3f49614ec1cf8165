import initSqlJs from 'sql.js';
// Vite emits the WASM file as a build asset and gives its URL; sql.js fetches it from there.
import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import { createLabHost, errorResponse, malformed } from './host';
import { indexedDbLedgerStorage } from './ledgerStorage';
import type { LabResponse } from './protocol';
import { inParts } from './runParts';

/**
 * The module worker that hosts the engine: the page posts LabRequests and gets exactly one
 * LabResponse for each, errors included (see host.ts). sql.js starts loading once, when a
 * request first needs SQLite; the persistent ledger lives in IndexedDB. Nothing here is React or DOM.
 */

/** The slice of DedicatedWorkerGlobalScope this file uses (tsconfig's lib is DOM, not WebWorker). */
interface WorkerScope {
  postMessage(message: LabResponse): void;
  addEventListener(type: 'message' | 'messageerror', listener: (event: MessageEvent<unknown>) => void): void;
}

const scope = self as unknown as WorkerScope;

const host = createLabHost({
  // Started by the first request that needs SQLite (a ledger or task run, the stored ledger): A–D never fetch the WASM.
  sql: () => initSqlJs({ locateFile: () => sqlWasmUrl }),
  storage: indexedDbLedgerStorage(),
});

/** Posts one response (a long one in parts, see runParts.ts); if it cannot be cloned, says so instead of leaving the page waiting. */
function reply(response: LabResponse): void {
  try {
    for (const message of inParts(response)) scope.postMessage(message);
  } catch (error) {
    scope.postMessage(errorResponse(response.requestId, error));
  }
}

scope.addEventListener('message', (event) => void host.handleMessage(event.data, reply).then(reply));
scope.addEventListener('messageerror', () => reply(malformed(null, 'a message could not be deserialized')));
