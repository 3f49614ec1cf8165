import initSqlJs from 'sql.js';
import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import type { SqlModule } from '../engine';
import type { ToolResponse } from './protocol';
import { serveWorker } from './serve';
import { createToolsHost } from './toolsHost';

/**
 * The module worker for the lab tools (checklist, evidence, reviewer, panel views, Compare). A worker
 * of its own so a 10,000-client herd moved by a slider never queues behind, or ahead of, the diagram's
 * run; it never touches the student's kept ledger (every run here is on a fresh one). It is served as
 * the engine worker is (serve.ts): requests are checked with the shared schemas, and an engine error
 * reaches the page with its catalogued code.
 */

const sqlLoading = initSqlJs({ locateFile: () => sqlWasmUrl }) as Promise<SqlModule>;

// The DOM lib types `self` as a window; in this file it is the dedicated worker's scope. Either has the
// slice serveWorker uses (postMessage with one argument, message listeners), so it is passed as it is.
serveWorker<ToolResponse>(
  self,
  createToolsHost(() => sqlLoading),
);
