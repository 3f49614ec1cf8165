import { arrivalQueue, protocolChecks, type ProtocolChecks } from './lazyChecks';
import { PartsAssembly } from './runParts';
import type {
  ExploreProgressResponse,
  LabAnswer,
  LabResponse,
  ProgressResponse,
  RecordingProgressResponse,
  ToolAnswer,
  ToolResponse,
  VerifyProgressResponse,
  WorkerErrorCode,
} from './protocol';

/**
 * The page's side of a worker, one stack for both (the lab engine and the lab tools): one promise per
 * request, correlated by requestId, every answer checked with the shared schemas before it is read.
 * Every request settles: with the worker's answer, with the worker's error (its catalogued code kept),
 * with WORKER_FAILED when the worker itself broke (failed to load, threw outside a handler, sent
 * something unreadable), STOPPED when the page ended it, or RUN_BUDGET when it outlived its budget.
 * A long answer's parts are put back together here (runParts.ts), and progress reports go to the
 * request that asked for them.
 */

/** STOPPED: the page ended the worker; RUN_BUDGET: a request outlived its wall-clock budget. */
export type ClientErrorCode = WorkerErrorCode | 'WORKER_FAILED' | 'STOPPED' | 'RUN_BUDGET';

/** An error from a worker, with the code it was answered with. */
export class WorkerClientError extends Error {
  override name = 'WorkerClientError';
  readonly code: ClientErrorCode;

