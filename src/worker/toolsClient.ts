import { createWorkerClient, WorkerClientError, type RequestHooks, type WorkerLike } from './workerClient';
import type { ToolRequest, ToolResponse } from './protocol';

/**
 * The page's client of the tools worker, over the one worker client (workerClient.ts) the engine worker
 * uses too: answers are matched by id and checked with the shared schemas, an error keeps its
 * catalogued code, Stop ends the worker and what it computes. The worker starts on the first request.
 */

/** The tools worker's errors are the worker client's. */
export const ToolsClientError = WorkerClientError;
export type ToolsClientError = WorkerClientError;

type WithoutId<T> = T extends unknown ? Omit<T, 'requestId'> : never;
export type ToolCall = WithoutId<ToolRequest>;
const ANSWER_TYPE = {
  verify: 'verification',
  evidence: 'evidence-zip',
  skill: 'skill-zip',
  review: 'review-result',
  panel: 'panel-view',
  compare: 'comparison',
  exercises: 'exercise-list',
  'exercise-check': 'exercise-report',
  'exercise-run': 'exercise-transcript',
} as const;
type AnswerOf<C extends ToolCall> = Extract<ToolResponse, { type: (typeof ANSWER_TYPE)[C['type']] }>;

export interface ToolsClient {
  /** `hooks`: a budget past which the worker is replaced (RUN_BUDGET), as the engine worker's runs have. */
  call<C extends ToolCall>(call: C, hooks?: RequestHooks): Promise<AnswerOf<C>>;
  /** Ends the worker and what it computes (a compare of millions of events); the next call starts a new one. */
  stop?(): void;
}

export type ToolsWorkerLike = WorkerLike<ToolRequest>;

export function createToolsWorker(): ToolsWorkerLike {
  return new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module', name: 'lab-tools' });
}

export function createToolsClient(makeWorker: () => ToolsWorkerLike = createToolsWorker): ToolsClient {
  const client = createWorkerClient<ToolRequest>({
    name: 'tools worker',
    makeWorker,
    explain: (checks) => checks.explainBadToolResponse,
    lazy: true,
  });
  return {
    stop() {
      client.stop('Stopped: the worker was ended before it answered; nothing else changed.');
    },
    call<C extends ToolCall>(call: C, hooks?: RequestHooks): Promise<AnswerOf<C>> {
      return client.request<AnswerOf<C>>(
        ANSWER_TYPE[call.type],
        { ...call, requestId: client.nextId() } as ToolRequest,
        hooks,
      );
    },
  };
}
