import type { Transcript } from '../engine';
import { createLabWorker, type WorkerLike } from './labWorker';
import type { DiagramLayout, TimeScale } from '../diagram/geometry/model';
import {
  createWorkerClient,
  WorkerClientError,
  type ExploreProgress,
  type RecordingProgress,
  type RequestHooks,
  type RunProgress,
  type WorkerClient,
} from './workerClient';
import type {
  EventWording,
  ExploreRequest,
  ExploreResult,
  LabAnswer,
  LabRequest,
  LedgerRows,
  LedgerTable,
  LedgerView,
  OpenedResponse,
  RaceFactSteps,
  RaceView,
  ResolvedResponse,
  RunRequest,
  ScenarioInfo,
} from './protocol';

/**
 * The page's client of the engine worker, over the one worker client (workerClient.ts) the tools worker
 * uses too: a run and an exploration have the page's wall-clock budget, Stop replaces the worker, a
 * long answer arrives in parts and a long run reports progress.
 */

export { type ClientErrorCode, type ExploreProgress, type RecordingProgress, type RunProgress } from './workerClient';
/** The engine worker's errors are the worker client's. */
export const LabClientError = WorkerClientError;
export type LabClientError = WorkerClientError;

/** How long a run may compute in the worker before the page ends it (wall-clock, page side; the engine has no clock). */
export const RUN_BUDGET_MS = 60_000;

/** What a stopped or replaced engine worker leaves: the ledger is saved only after a completed run. */
const LEDGER_KEPT = '; the stored ledger is as it was';

export interface LabClientOptions {
  runBudgetMs?: number;
}

type Sent<R> = Omit<R, 'type' | 'requestId'>;

/**
 * A run as the worker is asked for it, the run request less its envelope: the run selection (an absent
 * implementation is the model), the ledger it runs on (a fresh one, or the stored one, saved back after
 * the run) and the time axis its diagram is laid out on (ordinal by default).
 */
export type RunParams = Sent<RunRequest>;

/** An exploration, the explore request less its envelope: the seeded run of a selection, and the most states to visit (a cut exploration says `complete: false`). */
export type ExploreParams = Sent<ExploreRequest>;

/** A run's transcript, the engine's wording of each of its events, and, for a request race, where it reaches each recorded fact. */
export interface LabRun {
  /** Which run this is, to ask the worker for its diagram on another time axis (`layout`). */
  runId: number;
  transcript: Transcript;
  facts: RaceFactSteps | null;
  /** Predict mode's race in the run; null: none. */
  race: RaceView | null;
  wording: EventWording[];
  /** The run's diagram, laid out in the worker. */
  layout: DiagramLayout;
}

