import { errorResponse, handleMessage, malformed } from './host';
import type { LabResponse } from './protocol';

/**
 * The module worker that hosts the engine: the page posts LabRequests and gets exactly one
 * LabResponse for each, errors included (see host.ts). Nothing here is React or DOM.
 */

/** The slice of DedicatedWorkerGlobalScope this file uses (tsconfig's lib is DOM, not WebWorker). */
interface WorkerScope {
  postMessage(message: LabResponse): void;
  addEventListener(type: 'message' | 'messageerror', listener: (event: MessageEvent<unknown>) => void): void;
}

const scope = self as unknown as WorkerScope;

/** Posts one response; if it cannot be cloned, says so instead of leaving the page waiting. */
function reply(response: LabResponse): void {
  try {
    scope.postMessage(response);
  } catch (error) {
    scope.postMessage(errorResponse(response.requestId, error));
  }
}

scope.addEventListener('message', (event) => reply(handleMessage(event.data)));
scope.addEventListener('messageerror', () => reply(malformed(null, 'a message could not be deserialized')));
