import type { DiagramLayout, TimeScale } from '../diagram/geometry/layout';
import { arrivalQueue, protocolChecks } from './lazyChecks';
import { PartsAssembly } from './runParts';
import type {
  EventWording,
  ExploreProgressResponse,
  ExploreResult,
  Implementation,
  LabAnswer,
  LabRequest,
  LabResponse,
  LedgerChoice,
  LedgerRows,
  LedgerTable,
  LedgerView,
  ProgressResponse,
  RaceFactSteps,
  RaceView,
  ResolvedResponse,
  ScenarioInfo,
  Settings,
  Transcript,
  Transport,
  WorkerErrorCode,
} from './protocol';

/**
 * The page's side of the worker protocol: one promise per request, correlated by requestId. Every
 * request settles: with the worker's answer, with the worker's error, or with WORKER_FAILED when the
 * worker itself broke (failed to load, threw outside a handler, sent something unreadable).
 */

/** STOPPED: the page's Stop ended the run; RUN_BUDGET: the run outlived its wall-clock budget (issue #14). */
export type ClientErrorCode = WorkerErrorCode | 'WORKER_FAILED' | 'STOPPED' | 'RUN_BUDGET';

/** How long a run may compute in the worker before the page ends it (wall-clock, page side; the engine has no clock). */
export const RUN_BUDGET_MS = 60_000;

export interface LabClientOptions {
  runBudgetMs?: number;
}

export class LabClientError extends Error {
  override name = 'LabClientError';
  readonly code: ClientErrorCode;

