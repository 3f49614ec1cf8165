import { LabError, wordEvents } from '../engine';
import { ledgerScopeNotes } from '../engine';
import { LedgerFile, type Row, type SqlModule } from '../engine';
import { OpenLedger, sameBytes } from './ledgerPage';
import { Exploration } from '../engine';
import { settingsSpecFor, usesSqlite } from '../engine';
import type { EventWording, Settings, Transcript } from '../engine';
import { resolveRunParams, resolveRunSpec } from '../runs/runSpec';
import { runModel, runResolved } from '../runs/runs';
import { findScenario, scenarios } from '../scenarios/index';
import { layoutDiagram, type LabelPlacement } from '../diagram/geometry/layout';
import type { TimeScale } from '../diagram/geometry/model';
import { raceFactSteps } from './facts';
import { readLink } from './link';
import { transcriptAhead, layoutAhead } from './runParts';
import { raceView } from './race';
import { readRecording, recordingTranscript, wordRecording } from './recording';
import type { LedgerStorage } from './ledgerStorage';
import { LEDGER_BYTES_MAX, ledgerTooLarge } from './ledgerLimits';
import { errorResponse, malformed } from './serve';

export { errorResponse, malformed } from './serve';
import {
  explainBadRequest,
  isLabRequest,
  salvageRequestId,
  type ExploreProgressResponse,
  type ExploreRequest,
  type ExploreResult,
  type LabAnswer,
  type LabResponse,
  type LabRequest,
  type LedgerRow,
  type LedgerRows,
  type LedgerView,
  type OpenedResponse,
  type ProgressResponse,
  type RecordingProgressResponse,
  type ResolvedResponse,
  type RunRequest,
  type ScenarioInfo,
  type ViewProblem,
} from './protocol';

/**
 * What the engine worker does with each incoming message, without the worker: every message, valid or
 * not, gets exactly one answer (a LabAnswer; a long run may send `progress` first) and nothing rejects. engine.worker.ts wires it to `self` with sql.js
 * and IndexedDB; unit tests give it sql.js loaded in Node and an in-memory storage.
 *
 * Messages are handled one at a time, in arrival order: a kept-ledger run reads the stored ledger,
 * runs and saves it back, and an import or reset arriving meanwhile must not interleave with that.
 */

/** A limit on what an import may hand the worker (docs/architecture.md#a-limit-on-everything); the page checks a file against it before reading. */
export { LEDGER_BYTES_MAX } from './ledgerLimits';

/** How often a long run reports progress, at most (wall-clock time in the worker, never the engine's clock). */
export const PROGRESS_EVERY_MS = 100;

/** How many of the latest runs the worker keeps, to lay one out again on the other time axis (a `layout` request). */
export const RUNS_KEPT_MAX = 4;

export interface LabHostOptions {
  /**
   * sql.js: a promise already loading, or a function that starts loading it on the first request that
   * touches SQLite (the browser worker: a run of A–D never fetches the WASM). Only those requests wait for it.
   */
  sql: Promise<SqlModule> | (() => Promise<SqlModule>);
  storage: LedgerStorage;
  /** The worker's wall clock, for pacing progress reports (tests pass their own). */
  now?: () => number;
  /**
   * Where runs' wire labels go: 'placed' (the default, the lab's view) or 'unplaced' (each at its line's
   * middle), which only the UI benchmark's second build asks for, to print what placement costs.
   */
  labels?: LabelPlacement;
}

/** What a long request reports before its answer: a run's events so far, or an exploration's states. */
/** What a host sends before an answer: progress reports, a long run's events and wording, then its layout's rows, in parts (transcriptAhead, layoutAhead), and what it read of a link before the run it names (`opened`). */
export type Progress =
  | ProgressResponse
  | ExploreProgressResponse
  | RecordingProgressResponse
  | Extract<LabResponse, { type: 'run-part' }>
  | OpenedResponse;

