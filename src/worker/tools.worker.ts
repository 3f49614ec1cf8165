import initSqlJs from 'sql.js';
import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import type { SqlModule } from '../engine';
import { answerToolRequest } from './toolsHost';
import { explainBadToolRequest, isToolRequestType, type ToolResponse } from './toolsProtocol';

/**
 * The module worker for the lab tools (checklist, evidence, reviewer, panel views). A worker of its
 * own so a 10,000-client herd moved by a slider never queues behind, or ahead of, the diagram's run;
 * it never touches the student's kept ledger (every run here is on a fresh one).
 */

export type ToolWorkerMessage = ToolResponse | { type: 'error'; requestId: number | null; message: string };

interface WorkerScope {
  postMessage(message: ToolWorkerMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

const scope = self as unknown as WorkerScope;
const sqlLoading = initSqlJs({ locateFile: () => sqlWasmUrl }) as Promise<SqlModule>;

scope.addEventListener('message', (event) => {
  const data = event.data as { [key: string]: unknown } | null;
  const requestId = typeof data?.requestId === 'number' ? data.requestId : null;
  const problem = data === null || typeof data !== 'object' ? 'expected an object' : explainBadToolRequest(data);
  if (requestId === null || problem !== null || !isToolRequestType(data?.type)) {
    scope.postMessage({ type: 'error', requestId, message: problem ?? 'requestId must be a number' });
    return;
  }
  answerToolRequest(data as unknown as Parameters<typeof answerToolRequest>[0], () => sqlLoading).then(
    (response) => scope.postMessage(response),
    (error: unknown) => scope.postMessage({ type: 'error', requestId, message: error instanceof Error ? error.message : String(error) }),
  );
});
