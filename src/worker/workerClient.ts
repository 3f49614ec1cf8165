import { arrivalQueue, nextTask, protocolChecks, type ProtocolChecks } from './lazyChecks';
import { PartsAssembly } from './runParts';
import type {
  ExploreProgressResponse,
  LabAnswer,
  OpenedResponse,
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
  /** Hears what the engine worker read of the page's link (`opened`), before the run it names or as the answer itself. */
  opened?: (opened: OpenedResponse) => void;
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
  /**
   * Waits for the answer to request `requestId`, which someone else already sent this worker (the built
   * page's early start, labWorker.ts); an error answer rejects. `hooks` is kept, not copied: a hook set on
   * it later hears the reports from then on. Its ids are below the client's own.
   */
  listen(requestId: number, hooks: RequestHooks): Promise<Settling>;
  /**
   * Stops waiting for request `requestId`: its answer will be ignored. When nothing else waits for the
   * worker, the worker is replaced instead (what it still computes for that request is nothing the page wants).
   */
  abandon(requestId: number): void;
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
  const connection = new WorkerConnection(options);
  if (options.lazy !== true) connection.start();
  return {
    nextId: () => connection.nextId(),
    request: <A extends Settling>(expected: Settling['type'], request: Request, hooks: RequestHooks = {}) =>
      connection.request<A>(expected, request, hooks),
    listen: (requestId, hooks) => connection.listen(requestId, hooks),
    abandon: (requestId) => connection.abandon(requestId),
    stop: (message) => connection.stop(message),
    terminate: () => connection.terminate(),
  };
}

/** The state behind one worker client: its worker (replaced on Stop), the requests waiting for it, and whether it broke for good. */
class WorkerConnection<Request extends { requestId: number }> {
  private readonly name: string;
  private readonly pending = new Map<number, Pending>();
  private worker: WorkerLike<Request> | null = null;
  private nextRequestId = 1;
  private broken: WorkerClientError | null = null;

  constructor(private readonly options: WorkerClientOptions<Request>) {
    this.name = options.name;
  }

  nextId(): number {
    return this.nextRequestId++;
  }