/** How many runs an exploration makes between two looks at the clock (a run takes microseconds to milliseconds). */
const EXPLORE_SLICE_RUNS = 16;

export interface LabHost {
  /**
   * Answers one message. `notify` receives the `progress` reports of a long run before the answer
   * (optional reading, they never replace it), and a long run's events and wording in parts before
   * it is laid out: the answer then leaves them out of its own parts (runParts.ts), so a `notify` must
   * post them all, in order, before the answer.
   */
  handleMessage(data: unknown, notify?: (progress: Progress) => void): Promise<LabAnswer>;
}

export function scenarioInfo(): ScenarioInfo[] {
  return scenarios.map((scenario) => ({
    id: scenario.id,
    kind: scenario.kind,
    title: scenario.title,
    topic: scenario.topic,
    summary: scenario.summary,
    requirements: [...scenario.requirements],
    defaultTransport: scenario.defaultTransport,
    settings: Object.fromEntries(Object.entries(scenario.settings)) as Settings,
    settingsSpec: structuredClone(settingsSpecFor(scenario)),
    ...(scenario.race === undefined ? {} : { neutralTitle: scenario.race.neutralTitle }),
  }));
}

/**
 * A shared link's values as the engine accepts them (see ResolveRequest): the link's run is judged by
 * the lab's one run description, leniently, so each refused value is reported with the engine's own
 * error and replaced by the default, and a tampered link still opens.
 */
export function resolveView(
  params: Readonly<Record<string, string>>,
): ResolvedResponse['view'] & { problems: ViewProblem[] } {
  const fallback = scenarios[0];
  if (fallback === undefined) throw new Error('the lab has no scenarios');
  const problems: ViewProblem[] = [];
  // An ordering and faults travel beside the link's run (the store sends them with the run), not in it.
  const { schedule: _schedule, faults: _faults, ...run } = params;
  const { scenario, impl, ...judged } = resolveRunParams(run, findScenario, {
    problems,
    fallback,
    keepSdkDecidedSettings: true,
  });
  return { ...judged, scenario: scenario.id, ...(impl === 'model' ? {} : { impl }), problems };
}

function cell(value: Row[string]): LedgerRow[string] {
  if (value instanceof Uint8Array)
    return `x'${Array.from(value, (byte) => byte.toString(16).padStart(2, '0')).join('')}'`;
  return value;
}

function rows(table: Row[]): LedgerRow[] {
  return table.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, cell(value)])));
}

/** What the page is sent of an open ledger: its first rows and counts, table by table. */
function ledgerView(ledger: OpenLedger): LedgerView {
  const snapshot = ledger.page();
  return {
    stored: ledger.bytes !== null,
    ledgerId: ledger.id,
    bytes: snapshot.bytes,
    idempotencyKeys: rows(snapshot.idempotencyKeys),
    effects: rows(snapshot.effects),
    executions: rows(snapshot.executions),
    totals: snapshot.totals,
    scopeNotes: [...ledgerScopeNotes],
  };
}

/** sql.js, loaded on the first request that needs it; a failure to load is LAB011 on those requests (A–D run without it). */
function sqlLoader(sqlLoading: LabHostOptions['sql']): () => Promise<SqlModule> {
  const settle = (loading: Promise<SqlModule>) =>
    loading.then(
      (sql) => ({ sql, problem: null }),
      (error: unknown) => ({ sql: null, problem: error instanceof Error ? error.message : String(error) }),
    );
  let sqlReady = typeof sqlLoading === 'function' ? null : settle(sqlLoading);
  return async () => {
    sqlReady ??= settle(Promise.resolve().then(sqlLoading as () => Promise<SqlModule>));
    const { sql, problem } = await sqlReady;
    if (sql === null)
      throw new LabError(
        'LAB011',
        `the worker could not load sql.js (${problem ?? 'unknown reason'}); scenarios without a ledger still run`,
      );
    return sql;
  };
}