export interface LabClient {
  list(): Promise<ScenarioInfo[]>;
  run(params: RunParams): Promise<Transcript>;
  /** Like run, with the facts' steps; `onProgress` hears the worker's progress reports while it computes. */
  runLab(params: RunParams, onProgress?: (progress: RunProgress) => void): Promise<LabRun>;
  /** A `lab probe --json` file, checked in the worker and answered like a run (LAB049 when it is not a probe transcript). */
  /** Opens a `lab probe --json` file; `onProgress` hears how far the worker got (checking, converting, wording, laying out). */
  openRecording(
    bytes: Uint8Array,
    scale?: TimeScale,
    onProgress?: (progress: RecordingProgress) => void,
  ): Promise<LabRun>;
  /** The diagram of a run this client asked for (by its runId) on another time axis: the worker keeps the latest few runs. */
  layout(runId: number, scale: TimeScale): Promise<DiagramLayout>;
  /** Every ordering of a run; `onProgress` hears how far it got. Stop ends it like a run. */
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

/** The part of `Worker` the lab client uses, and the page's engine worker (started as the page loads, see labWorker.ts). */
export { createLabWorker, type WorkerLike } from './labWorker';

type Answer<T extends LabAnswer['type']> = Extract<LabAnswer, { type: T }>;

/**
 * The client's first list, resolve and run answered from the early start (`EarlyOpen`), each once and
 * only where it asks exactly what the worker was sent; null: ask the worker as usual.
 */
function earlyAnswers(client: WorkerClient<LabRequest>, early: EarlyOpen) {
  /** The early start's run when it is the very run asked for (its answer, or its error); null: ask the worker. */
  async function takeRun(params: RunParams, onProgress?: (progress: RunProgress) => void): Promise<LabRun | null> {
    const opened = await early.opened.catch(() => null);
    const { requestId } = early;
    if (opened?.run != null && sameData({ type: 'run', requestId, ...opened.run }, runRequest(params, requestId))) {
      early.hooks.progress = onProgress;
      const answer = await early.answer;
      if (answer !== null) return labRun(requestId, answer, answer.facts, answer.race ?? null);
    }
    // Another run (or none came): the worker must not go on computing the early one before this one.
    client.abandon(requestId);
    return null;
  }
  // Each answers once, as a promise; used, it says null at once, so what follows asks the worker in the same task.
  return {
    run(params: RunParams, onProgress?: (progress: RunProgress) => void): Promise<LabRun | null> | null {
      if (early.ran) return null;
      early.ran = true;
      return takeRun(params, onProgress);
    },
    list(): Promise<ScenarioInfo[]> | null {
      if (early.listed) return null;
      early.listed = true;
      return early.opened.then((opened) => opened.scenarios);
    },
    resolve(params: Record<string, string>): Promise<Pick<ResolvedResponse, 'view' | 'problems'> | null> | null {
      if (early.resolved) return null;
      early.resolved = true;
      return early.opened.then(({ link }) =>
        link !== null && sameData(link.params, params) ? { view: link.view, problems: link.problems } : null,
      );
    },
  };
}

export function createLabClient(
  makeWorker: () => WorkerLike = createLabWorker,
  options: LabClientOptions = {},
): LabClient {
  const runBudgetMs = options.runBudgetMs ?? RUN_BUDGET_MS;
  const first = { made: false, opening: null as number | null };
  const client = createWorkerClient<LabRequest>({
    name: 'lab worker',
    makeWorker() {
      const worker = makeWorker();
      // Only the first worker can have been sent the page's link (labWorker.ts); a fresh one never is.
      if (!first.made) first.opening = worker.opening ?? null;
      first.made = true;
      return worker;
    },
    explain: (checks) => checks.explainBadResponse,
  });
  const fromEarly = first.opening === null ? null : earlyAnswers(client, earlyOpen(client, first.opening, runBudgetMs));
  const ask = <T extends LabAnswer['type']>(expected: T, request: LabRequest, hooks?: RequestHooks) =>
    client.request<Answer<T>>(expected, request, hooks);

  async function runLab(params: RunParams, onProgress?: (progress: RunProgress) => void): Promise<LabRun> {
    const early = fromEarly?.run(params, onProgress) ?? null;
    if (early !== null) {
      const taken = await early;
      if (taken !== null) return taken;
    }
    const requestId = client.nextId();
    const answer = await ask('transcript', runRequest(params, requestId), {
      progress: onProgress,
      budget: { ms: runBudgetMs, what: 'run', after: LEDGER_KEPT },
    });
    return labRun(requestId, answer, answer.facts, answer.race ?? null);
  }

  return {
    async list() {
      const early = fromEarly?.list() ?? null;
      if (early !== null) return early;
      return (await ask('scenarios', { type: 'list', requestId: client.nextId() })).scenarios;
    },
    async run(params) {
      return (await runLab(params)).transcript;
    },
    runLab,
    async openRecording(bytes, scale = 'ordinal', onProgress) {
      const requestId = client.nextId();
      const answer = await ask(
        'transcript',
        { type: 'recording', requestId, scale, bytes },
        { recordingProgress: onProgress, budget: { ms: runBudgetMs, what: 'recording' } },
      );
      return labRun(requestId, answer, null, null);
    },
    async layout(runId, scale) {
      return (await ask('layout', { type: 'layout', requestId: client.nextId(), run: runId, scale })).layout;
    },
    async explore(explored, onProgress) {
      const answer = await ask(
        'exploration',
        { type: 'explore', requestId: client.nextId(), ...explored },
        { exploreProgress: onProgress, budget: { ms: runBudgetMs, what: 'exploration', after: LEDGER_KEPT } },
      );
      return answer.result;
    },
    async resolve(params) {
      const early = fromEarly?.resolve(params) ?? null;
      const resolved = early === null ? null : await early;
      if (resolved !== null) return resolved;
      const { view, problems } = await ask('resolved', { type: 'resolve', requestId: client.nextId(), params });
      return { view, problems };
    },
    async ledgerSnapshot() {
      return (await ask('ledger', { type: 'ledger-snapshot', requestId: client.nextId() })).ledger;
    },
    async ledgerRows(table, offset, limit) {
      return (await ask('ledger-rows', { type: 'ledger-rows', requestId: client.nextId(), table, offset, limit })).page;
    },
    async importLedger(bytes) {
      return (await ask('ledger', { type: 'ledger-import', requestId: client.nextId(), bytes })).ledger;
    },
    async exportLedger() {
      return (await ask('ledger-file', { type: 'ledger-export', requestId: client.nextId() })).bytes;
    },
    async resetLedger() {
      return (await ask('ledger', { type: 'ledger-reset', requestId: client.nextId() })).ledger;
    },
    stop() {
      client.stop(`the run was stopped and a fresh worker started${LEDGER_KEPT}`);
    },
    terminate() {
      client.terminate();
    },
  };
}

/**
 * The page's link as the built page's early start sent it to the first worker (an `open` request,
 * labWorker.ts), and what the worker answered: `opened` (the scenarios, the link's values, the run the
 * store will ask for), then that run's answer. They stand in for the client's first list, resolve and
 * run where those ask exactly that (the same params, the same run request); anything else is asked of
 * the worker as before, and a run not taken is abandoned. A stop or a budget ends the early run like
 * any other (its budget counts from the page's start).
 */
interface EarlyOpen {
  readonly requestId: number;
  /** What the worker read of the link; rejects when the request failed before saying it. */
  readonly opened: Promise<OpenedResponse>;
  /** The link's run; null when the worker started none; rejects with the run's error. */
  readonly answer: Promise<Answer<'transcript'> | null>;
  /** The request's hooks: the run's progress goes to the store once it takes the run. */
  readonly hooks: RequestHooks;
  listed: boolean;
  resolved: boolean;
  ran: boolean;
}

function earlyOpen(client: WorkerClient<LabRequest>, requestId: number, runBudgetMs: number): EarlyOpen {
  const hooks: RequestHooks = { budget: { ms: runBudgetMs, what: 'run', after: LEDGER_KEPT } };
  const answer = client
    .listen(requestId, hooks)
    .then((response) => (response.type === 'transcript' ? (response as Answer<'transcript'>) : null));
  const opened = new Promise<OpenedResponse>((resolve, reject) => {
    hooks.opened = resolve;
    // An answer without `opened` before it breaks the protocol (a no-op once it came).
    answer.then(
      () => reject(new WorkerClientError('WORKER_FAILED', 'the lab worker answered the link without reading it')),
      reject,
    );
  });
  // Read by whoever asks (list, resolve, the first run); unread, a failure is nobody's to show.
  opened.catch(() => undefined);
  answer.catch(() => undefined);
  return { requestId, opened, answer, hooks, listed: false, resolved: false, ran: false };
}

/** Whether two messages hold the same data, whatever the order of their keys. */
function sameData(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
          )
        : value;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/** The run request of `params`, numbered `requestId`. The defaults go unsaid on the wire: the model, the seeded run, no faults. */
function runRequest(
  { scale = 'ordinal', impl = 'model', schedule, faults, ...selection }: RunParams,
  requestId: number,
): LabRequest {
  return {
    type: 'run',
    requestId,
    ...selection,
    scale,
    ...(impl === 'model' ? {} : { impl }),
    ...(schedule === undefined ? {} : { schedule }),
    ...(faults === undefined ? {} : { faults }),
  };
}

/** A run the worker answered request `runId` with; `facts` and `race` are a request race's (null for a recording). */
function labRun(
  runId: number,
  answer: Answer<'transcript'>,
  facts: RaceFactSteps | null,
  race: RaceView | null,
): LabRun {
  return { runId, transcript: answer.transcript, facts, race, wording: answer.wording, layout: answer.layout };
}
