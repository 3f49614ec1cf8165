import { arrivalQueue, protocolChecks } from './lazyChecks';
import type { ToolRequest, ToolResponse, WorkerErrorCode } from './protocol';

/**
 * The page's side of the tools worker: one promise per request. A request without its id is sent
 * with the next one; answers are matched by id and checked with the shared schemas; an error keeps
 * its catalogued code. The worker starts on the first request.
 */

/** An error from the tools worker, with the code it was answered with (WORKER_FAILED: the worker broke). */
export class ToolsClientError extends Error {
  override name = 'ToolsClientError';
  constructor(
    readonly code: WorkerErrorCode | 'WORKER_FAILED' | 'STOPPED',
    message: string,
  ) {
    super(message);
  }
}

type WithoutId<T> = T extends unknown ? Omit<T, 'requestId'> : never;
export type ToolCall = WithoutId<ToolRequest>;
type AnswerOf<C extends ToolCall> = Extract<ToolResponse, { type: { verify: 'verification'; evidence: 'evidence-zip'; skill: 'skill-zip'; review: 'review-result'; panel: 'panel-view'; compare: 'comparison' }[C['type']] }>;
const ANSWER_TYPE = { verify: 'verification', evidence: 'evidence-zip', skill: 'skill-zip', review: 'review-result', panel: 'panel-view', compare: 'comparison' } as const;

export interface ToolsClient {
  call<C extends ToolCall>(call: C): Promise<AnswerOf<C>>;
  /** Ends the worker and what it computes (a compare of millions of events); the next call starts a new one. */
  stop?(): void;
}

export interface ToolsWorkerLike {
  postMessage(message: ToolRequest): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  terminate?(): void;
}

export function createToolsWorker(): ToolsWorkerLike {
  return new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module', name: 'lab-tools' });
}

export function createToolsClient(makeWorker: () => ToolsWorkerLike = createToolsWorker): ToolsClient {
  let worker: ToolsWorkerLike | null = null;
  let nextRequestId = 1;
  const pending = new Map<number, { expected: ToolResponse['type']; resolve(answer: ToolResponse): void; reject(error: Error): void }>();

  function start(): ToolsWorkerLike {
    const started = makeWorker();
    void protocolChecks().catch(() => undefined);
    const failAll = (error: ToolsClientError) => {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    // Each event is read at once and handled in arrival order once the checks have loaded (lazyChecks.ts).
    const later = arrivalQueue((problem) => failAll(new ToolsClientError('WORKER_FAILED', problem)));
    started.addEventListener('message', (event) => {
      const received = event.data;
      later(({ explainBadToolResponse }) => onMessage(received, explainBadToolResponse(received)));
    });
    function onMessage(received: unknown, problem: string | null): void {
      if (problem !== null) {
        for (const waiting of pending.values()) waiting.reject(new ToolsClientError('WORKER_FAILED', `the tools worker sent a message the page cannot read: ${problem}`));
        pending.clear();
        return;
      }
      const data = received as ToolResponse;
      if (data.requestId === null) {
        for (const waiting of pending.values()) waiting.reject(data.type === 'error' ? new ToolsClientError(data.code, data.message) : new ToolsClientError('WORKER_FAILED', 'unaddressed answer'));
        pending.clear();
        return;
      }
      const waiting = pending.get(data.requestId);
      if (waiting === undefined) return;
      pending.delete(data.requestId);
      if (data.type === 'error') waiting.reject(new ToolsClientError(data.code, data.message));
      else if (data.type !== waiting.expected) waiting.reject(new ToolsClientError('WORKER_FAILED', `asked for ${waiting.expected}, the tools worker answered ${data.type}`));
      else waiting.resolve(data);
    }
    started.addEventListener('error', (event) => {
      event.preventDefault();
      const message = event.message;
      later(() => failAll(new ToolsClientError('WORKER_FAILED', `the tools worker failed: ${message || 'it could not be loaded'}`)));
    });
    return started;
  }

  return {
    stop() {
      worker?.terminate?.();
      worker = null;
      for (const waiting of pending.values()) waiting.reject(new ToolsClientError('STOPPED', 'Stopped: the worker was ended before it answered; nothing else changed.'));
      pending.clear();
    },
    call<C extends ToolCall>(call: C): Promise<AnswerOf<C>> {
      worker ??= start();
      const requestId = nextRequestId++;
      const running = worker;
      return new Promise<AnswerOf<C>>((resolve, reject) => {
        pending.set(requestId, { expected: ANSWER_TYPE[call.type], resolve: (answer) => resolve(answer as AnswerOf<C>), reject });
        running.postMessage({ ...call, requestId } as ToolRequest);
      });
    },
  };
}