  constructor(code: ClientErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The part of `Worker` a client uses, so tests can hand in a fake. */
export interface WorkerLike<Request> {
  postMessage(message: Request): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'messageerror', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  terminate?(): void;
}

/** What either worker sends: its answers, and the reports and parts that come before a long one. */
type Received = LabResponse | ToolResponse;
type Settling = LabAnswer | ToolAnswer;
type RunPart = Extract<LabResponse, { type: 'run-part' }>;

/** How far a run got (from the worker's `progress` reports). */
export type RunProgress = Pick<ProgressResponse, 'eventsRun' | 'atMs'>;
/** How far an exploration got (from the worker's `explore-progress` reports). */
export type ExploreProgress = Omit<ExploreProgressResponse, 'type' | 'requestId'>;
/** How far the opening of a recording got (from the worker's `recording-progress` reports). */
export type RecordingProgress = Omit<RecordingProgressResponse, 'type' | 'requestId'>;
/** How far the checklist or the evidence export got (from the tools worker's `verify-progress` reports). */
export type VerifyProgress = Omit<VerifyProgressResponse, 'type' | 'requestId'>;

export interface RequestHooks {
  /** Hears the `progress` reports of a long run. */
  progress?: (progress: RunProgress) => void;
  /** Hears the `explore-progress` reports of an exploration. */
  exploreProgress?: (progress: ExploreProgress) => void;
  /** Hears the `recording-progress` reports of a recording being opened. */
  recordingProgress?: (progress: RecordingProgress) => void;
  /** Hears the `verify-progress` reports of the checklist and of the evidence export. */
  verifyProgress?: (progress: VerifyProgress) => void;
  /** Past this many milliseconds the worker is replaced and the request rejects with RUN_BUDGET; `what` names it in the message, `after` ends it. */
  budget?: { ms: number; what: string; after?: string };
}

export interface WorkerClientOptions<Request> {
  /** How the messages name the worker ("lab worker", "tools worker"). */
  name: string;
  makeWorker(): WorkerLike<Request>;
  /** The check of what this worker sends: why it is not one of its responses, or null. */
  explain(checks: ProtocolChecks): (value: unknown) => string | null;
  /** Start the worker with the first request (the tools) instead of at once (the lab). */
  lazy?: boolean;
}

export interface WorkerClient<Request extends { requestId: number }> {
  /** The next request's id. */
  nextId(): number;
  /** Sends `request` and resolves with the answer of type `expected` (another type rejects with WORKER_FAILED). */
  request<A extends Settling>(expected: Settling['type'], request: Request, hooks?: RequestHooks): Promise<A>;
  /** Ends the worker and what it computes: pending requests reject with STOPPED and `message`; the next request starts a fresh worker. */
  stop(message: string): void;
  /** Ends the worker for good: pending and later requests reject with WORKER_FAILED. */
  terminate(): void;
}

interface Pending extends RequestHooks {
  settle(response: Settling): void;
  fail(error: WorkerClientError): void;
  /** The parts of a long answer received so far. */
  parts?: PartsAssembly;
}

export function createWorkerClient<Request extends { requestId: number }>(
  options: WorkerClientOptions<Request>,
): WorkerClient<Request> {
  const { name } = options;
  const pending = new Map<number, Pending>();
  let worker: WorkerLike<Request> | null = null;
  let nextRequestId = 1;
  let broken: WorkerClientError | null = null;

  function failAll(error: WorkerClientError): void {
    const waiting = [...pending.values()];
    pending.clear();
    for (const request of waiting) request.fail(error);
  }

  /** Starts a worker and listens to it; a replaced (stopped) worker's late messages are ignored. */
  function start(): WorkerLike<Request> {
    // The checks load while the worker starts: ready before its first answer.
    void protocolChecks().catch(() => undefined);
    const target = options.makeWorker();
    worker = target;
    const explain = (checks: ProtocolChecks) => options.explain(checks);
    // Each event is read at once and handled in arrival order once the checks have loaded (lazyChecks.ts).
    const later = arrivalQueue((problem) => {
      if (target === worker) failAll(new WorkerClientError('WORKER_FAILED', problem));
    });
    target.addEventListener('message', (event) => {
      const received = event.data;
      later((checks) => {
        if (target === worker) onMessage(received, explain(checks)(received));
      });
    });
    target.addEventListener('messageerror', () => {
      later(() => {
        if (target === worker)
          failAll(new WorkerClientError('WORKER_FAILED', `a message from the ${name} could not be deserialized`));
      });
    });
    target.addEventListener('error', (event) => {
      event.preventDefault();
      const message = event.message;
      later(() => {
        if (target !== worker) return;
        broken = new WorkerClientError('WORKER_FAILED', `the ${name} failed: ${message || 'it could not be loaded'}`);
        failAll(broken);
      });
    });
    return target;
  }

  function onMessage(received: unknown, problem: string | null): void {
    if (problem !== null) {
      failAll(
        new WorkerClientError(
          'WORKER_FAILED',
          `the ${name} sent a message the page cannot read (${problem}): ${preview(received)}`,
        ),
      );
      return;
    }
    const data = received as Received;
    if (data.requestId === null) {
      // Only an error can lack a requestId: the worker could not tell which request it answers.
      failAll(
        data.type === 'error'
          ? new WorkerClientError(data.code, data.message)
          : new WorkerClientError('WORKER_FAILED', 'unaddressed answer'),
      );
      return;
    }
    const request = pending.get(data.requestId);
    if (request === undefined) return; // already settled (stopped, or past its budget): nothing waits for it
    switch (data.type) {
      case 'progress':
        request.progress?.({ eventsRun: data.eventsRun, atMs: data.atMs });
        return;
      case 'explore-progress':
        request.exploreProgress?.({
          states: data.states,
          schedules: data.schedules,
          violations: data.violations,
          fraction: data.fraction,
        });
        return;
      case 'recording-progress':
        request.recordingProgress?.({ stage: data.stage, done: data.done, total: data.total });
        return;
      case 'verify-progress':
        request.verifyProgress?.({ runsDone: data.runsDone, runsTotal: data.runsTotal, statement: data.statement });
        return;
      case 'run-part': {
        const out = (request.parts ??= new PartsAssembly()).add(data satisfies RunPart);
        if (out !== null) {
          pending.delete(data.requestId);
          request.fail(
            new WorkerClientError('WORKER_FAILED', `the ${name} sent the parts of an answer out of order: ${out}`),
          );
        }
        return;
      }
      default: {
        // Every other type is an answer: a new type that is not one fails to compile here.
        pending.delete(data.requestId);
        const whole = (request.parts ?? new PartsAssembly()).finish(data satisfies Settling);
        if (whole.ok) request.settle(whole.answer);
        else
          request.fail(new WorkerClientError('WORKER_FAILED', `the ${name}'s answer is not whole: ${whole.problem}`));
      }
    }
  }

  /** Ends the worker, fails what waits for it with `error`; the next request starts a fresh one. */
  function restart(error: WorkerClientError): void {
    worker?.terminate?.();
    worker = null;
    failAll(error);
    broken = null;
    if (options.lazy !== true) start();
  }

  if (options.lazy !== true) start();

  return {
    nextId: () => nextRequestId++,
    request<A extends Settling>(expected: Settling['type'], request: Request, hooks: RequestHooks = {}): Promise<A> {
      const answered = new Promise<A>((resolve, reject) => {
        if (broken !== null) {
          reject(broken);
          return;
        }
        const target = worker ?? start();
        pending.set(request.requestId, {
          ...hooks,
          settle(response) {
            if (response.type === expected) resolve(response as A);
            else if (response.type === 'error') reject(new WorkerClientError(response.code, response.message));
            else
              reject(
                new WorkerClientError('WORKER_FAILED', `asked for ${expected}, the ${name} answered ${response.type}`),
              );
          },
          fail: reject,
        });
        try {
          target.postMessage(request);
        } catch (error) {
          pending.delete(request.requestId);
          reject(new WorkerClientError('WORKER_FAILED', `could not send to the ${name}: ${String(error)}`));
        }
      });
      const { budget } = hooks;
      if (budget === undefined) return answered;
      // The budget is the page's: past it the worker is replaced, whatever it is stuck in.
      const timer = setTimeout(() => {
        if (!pending.has(request.requestId)) return;
        restart(
          new WorkerClientError(
            'RUN_BUDGET',
            `the ${budget.what} took longer than ${budget.ms} ms, so it was stopped and a fresh worker started${budget.after ?? ''}`,
          ),
        );
      }, budget.ms);
      return answered.finally(() => clearTimeout(timer));
    },
    stop(message) {
      restart(new WorkerClientError('STOPPED', message));
    },
    terminate() {
      worker?.terminate?.();
      broken = new WorkerClientError('WORKER_FAILED', `the ${name} was stopped`);
      failAll(broken);
    },
  };
}

function preview(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 120 ? `${text.slice(0, 120)}…` : text;
  } catch {
    return String(value);
  }
}
