import type { ToolRequest, ToolResponse } from './toolsProtocol';
import type { ToolWorkerMessage } from './tools.worker';

/**
 * The page's side of the tools worker: one promise per request. A request without its id is sent
 * with the next one; answers are matched by id. The worker starts on the first request.
 */

type WithoutId<T> = T extends unknown ? Omit<T, 'requestId'> : never;
export type ToolCall = WithoutId<ToolRequest>;
type AnswerOf<C extends ToolCall> = Extract<ToolResponse, { type: { verify: 'verification'; evidence: 'evidence-zip'; skill: 'skill-zip'; review: 'review-result'; panel: 'panel-view' }[C['type']] }>;

export interface ToolsClient {
  call<C extends ToolCall>(call: C): Promise<AnswerOf<C>>;
}

export interface ToolsWorkerLike {
  postMessage(message: ToolRequest): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
}

export function createToolsWorker(): ToolsWorkerLike {
  return new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module', name: 'lab-tools' });
}

export function createToolsClient(makeWorker: () => ToolsWorkerLike = createToolsWorker): ToolsClient {
  let worker: ToolsWorkerLike | null = null;
  let nextRequestId = 1;
  const pending = new Map<number, { resolve(answer: ToolResponse): void; reject(error: Error): void }>();

  function start(): ToolsWorkerLike {
    const started = makeWorker();
    started.addEventListener('message', (event) => {
      const data = event.data as ToolWorkerMessage;
      if (data.requestId === null) {
        for (const waiting of pending.values()) waiting.reject(new Error(data.type === 'error' ? data.message : 'unaddressed answer'));
        pending.clear();
        return;
      }
      const waiting = pending.get(data.requestId);
      if (waiting === undefined) return;
      pending.delete(data.requestId);
      if (data.type === 'error') waiting.reject(new Error(data.message));
      else waiting.resolve(data);
    });
    started.addEventListener('error', (event) => {
      event.preventDefault();
      for (const waiting of pending.values()) waiting.reject(new Error(`the tools worker failed: ${event.message || 'it could not be loaded'}`));
      pending.clear();
    });
    return started;
  }

  return {
    call<C extends ToolCall>(call: C): Promise<AnswerOf<C>> {
      worker ??= start();
      const requestId = nextRequestId++;
      const running = worker;
      return new Promise<AnswerOf<C>>((resolve, reject) => {
        pending.set(requestId, { resolve: (answer) => resolve(answer as AnswerOf<C>), reject });
        running.postMessage({ ...call, requestId } as ToolRequest);
      });
    },
  };
}