  private failAll(error: WorkerClientError): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const request of waiting) request.fail(error);
  }

  /** Starts a worker and listens to it; a replaced (stopped) worker's late messages are ignored. */
  start(): WorkerLike<Request> {
    const { name } = this;
    // The checks load while the worker starts: ready before its first answer.
    void protocolChecks().catch(() => undefined);
    const target = this.options.makeWorker();
    this.worker = target;
    const explain = (checks: ProtocolChecks) => this.options.explain(checks);
    // Each event is read at once and handled in arrival order once the checks have loaded (lazyChecks.ts).
    const later = arrivalQueue((problem) => {
      if (target === this.worker) this.failAll(new WorkerClientError('WORKER_FAILED', problem));
    });
    target.addEventListener('message', (event) => {
      const received = event.data;
      later((checks) => {
        if (target === this.worker) this.onMessage(received, explain(checks)(received));
      });
    });
    target.addEventListener('messageerror', () => {
      later(() => {
        if (target === this.worker)
          this.failAll(new WorkerClientError('WORKER_FAILED', `a message from the ${name} could not be deserialized`));
      });
    });
    target.addEventListener('error', (event) => {
      event.preventDefault();
      const message = event.message;
      later(() => {
        if (target !== this.worker) return;
        this.broken = new WorkerClientError(
          'WORKER_FAILED',
          `the ${name} failed: ${message || 'it could not be loaded'}`,
        );
        this.failAll(this.broken);
      });
    });
    return target;
  }

  private onMessage(received: unknown, problem: string | null): void {
    if (problem !== null) {
      this.failAll(
        new WorkerClientError(
          'WORKER_FAILED',
          `the ${this.name} sent a message the page cannot read (${problem}): ${preview(received)}`,
        ),
      );
      return;
    }
    const data = received as Received;
    if (data.requestId === null) {
      // Only an error can lack a requestId: the worker could not tell which request it answers.
      this.failAll(
        data.type === 'error'
          ? new WorkerClientError(data.code, data.message)
          : new WorkerClientError('WORKER_FAILED', 'unaddressed answer'),
      );
      return;
    }
    const request = this.pending.get(data.requestId);
    if (request === undefined) return; // already settled (stopped, or past its budget): nothing waits for it
    if (!reported(request, data)) this.settle(request, data.requestId, data);
  }

  /** A part of a long answer, or the answer itself: the request settles once its answer is whole. */
  private settle(request: Pending, requestId: number, data: Exclude<Received, Report>): void {
    const { name } = this;
    if (data.type === 'run-part') {
      const out = (request.parts ??= new PartsAssembly()).add(data satisfies RunPart);
      if (out !== null) {
        this.pending.delete(requestId);
        request.fail(
          new WorkerClientError('WORKER_FAILED', `the ${name} sent the parts of an answer out of order: ${out}`),
        );
      }
      return;
    }
    // Every other type is an answer: a new type that is not one fails to compile here.
    this.pending.delete(requestId);
    const whole = (request.parts ?? new PartsAssembly()).finish(data satisfies Settling);
    if (!whole.ok)
      request.fail(new WorkerClientError('WORKER_FAILED', `the ${name}'s answer is not whole: ${whole.problem}`));
    // A long answer is handed on in a task of its own: what the page does with it (a long run's first
    // draw) does not add up with the check of its last message into one long task.
    else if (request.parts !== undefined) nextTask(() => request.settle(whole.answer));
    else request.settle(whole.answer);
  }

  /** Ends the worker, fails what waits for it with `error`; the next request starts a fresh one. */
  private restart(error: WorkerClientError): void {
    this.worker?.terminate?.();
    this.worker = null;
    this.failAll(error);
    this.broken = null;
    if (this.options.lazy !== true) this.start();
  }

  request<A extends Settling>(expected: Settling['type'], request: Request, hooks: RequestHooks): Promise<A> {
    const { name } = this;
    return this.answerWithin(request.requestId, hooks, (resolve, reject) => {
      const target = this.worker ?? this.start();
      this.pending.set(request.requestId, {
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
        this.pending.delete(request.requestId);
        reject(new WorkerClientError('WORKER_FAILED', `could not send to the ${name}: ${String(error)}`));
      }
    });
  }

  listen(requestId: number, hooks: RequestHooks): Promise<Settling> {
    return this.answerWithin<Settling>(requestId, hooks, (resolve, reject) => {
      // The hooks object itself: a hook set on it later hears the reports from then on.
      const pending: Pending = Object.assign(hooks, {
        settle(response: Settling) {
          if (response.type === 'error') reject(new WorkerClientError(response.code, response.message));
          else resolve(response);
        },
        fail: reject,
      });
      this.pending.set(requestId, pending);
    });
  }

  abandon(requestId: number): void {
    if (!this.pending.has(requestId)) return;
    if (this.pending.size > 1) this.pending.delete(requestId);
    else this.restart(new WorkerClientError('STOPPED', `request ${requestId} was abandoned`));
  }

  /** A request's answer once `wait` has registered it (unless the worker broke for good), within its budget. */
  private answerWithin<A>(
    requestId: number,
    { budget }: RequestHooks,
    wait: (resolve: (answer: A) => void, reject: (error: WorkerClientError) => void) => void,
  ): Promise<A> {
    const answered = new Promise<A>((resolve, reject) => {
      if (this.broken !== null) reject(this.broken);
      else wait(resolve, reject);
    });
    if (budget === undefined) return answered;
    // The budget is the page's: past it the worker is replaced, whatever it is stuck in.
    const timer = setTimeout(() => {
      if (!this.pending.has(requestId)) return;
      this.restart(
        new WorkerClientError(
          'RUN_BUDGET',
          `the ${budget.what} took longer than ${budget.ms} ms, so it was stopped and a fresh worker started${budget.after ?? ''}`,
        ),
      );
    }, budget.ms);
    return answered.finally(() => clearTimeout(timer));
  }

  stop(message: string): void {
    this.restart(new WorkerClientError('STOPPED', message));
  }

  terminate(): void {
    this.worker?.terminate?.();
    this.broken = new WorkerClientError('WORKER_FAILED', `the ${this.name} was stopped`);
    this.failAll(this.broken);
  }
}

/** The reports that come before an answer: how far a long request got, and what the worker read of a link before the run it names. */
type Report =
  | Extract<Received, { type: 'progress' | 'explore-progress' | 'recording-progress' | 'verify-progress' }>
  | (OpenedResponse & { run: NonNullable<OpenedResponse['run']> });

/** Hands a progress report to the request's hook; false when `data` is not a report. */
function reported(request: Pending, data: Received): data is Report {
  switch (data.type) {
    case 'progress':
      request.progress?.({ eventsRun: data.eventsRun, atMs: data.atMs });
      return true;
    case 'explore-progress':
      request.exploreProgress?.({
        states: data.states,
        schedules: data.schedules,
        violations: data.violations,
        fraction: data.fraction,
      });
      return true;
    case 'recording-progress':
      request.recordingProgress?.({ stage: data.stage, done: data.done, total: data.total });
      return true;
    case 'verify-progress':
      request.verifyProgress?.({ runsDone: data.runsDone, runsTotal: data.runsTotal, statement: data.statement });
      return true;
    case 'opened':
      request.opened?.(data);
      // With no run to follow, it is the answer too.
      return data.run !== null;
    default:
      // A part or an answer: `settle` takes it, and its `data satisfies Settling` makes a new type that is neither fail to compile.
      return false;
  }
}

function preview(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 120 ? `${text.slice(0, 120)}…` : text;
  } catch {
    return String(value);
  }
}
