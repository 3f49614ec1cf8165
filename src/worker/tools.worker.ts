import initSqlJs from 'sql.js';
import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import type { SqlModule } from '../engine';
import { errorResponse, malformed } from './host';
import { answerToolRequest } from './toolsHost';
import { explainBadToolRequest, salvageRequestId, type ToolRequest, type ToolResponse } from './protocol';

/**
 * The module worker for the lab tools (checklist, evidence, reviewer, panel views). A worker of its
 * own so a 10,000-client herd moved by a slider never queues behind, or ahead of, the diagram's run;
 * it never touches the student's kept ledger (every run here is on a fresh one). It speaks the same
 * protocol as the lab worker: requests are checked with the shared schemas, and an engine error
 * reaches the page with its catalogued code.
 */

interface WorkerScope {
  postMessage(message: ToolResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

const scope = self as unknown as WorkerScope;
const sqlLoading = initSqlJs({ locateFile: () => sqlWasmUrl }) as Promise<SqlModule>;

scope.addEventListener('message', (event) => {
  const data = event.data;
  const problem = explainBadToolRequest(data);
  if (problem !== null) {
    scope.postMessage(malformed(salvageRequestId(data), problem));
    return;
  }
  const request = data as ToolRequest;
  answerToolRequest(request, () => sqlLoading).then(
    (response) => scope.postMessage(response),
    (error: unknown) => scope.postMessage(errorResponse(request.requestId, error)),
  );
});