  constructor(code: ClientErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export interface RunParams {
  scenario: string;
  transport: Transport;
  seed: number;
  settings?: Settings;
  /** Ledger scenarios: a fresh ledger (the default) or the stored one, saved back after the run. */
  ledger?: LedgerChoice;
  /** The time axis the diagram is laid out on (ordinal by default). */
  scale?: TimeScale;
  /** A–D: the lab's model (the default) or the real TypeScript SDK (issue #13). */
  impl?: Implementation;
  /** Replays exactly this explored ordering (issue #11). */
  schedule?: string;
  /** Faults on given messages (issue #11): `drop:12,delay:14:300,duplicate:9`. */
  faults?: string;
}

export interface ExploreParams {
  scenario: string;
  transport: Transport;
  seed: number;
  settings?: Settings;
  /** Most states to visit; a cut exploration says `complete: false`. */
  bound: number;
}

/** How far an exploration got (from the worker's `explore-progress` reports). */
export type ExploreProgress = Omit<ExploreProgressResponse, 'type' | 'requestId'>;

/** A run's transcript, the engine's wording of each of its events, and, for a request race, where it reaches each recorded fact. */
export interface LabRun {
  /** Which run this is, to ask the worker for its diagram on another time axis (`layout`). */
  runId: number;
  transcript: Transcript;
  facts: RaceFactSteps | null;
  /** Predict mode's race in the run; null: none. */
  race: RaceView | null;
  wording: EventWording[];
  /** The run's diagram, laid out in the worker (issue #9). */
  layout: DiagramLayout;
}

/** What a long run has done so far (from the worker's `progress` reports). */
export type RunProgress = Pick<ProgressResponse, 'eventsRun' | 'atMs'>;

export interface LabClient {
  list(): Promise<ScenarioInfo[]>;
  run(params: RunParams): Promise<Transcript>;
  /** Like run, with the facts' steps; `onProgress` hears the worker's progress reports while it computes. */
  runLab(params: RunParams, onProgress?: (progress: RunProgress) => void): Promise<LabRun>;
  /** A `lab probe --json` file, checked in the worker and answered like a run (LAB049 when it is not a probe transcript). */
  openRecording(bytes: Uint8Array, scale?: TimeScale): Promise<LabRun>;
  /** The diagram of a run this client asked for (by its runId) on another time axis: the worker keeps the latest few runs. */
  layout(runId: number, scale: TimeScale): Promise<DiagramLayout>;
  /** Every ordering of a run (issue #11); `onProgress` hears how far it got. Stop ends it like a run. */
  explore(params: ExploreParams, onProgress?: (progress: ExploreProgress) => void): Promise<ExploreResult>;
  /** A shared link's values as the engine accepts them, with what it refused (see ResolveRequest). */
  resolve(params: Record<string, string>): Promise<Pick<ResolvedResponse, 'view' | 'problems'>>;
  /** The stored ledger's tables: the first rows of each and their counts. */
  ledgerSnapshot(): Promise<LedgerView>;
  /** Up to `limit` rows (at most LEDGER_ROWS_LIMIT_MAX) of one table of the stored ledger from row `offset` (0-based) on. */
  ledgerRows(table: LedgerTable, offset: number, limit: number): Promise<LedgerRows>;
  /** Replaces the stored ledger; rejects with LAB010 and changes nothing when the bytes are not a lab ledger. */
  importLedger(bytes: Uint8Array): Promise<LedgerView>;
  /** The stored ledger as a SQLite file. */
  exportLedger(): Promise<Uint8Array>;
  /** Forgets the stored ledger. */
  resetLedger(): Promise<LedgerView>;
  /**
   * Ends whatever the worker is computing: terminates it, rejects pending requests with STOPPED and
   * starts a fresh worker for the next request. The stored ledger is saved only after a completed run,
   * so it stays as it was.
   */
  stop(): void;
  /** Stops the worker; pending requests reject with WORKER_FAILED. */
  terminate(): void;
}

/** The part of `Worker` the client uses, so tests can hand in a fake. */
export interface WorkerLike {
  postMessage(message: LabRequest): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'messageerror', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  terminate(): void;
}

export function createLabWorker(): WorkerLike {
  return new Worker(new URL('./lab.worker.ts', import.meta.url), { type: 'module', name: 'lab-engine' });
}

interface Pending {
  settle(response: LabAnswer): void;
  fail(error: LabClientError): void;
  progress?: (progress: RunProgress) => void;
  /** The parts of a long answer received so far (runParts.ts). */
  parts?: PartsAssembly;
  exploreProgress?: (progress: ExploreProgress) => void;
}

type Answer<T extends LabAnswer['type']> = Extract<LabAnswer, { type: T }>;

export function createLabClient(makeWorker: () => WorkerLike = createLabWorker, options: LabClientOptions = {}): LabClient {
  // The checks load while the worker starts: ready before its first answer.
  void protocolChecks().catch(() => undefined);
  const runBudgetMs = options.runBudgetMs ?? RUN_BUDGET_MS;
  let worker = makeWorker();
  const pending = new Map<number, Pending>();
  let nextRequestId = 1;
  let broken: LabClientError | null = null;

  function failAll(error: LabClientError): void {
    const waiting = [...pending.values()];
    pending.clear();
    for (const request of waiting) request.fail(error);
  }

  /** Listens to one worker; a replaced (stopped) worker's late messages are ignored. */
  function listen(target: WorkerLike): void {
    // Each event is read at once and handled in arrival order once the checks have loaded (lazyChecks.ts).
    const later = arrivalQueue((problem) => {
      if (target === worker) failAll(new LabClientError('WORKER_FAILED', problem));
    });
    target.addEventListener('message', (event) => {
      const received = event.data;
      later(({ explainBadResponse }) => {
        if (target === worker) onMessage(received, explainBadResponse(received));
      });
    });
    function onMessage(received: unknown, problem: string | null): void {
      if (problem !== null) {
        failAll(new LabClientError('WORKER_FAILED', `the lab worker sent a message the page cannot read (${problem}): ${preview(received)}`));
        return;
      }
      const data = received as LabResponse;
      const requestId = data.requestId;
      if (requestId === null) {
        // Only an error can lack a requestId: the worker could not tell which request it answers.
        failAll(data.type === 'error' ? new LabClientError(data.code, data.message) : new LabClientError('WORKER_FAILED', 'unaddressed answer'));
        return;
      }
      const request = pending.get(requestId);
      if (request === undefined) return; // already settled (terminated): nothing waits for it
      if (data.type === 'progress') {
        request.progress?.({ eventsRun: data.eventsRun, atMs: data.atMs });
        return;
      }
      if (data.type === 'run-part') {
        const problem = (request.parts ??= new PartsAssembly()).add(data);
        if (problem !== null) {
          pending.delete(requestId);
          request.fail(new LabClientError('WORKER_FAILED', `the lab worker sent the parts of an answer out of order: ${problem}`));
        }
        return;
      }
      if (data.type === 'explore-progress') {
        request.exploreProgress?.({ states: data.states, schedules: data.schedules, violations: data.violations, fraction: data.fraction });
        return;
      }
      pending.delete(requestId);
      const whole = (request.parts ?? new PartsAssembly()).finish(data);
      if (whole.ok) request.settle(whole.answer);
      else request.fail(new LabClientError('WORKER_FAILED', `the lab worker's answer is not whole: ${whole.problem}`));
    }
    target.addEventListener('messageerror', () => {
      later(() => {
        if (target === worker) failAll(new LabClientError('WORKER_FAILED', 'a message from the lab worker could not be deserialized'));
      });
    });
    target.addEventListener('error', (event) => {
      event.preventDefault();
      const message = event.message;
      later(() => {
        if (target !== worker) return;
        broken = new LabClientError('WORKER_FAILED', `the lab worker failed: ${message || 'it could not be loaded'}`);
        failAll(broken);
      });
    });
  }
  listen(worker);

  /** Terminates the worker, fails what waits for it with `error`, and starts a fresh one. */
  function restart(error: LabClientError): void {
    worker.terminate();
    failAll(error);
    broken = null;
    worker = makeWorker();
    listen(worker);
  }

  function send<T extends LabAnswer['type']>(expected: T, request: LabRequest, progress?: (progress: RunProgress) => void, exploreProgress?: (progress: ExploreProgress) => void): Promise<Answer<T>> {
    return new Promise<Answer<T>>((resolve, reject) => {
      if (broken !== null) {
        reject(broken);
        return;
      }
      pending.set(request.requestId, {
        settle(response) {
          if (response.type === expected) resolve(response as Answer<T>);
          else if (response.type === 'error') reject(new LabClientError(response.code, response.message));
          else reject(new LabClientError('WORKER_FAILED', `asked for ${expected}, the lab worker answered ${response.type}`));
        },
        fail: reject,
        progress,
        exploreProgress,
      });
      try {
        worker.postMessage(request);
      } catch (error) {
        pending.delete(request.requestId);
        reject(new LabClientError('WORKER_FAILED', `could not send to the lab worker: ${String(error)}`));
      }
    });
  }

  /** Past the page's budget the worker is replaced, whatever it is stuck in. */
  function withBudget<T>(requestId: number, what: string, body: () => Promise<T>): Promise<T> {
    const budget = setTimeout(() => {
      if (!pending.has(requestId)) return;
      restart(new LabClientError('RUN_BUDGET', `the ${what} took longer than ${runBudgetMs} ms, so it was stopped and a fresh worker started; the stored ledger is as it was`));
    }, runBudgetMs);
    return body().finally(() => clearTimeout(budget));
  }

  async function explore({ scenario, transport, seed, settings = {}, bound }: ExploreParams, onProgress?: (progress: ExploreProgress) => void): Promise<ExploreResult> {
    const requestId = nextRequestId++;
    const answer = await withBudget(requestId, 'exploration', () => send('exploration', { type: 'explore', requestId, scenario, transport, seed, settings, bound }, undefined, onProgress));
    return answer.result;
  }

  async function runLab({ scenario, transport, seed, settings = {}, ledger = 'fresh', scale = 'ordinal', impl = 'model', schedule, faults }: RunParams, onProgress?: (progress: RunProgress) => void): Promise<LabRun> {
    const requestId = nextRequestId++;
    // The budget is the page's: past it the worker is replaced, whatever it is stuck in.
    const budget = setTimeout(() => {
      if (!pending.has(requestId)) return;
      restart(new LabClientError('RUN_BUDGET', `the run took longer than ${runBudgetMs} ms, so it was stopped and a fresh worker started; the stored ledger is as it was`));
    }, runBudgetMs);
    try {
      const answer = await send(
        'transcript',
        { type: 'run', requestId, scenario, transport, seed, settings, ledger, scale, ...(impl === 'model' ? {} : { impl }), ...(schedule === undefined ? {} : { schedule }), ...(faults === undefined ? {} : { faults }) },
        onProgress,
      );
      return { runId: requestId, transcript: answer.transcript, facts: answer.facts, race: answer.race ?? null, wording: answer.wording, layout: answer.layout };
    } finally {
      clearTimeout(budget);
    }
  }

  return {
    async list() {
      const answer = await send('scenarios', { type: 'list', requestId: nextRequestId++ });
      return answer.scenarios;
    },
    async run(params) {
      return (await runLab(params)).transcript;
    },
    runLab,
    async openRecording(bytes, scale = 'ordinal') {
      const requestId = nextRequestId++;
      const answer = await withBudget(requestId, 'recording', () => send('transcript', { type: 'recording', requestId, scale, bytes }));
      return { runId: requestId, transcript: answer.transcript, facts: null, race: null, wording: answer.wording, layout: answer.layout };
    },
    async layout(runId, scale) {
      return (await send('layout', { type: 'layout', requestId: nextRequestId++, run: runId, scale })).layout;
    },
    explore,
    async resolve(params) {
      const { view, problems } = await send('resolved', { type: 'resolve', requestId: nextRequestId++, params });
      return { view, problems };
    },
    async ledgerSnapshot() {
      return (await send('ledger', { type: 'ledger-snapshot', requestId: nextRequestId++ })).ledger;
    },
    async ledgerRows(table, offset, limit) {
      return (await send('ledger-rows', { type: 'ledger-rows', requestId: nextRequestId++, table, offset, limit })).page;
    },
    async importLedger(bytes) {
      return (await send('ledger', { type: 'ledger-import', requestId: nextRequestId++, bytes })).ledger;
    },
    async exportLedger() {
      return (await send('ledger-file', { type: 'ledger-export', requestId: nextRequestId++ })).bytes;
    },
    async resetLedger() {
      return (await send('ledger', { type: 'ledger-reset', requestId: nextRequestId++ })).ledger;
    },
    stop() {
      restart(new LabClientError('STOPPED', 'the run was stopped and a fresh worker started; the stored ledger is as it was'));
    },
    terminate() {
      worker.terminate();
      broken = new LabClientError('WORKER_FAILED', 'the lab worker was stopped');
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