/** The stored ledger as the worker holds it: open once checked, its rows, its import, export and reset. */
interface StoredLedger {
  /** The held file is stale (a run saved a new ledger): the next read opens the stored one. */
  drop(): void;
  open(): Promise<OpenLedger>;
  rows(table: LedgerRows['table'], offset: number, limit: number): Promise<LedgerRows>;
  importBytes(bytes: Uint8Array): Promise<LedgerView>;
  exportBytes(): Promise<Uint8Array>;
  reset(): Promise<LedgerView>;
}

function storedLedgerOf(storage: LedgerStorage, sqlModule: () => Promise<SqlModule>): StoredLedger {
  /**
   * The stored ledger, held open once checked: a page of rows, or a snapshot of bytes the
   * worker already checked, reads this file instead of opening and checking 12 MB again. Null until the
   * stored ledger is first read, and again whenever a run saves a new one.
   */
  let held: OpenLedger | null = null;
  const hold = (next: OpenLedger | null) => {
    if (held !== next) held?.close();
    held = next;
  };

  /**
   * The stored ledger, open: the held one while the storage holds the very bytes it was opened from (another
   * tab of the lab may have saved since), else the stored bytes opened and checked anew (LAB010 if they are
   * not a lab ledger).
   */
  async function open(): Promise<OpenLedger> {
    const sql = await sqlModule();
    const bytes = await storage.load();
    if (held !== null && (bytes === null || held.bytes === null ? bytes === held.bytes : sameBytes(bytes, held.bytes)))
      return held;
    hold(null);
    const opened = OpenLedger.open(sql, bytes);
    hold(opened);
    return opened;
  }

  return {
    drop: () => hold(null),
    open,
    /** Rows of one table from the held ledger (the one the page shows), opening the stored one when none is held. */
    async rows(table, offset, limit) {
      const ledger = held ?? (await open());
      return {
        table,
        offset,
        rows: rows(ledger.rows(table, offset, limit)),
        total: ledger.totals[table],
        ledgerId: ledger.id,
      };
    },
    async importBytes(bytes) {
      if (bytes.length > LEDGER_BYTES_MAX) {
        throw new LabError('LAB010', ledgerTooLarge(bytes.length));
      }
      // Checked first: bytes that are not a lab ledger throw LAB010 before anything is stored. Checked once:
      // the file stays open for the view, its pages and later snapshots of the same bytes.
      const opened = OpenLedger.open(await sqlModule(), bytes);
      try {
        await storage.exclusive(() => storage.save(bytes));
      } catch (error) {
        opened.close();
        throw error;
      }
      hold(opened);
      return ledgerView(opened);
    },
    async exportBytes() {
      const stored = await storage.load();
      if (stored !== null) return stored;
      const empty = LedgerFile.open(await sqlModule(), null);
      try {
        return empty.export();
      } finally {
        empty.close();
      }
    },
    async reset() {
      const sql = await sqlModule();
      await storage.exclusive(() => storage.clear());
      const empty = OpenLedger.open(sql, null);
      hold(empty);
      return ledgerView(empty);
    },
  };
}

