import { LabError } from '../engine';
import { StorageError } from './ledgerStorage';
import type { ErrorResponse, LabResponse, ToolResponse } from './protocol';
import { partsOf, transferOf } from './runParts';

/**
 * The worker's side of the one protocol, for both workers (the lab engine and the lab tools): a host
 * answers every message, valid or not, with exactly one answer (a long run may report progress
 * first), and nothing rejects; this posts what the host answers, a long answer in parts (runParts.ts, their packed layout rows
 * handed over, not copied),
 * and says so in an error when an answer cannot be cloned instead of leaving the page waiting.
 */

type Response = LabResponse | ToolResponse;

/** What a worker does with each message: one answer each; `notify` posts the reports that come before a long one. */
export interface WorkerHost<R extends Response> {
  handleMessage(data: unknown, notify?: (report: R) => void): Promise<R>;
}

/** The slice of DedicatedWorkerGlobalScope a worker uses (tsconfig's lib is DOM, not WebWorker). */
export interface WorkerScope<R extends Response> {
  /** `transfer`: buffers handed over with the message instead of copied (a part's packed layout rows). */
  postMessage(message: R, options?: { transfer?: Transferable[] }): void;
  addEventListener(type: 'message' | 'messageerror', listener: (event: MessageEvent<unknown>) => void): void;
}

/** LabError keeps its code; a refused IndexedDB read or write is STORAGE; anything else (an engine invariant, a bug) is INTERNAL. */
export function errorResponse(requestId: number | null, error: unknown): ErrorResponse {
  if (error instanceof LabError) return { type: 'error', requestId, code: error.code, message: error.message };
  if (error instanceof StorageError) return { type: 'error', requestId, code: 'STORAGE', message: error.message };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { type: 'error', requestId, code: 'INTERNAL', message: `the lab worker failed: ${message}` };
}

export function malformed(requestId: number | null, problem: string): ErrorResponse {
  return errorResponse(requestId, new LabError('LAB008', `${problem}; the message was dropped`));
}

/** Serves `host` on a worker's scope: every message answered, every answer posted whole or in parts. */
export function serveWorker<R extends Response>(scope: WorkerScope<R>, host: WorkerHost<R>): void {
  const reply = (response: R): void => {
    try {
      // Each part is posted as soon as it is packed: the page reads it while the next one is packed.
      for (const message of partsOf(response)) scope.postMessage(message as R, { transfer: transferOf(message) });
    } catch (error) {
      scope.postMessage(errorResponse(response.requestId, error) as R);
    }
  };
  scope.addEventListener('message', (event) => void host.handleMessage(event.data, reply).then(reply));
  scope.addEventListener('messageerror', () => reply(malformed(null, 'a message could not be deserialized') as R));
}
