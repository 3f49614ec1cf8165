// Vite emits the WASM file as a build asset and gives its URL; sql.js fetches it from there.
import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import { createLabHost } from './host';
import { indexedDbLedgerStorage } from './ledgerStorage';
import type { LabResponse } from './protocol';
import { serveWorker } from './serve';

/**
 * The module worker that hosts the engine: the page posts LabRequests and gets exactly one
 * LabResponse for each, errors included (see host.ts), served like the tools worker (serve.ts).
 * sql.js starts loading once (its script and its WASM), when a request first needs SQLite; the persistent ledger lives in
 * IndexedDB. Nothing here is React or DOM.
 */

const host = createLabHost({
  // Started by the first request that needs SQLite (a ledger or task run, the stored ledger): A–D never fetch the
  // WASM, nor load sql.js's script (a chunk of its own, a tenth of the worker's code, not parsed as the worker starts).
  sql: () => import('sql.js').then(({ default: initSqlJs }) => initSqlJs({ locateFile: () => sqlWasmUrl })),
  storage: indexedDbLedgerStorage(),
  // Only the UI benchmark builds with VITE_LAB_LABEL_PLACEMENT=unplaced (a second build beside the lab's) to print what label placement costs.
  labels: import.meta.env.VITE_LAB_LABEL_PLACEMENT === 'unplaced' ? 'unplaced' : 'placed',
});

// The DOM lib types `self` as a window; in this file it is the dedicated worker's scope. Either has the
// slice serveWorker uses (postMessage with one argument, message listeners), so it is passed as it is.
serveWorker<LabResponse>(self, host);