/** Reports a long request's progress, paced by the worker's wall clock. */
function progressReporters(now: () => number) {
  return {
    /** Observes a run: every 1,024 events, reports progress if PROGRESS_EVERY_MS passed since the last report. */
    runSteps(
      requestId: number,
      notify: ((progress: Progress) => void) | undefined,
    ): ((atMs: number) => void) | undefined {
      if (notify === undefined) return undefined;
      let eventsRun = 0;
      let reportedAt = now();
      return (atMs) => {
        eventsRun += 1;
        if ((eventsRun & 1023) !== 0) return;
        const time = now();
        if (time - reportedAt < PROGRESS_EVERY_MS) return;
        reportedAt = time;
        notify({ type: 'progress', requestId, eventsRun, atMs });
      };
    },
    /**
     * The listeners of a recording's stages: each stage's first report is sent (the page names the stage at
     * once), then at most one every PROGRESS_EVERY_MS.
     */
    recordingStages(
      requestId: number,
      notify: ((progress: Progress) => void) | undefined,
    ): (stage: RecordingProgressResponse['stage']) => (done: number, total: number) => void {
      let reportedAt = -Infinity;
      let lastStage: RecordingProgressResponse['stage'] | null = null;
      return (stage) => (done, total) => {
        if (notify === undefined) return;
        const time = now();
        if (stage === lastStage && time - reportedAt < PROGRESS_EVERY_MS) return;
        lastStage = stage;
        reportedAt = time;
        notify({ type: 'recording-progress', requestId, stage, done, total });
      };
    },
  };
}

/** What the run and explore requests need of the host. */
interface RunHost {
  readonly sqlModule: () => Promise<SqlModule>;
  readonly storage: LedgerStorage;
  readonly ledger: StoredLedger;
  readonly now: () => number;
  readonly progress: ReturnType<typeof progressReporters>;
}

/** A run request: its run judged by the lab's one run description, then run on the model (with its ledger) or an SDK. */
async function runRequest(
  host: RunHost,
  request: RunRequest,
  notify?: (progress: Progress) => void,
): Promise<Transcript> {
  // The request's run selection, less its envelope, ledger and axis, as the lab's run description; its
  // ordering and faults arrive parsed (the run request's schema checked their shape and bounds).
  const {
    type: _type,
    requestId,
    ledger,
    scale: _scale,
    impl = 'model',
    settings,
    schedule,
    faults,
    ...selection
  } = request;
  // Its settings arrive typed too, and are judged as values, not written as text to be read back.
  const resolved = resolveRunSpec({ ...selection, impl, settings: {} }, findScenario, {
    replay: { schedule, faults },
    settings,
  });
  const { scenario } = resolved;
  const onStep = host.progress.runSteps(requestId, notify);
  // Each SDK is its own chunk, fetched the first time a run asks for it: the model's runs never load either.
  if (resolved.impl !== 'model' || !usesSqlite(scenario)) return runResolved(resolved, { onStep });
  const sql = await host.sqlModule();
  // Only the mutation ledger is kept between runs; other SQLite-backed models (tasks) always start empty.
  if (scenario.kind !== 'ledger' || ledger === 'fresh') return runModel(resolved, { onStep, ledger: { sql } });
  // Read, run and save in one turn with the stored ledger: another tab's run waits for it (Web Locks).
  const { storage } = host;
  return storage.exclusive(async () => {
    // The engine hands back the file's bytes only after a completed run; a failed run saves nothing.
    const completed: { bytes: Uint8Array | null } = { bytes: null };
    const transcript = runModel(resolved, {
      onStep,
      ledger: { sql, bytes: await storage.load(), save: (bytes) => (completed.bytes = bytes) },
    });
    if (completed.bytes !== null) {
      // The held file is the ledger as it was before this run: the next read opens the one saved now.
      host.ledger.drop();
      await storage.save(completed.bytes);
    }
    return transcript;
  });
}

/**
 * Explores every ordering, reporting progress every PROGRESS_EVERY_MS. The worker is busy until it
 * ends; the page's Stop replaces the worker (as for a long run), so nothing here needs to listen.
 */
async function exploreRequest(
  host: RunHost,
  request: ExploreRequest,
  notify?: (progress: Progress) => void,
): Promise<ExploreResult> {
  const { type: _type, requestId: _requestId, bound: _bound, settings: given, ...explored } = request;
  const { scenario, transport, seed, settings } = resolveRunSpec(
    { ...explored, impl: 'model', settings: {} },
    findScenario,
    { settings: given },
  );
  const ledger = usesSqlite(scenario) ? { sql: await host.sqlModule() } : undefined;
  const exploration = new Exploration(scenario, { transport, seed, settings, bound: request.bound, ledger });
  let reportedAt = host.now();
  while (!exploration.advance(EXPLORE_SLICE_RUNS)) {
    const time = host.now();
    if (notify === undefined || time - reportedAt < PROGRESS_EVERY_MS) continue;
    reportedAt = time;
    notify({ type: 'explore-progress', requestId: request.requestId, ...exploration.progress() });
  }
  return exploration.result();
}

/** The latest runs answered, newest last (their transcript and wording, by the run's requestId), each laid out again on request. */
function keptRuns(labels: LabelPlacement) {
  const kept: Array<{ requestId: number; transcript: Transcript; wording: EventWording[] }> = [];
  return {
    /** Keeps a run and lays it out on `scale`: the page only cuts the diagram. */
    keep(requestId: number, transcript: Transcript, wording: EventWording[], scale: TimeScale) {
      kept.push({ requestId, transcript, wording });
      if (kept.length > RUNS_KEPT_MAX) kept.shift();
      return layoutDiagram(transcript, wording, scale, undefined, labels);
    },
    /** A kept run laid out on `scale`; a run no longer kept (the worker was replaced, or many runs came since) is refused with an error asking to run it again, which the page shows (it re-runs nothing by itself). */
    relayout(runId: number, scale: TimeScale) {
      const run = kept.find((entry) => entry.requestId === runId);
      if (run === undefined)
        throw new Error(
          `the worker no longer holds run #${runId} (it keeps the latest ${RUNS_KEPT_MAX}); run it again`,
        );
      return layoutDiagram(run.transcript, run.wording, scale, undefined, labels);
    },
  };
}

/** A run's answer: its transcript, the engine's wording of each event, its diagram laid out and, for a request race, its facts. */
async function runAnswer(
  host: RunHost & { readonly runs: ReturnType<typeof keptRuns> },
  request: RunRequest,
  notify?: (progress: Progress) => void,
): Promise<Extract<LabAnswer, { type: 'transcript' }>> {
  const { requestId } = request;
  const transcript = await runRequest(host, request, notify);
  // The engine words every event once; the page draws and never words events itself. The
  // diagram is laid out here too, off the page's thread; the page only cuts it.
  const wording = wordEvents(transcript.events);
  // A long run's events and wording go first: the page reads them while the run is laid out.
  if (notify !== undefined) for (const part of transcriptAhead(requestId, transcript, wording) ?? []) notify(part);
  const layout = host.runs.keep(requestId, transcript, wording, request.scale ?? 'ordinal');
  // Its layout's rows go next, before the race facts are found: the page reads them meanwhile.
  if (notify !== undefined) for (const part of layoutAhead(requestId, transcript, layout)) notify(part);
  return {
    type: 'transcript',
    requestId,
    transcript,
    facts: raceFactSteps(transcript),
    race: raceView(transcript),
    wording,
    layout,
  };
}

/**
 * What the page's store does first with the link in `search` (src/store/run/run.ts, init and run), done
 * here before the page has booted: the link's params judged as `resolve` judges them (null when it has
 * none, as the store then resolves nothing), and the run the store then asks for, as it asks for it
 * (the model's seeded run of the link's values, its ordering and faults, a fresh ledger, on the link's
 * time axis). An SDK's run is left to the page (it sends the SDK less the settings the SDK decides).
 * The page takes these answers only where its own requests are the same (client.ts); elsewhere it asks.
 */
export function openLink(search: string): Pick<OpenedResponse, 'link' | 'run'> {
  const link = readLink(search);
  const params = link?.params ?? {};
  const { problems, ...view } = resolveView(params);
  const judged = Object.keys(params).length === 0 ? null : { params, view, problems };
  if (view.impl !== undefined) return { link: judged, run: null };
  const { scenario, transport, seed, settings } = view;
  const { schedule, faults } = link ?? {};
  return {
    link: judged,
    run: {
      scenario,
      transport,
      seed,
      settings,
      ledger: 'fresh',
      scale: link?.view?.linear === '1' ? 'linear' : 'ordinal',
      ...(schedule === undefined ? {} : { schedule }),
      ...(faults === undefined ? {} : { faults }),
    },
  };
}

/** The one answer to one valid request. */
async function handle(
  host: RunHost & { readonly runs: ReturnType<typeof keptRuns> },
  request: LabRequest,
  notify?: (progress: Progress) => void,
): Promise<LabAnswer> {
  const { requestId } = request;
  switch (request.type) {
    case 'list':
      return { type: 'scenarios', requestId, scenarios: scenarioInfo() };
    case 'run':
      return runAnswer(host, request, notify);
    case 'open': {
      const opened: OpenedResponse = {
        type: 'opened',
        requestId,
        scenarios: scenarioInfo(),
        ...openLink(request.search),
      };
      // The run goes on at once, answering this same request, once the page has heard what it is.
      if (opened.run === null || notify === undefined) return { ...opened, run: null };
      notify(opened);
      return runAnswer(host, { type: 'run', requestId, ...opened.run }, notify);
    }
    case 'recording': {
      // A probe transcript of a real server: checked (LAB049 names what failed), then kept and laid out like a run, reporting each stage as it goes.
      const report = host.progress.recordingStages(requestId, notify);
      const probe = readRecording(request.bytes, report('checking'));
      const transcript = recordingTranscript(probe, report('converting'));
      const wording = wordRecording(transcript.events, report('wording'));
      report('laying out')(0, transcript.events.length);
      const layout = host.runs.keep(requestId, transcript, wording, request.scale ?? 'ordinal');
      return { type: 'transcript', requestId, transcript, facts: null, race: null, wording, layout };
    }
    case 'layout':
      return { type: 'layout', requestId, layout: host.runs.relayout(request.run, request.scale) };
    case 'explore':
      return { type: 'exploration', requestId, result: await exploreRequest(host, request, notify) };
    case 'resolve': {
      const { problems, ...view } = resolveView(request.params);
      return { type: 'resolved', requestId, view, problems };
    }
    case 'ledger-snapshot':
      return { type: 'ledger', requestId, ledger: ledgerView(await host.ledger.open()) };
    case 'ledger-rows':
      return {
        type: 'ledger-rows',
        requestId,
        page: await host.ledger.rows(request.table, request.offset, request.limit),
      };
    case 'ledger-import':
      return { type: 'ledger', requestId, ledger: await host.ledger.importBytes(request.bytes) };
    case 'ledger-export':
      return { type: 'ledger-file', requestId, bytes: await host.ledger.exportBytes() };
    case 'ledger-reset':
      return { type: 'ledger', requestId, ledger: await host.ledger.reset() };
  }
}

export function createLabHost(options: LabHostOptions): LabHost {
  const { storage, labels = 'placed' } = options;
  const now = options.now ?? (() => performance.now());
  const sqlModule = sqlLoader(options.sql);
  const host = {
    sqlModule,
    storage,
    ledger: storedLedgerOf(storage, sqlModule),
    now,
    progress: progressReporters(now),
    runs: keptRuns(labels),
  };

  async function answer(data: unknown, notify?: (progress: Progress) => void): Promise<LabAnswer> {
    try {
      if (!isLabRequest(data)) return malformed(salvageRequestId(data), explainBadRequest(data) ?? 'not a lab request');
      return await handle(host, data, notify);
    } catch (error) {
      return errorResponse(salvageRequestId(data), error);
    }
  }

  let previous: Promise<unknown> = Promise.resolve();
  return {
    handleMessage(data, notify) {
      const response = previous.then(() => answer(data, notify));
      previous = response;
      return response;
    },
  };
}
