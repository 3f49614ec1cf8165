import { LabError, wordEvents } from '../engine';
import { ledgerScopeNotes } from '../engine';
import { LedgerFile, type Row, type SqlModule } from '../engine';
import { ledgerPage } from './ledgerPage';
import { Exploration } from '../engine';
import { checkSeed, checkTransport, DEFAULT_SEED, runScenario, settingsSpecFor, usesSqlite, type RunOptions, type Scenario } from '../engine';
import { parseSetting, resolveSettings } from '../engine';
import type { Settings, Transcript } from '../engine';
import { findScenario, scenarios } from '../scenarios/index';
import { raceFactSteps } from './facts';
import { StorageError, type LedgerStorage } from './ledgerStorage';
import {
  explainBadRequest,
  isLabRequest,
  salvageRequestId,
  type ErrorResponse,
  type ExploreProgressResponse,
  type ExploreRequest,
  type ExploreResult,
  type LabAnswer,
  type LabRequest,
  type LedgerRow,
  type LedgerView,
  type ProgressResponse,
  type ResolvedResponse,
  type RunRequest,
  type ScenarioInfo,
  type ViewProblem,
} from './protocol';

/**
 * What the lab worker does with each incoming message, without the worker: every message, valid or
 * not, gets exactly one answer (a LabAnswer; a long run may send `progress` first) and nothing rejects. lab.worker.ts wires it to `self` with sql.js
 * and IndexedDB; unit tests give it sql.js loaded in Node and an in-memory storage.
 *
 * Messages are handled one at a time, in arrival order: a kept-ledger run reads the stored ledger,
 * runs and saves it back, and an import or reset arriving meanwhile must not interleave with that.
 */

/** A limit on what an import may hand the worker (STYLE: a limit on everything). */
export const LEDGER_BYTES_MAX = 16 * 1024 * 1024;

/** How often a long run reports progress, at most (wall-clock time in the worker, never the engine's clock). */
export const PROGRESS_EVERY_MS = 100;

export interface LabHostOptions {
  /**
   * sql.js: a promise already loading, or a function that starts loading it on the first request that
   * touches SQLite (the browser worker: a run of A–D never fetches the WASM). Only those requests wait for it.
   */
  sql: Promise<SqlModule> | (() => Promise<SqlModule>);
  storage: LedgerStorage;
  /** The worker's wall clock, for pacing progress reports (tests pass their own). */
  now?: () => number;
}

/** What a long request reports before its answer: a run's events so far, or an exploration's states. */
export type Progress = ProgressResponse | ExploreProgressResponse;

/** How many runs an exploration makes between two looks at the clock (a run takes microseconds to milliseconds). */
const EXPLORE_SLICE_RUNS = 16;

export interface LabHost {
  /**
   * Answers one message. `notify` receives the `progress` reports of a long run before the answer;
   * they are optional reading and never replace it.
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
  }));
}

/** The link parameters that are not settings. */
export const VIEW_PARAMS = ['scenario', 'transport', 'seed'] as const;

/**
 * A shared link's values as the engine accepts them (see ResolveRequest): each refused value is
 * reported with the engine's own error and replaced by the default, so a tampered link still opens.
 */
export function resolveView(params: Readonly<Record<string, string>>): ResolvedResponse['view'] & { problems: ViewProblem[] } {
  const problems: ViewProblem[] = [];
  const attempt = <T>(param: string, value: string, check: () => T): T | undefined => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof LabError)) throw error;
      problems.push({ param, value, code: error.code, message: error.message });
      return undefined;
    }
  };

  const fallback = scenarios[0];
  if (fallback === undefined) throw new Error('the lab has no scenarios');
  let scenario: Scenario = fallback;
  if (params.scenario !== undefined) scenario = attempt('scenario', params.scenario, () => findScenario(params.scenario ?? '')) ?? fallback;

  let transport = scenario.defaultTransport;
  if (params.transport !== undefined) transport = attempt('transport', params.transport, () => checkTransport(params.transport)) ?? transport;

  let seed = DEFAULT_SEED;
  if (params.seed !== undefined) {
    const text = params.seed.trim();
    // Only plain decimal digits are numbers here ("1e3", "0x10" and "" are refused as they are written).
    seed = attempt('seed', params.seed, () => checkSeed(/^-?\d+$/.test(text) ? Number(text) : params.seed)) ?? seed;
  }

  const spec = settingsSpecFor(scenario);
  const settings: Settings = {};
  for (const [name, text] of Object.entries(params)) {
    if ((VIEW_PARAMS as readonly string[]).includes(name)) continue;
    const settingSpec = Object.hasOwn(spec, name) ? spec[name] : undefined;
    const value =
      settingSpec === undefined
        ? // resolveSettings refuses the unknown name with the engine's LAB004 message, listing the known ones.
          attempt(name, text, () => resolveSettings(spec, { ...scenario.settings }, { [name]: text })[name])
        : attempt(name, text, () => parseSetting(name, settingSpec, text));
    if (value !== undefined) settings[name] = value;
  }
  return { scenario: scenario.id, transport, seed, settings, problems };
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

function cell(value: Row[string]): LedgerRow[string] {
  if (value instanceof Uint8Array) return `x'${Array.from(value, (byte) => byte.toString(16).padStart(2, '0')).join('')}'`;
  return value;
}

function rows(table: Row[]): LedgerRow[] {
  return table.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, cell(value)])));
}

/** Reads a ledger file's tables (LAB010 when the bytes are not a lab ledger; nothing is changed). */
function ledgerView(sql: SqlModule, bytes: Uint8Array | null): LedgerView {
  const snapshot = ledgerPage(sql, bytes);
  return {
    stored: bytes !== null,
    bytes: snapshot.bytes,
    idempotencyKeys: rows(snapshot.idempotencyKeys),
    effects: rows(snapshot.effects),
    executions: rows(snapshot.executions),
    totals: snapshot.totals,
    scopeNotes: [...ledgerScopeNotes],
  };
}

export function createLabHost(options: LabHostOptions): LabHost {
  const { sql: sqlLoading, storage } = options;
  // Loading failures surface as LAB011 on the requests that need SQLite; A–D run without it.
  const settle = (loading: Promise<SqlModule>) =>
    loading.then(
      (sql) => ({ sql, problem: null }),
      (error: unknown) => ({ sql: null, problem: error instanceof Error ? error.message : String(error) }),
    );
  let sqlReady = typeof sqlLoading === 'function' ? null : settle(sqlLoading);

  async function sqlModule(): Promise<SqlModule> {
    sqlReady ??= settle(Promise.resolve().then(sqlLoading as () => Promise<SqlModule>));
    const { sql, problem } = await sqlReady;
    if (sql === null) throw new LabError('LAB011', `the worker could not load sql.js (${problem ?? 'unknown reason'}); scenarios without a ledger still run`);
    return sql;
  }

  const now = options.now ?? (() => performance.now());

  /** Observes the scheduler: every 1,024 events, reports progress if PROGRESS_EVERY_MS passed since the last report. */
  function progressTrace(requestId: number, notify: ((progress: Progress) => void) | undefined): RunOptions['trace'] {
    if (notify === undefined) return undefined;
    let eventsRun = 0;
    let reportedAt = now();
    return {
      push() {},
      pop(atMs) {
        eventsRun += 1;
        if ((eventsRun & 1023) !== 0) return;
        const time = now();
        if (time - reportedAt < PROGRESS_EVERY_MS) return;
        reportedAt = time;
        notify({ type: 'progress', requestId, eventsRun, atMs });
      },
    };
  }

  async function run(request: RunRequest, notify?: (progress: Progress) => void): Promise<Transcript> {
    const scenario = findScenario(request.scenario);
    const options: RunOptions = { transport: request.transport, seed: request.seed, settings: request.settings, trace: progressTrace(request.requestId, notify), schedule: request.schedule, faults: request.faults };
    if (!usesSqlite(scenario)) return runScenario(scenario, options);
    const sql = await sqlModule();
    // Only the mutation ledger is kept between runs; other SQLite-backed models (tasks) always start empty.
    if (scenario.kind !== 'ledger' || request.ledger === 'fresh') return runScenario(scenario, { ...options, ledger: { sql } });
    // The engine hands back the file's bytes only after a completed run; a failed run saves nothing.
    const completed: { bytes: Uint8Array | null } = { bytes: null };
    const transcript = runScenario(scenario, { ...options, ledger: { sql, bytes: await storage.load(), save: (bytes) => (completed.bytes = bytes) } });
    if (completed.bytes !== null) await storage.save(completed.bytes);
    return transcript;
  }

  /**
   * Explores every ordering, reporting progress every PROGRESS_EVERY_MS. The worker is busy until it
   * ends; the page's Stop replaces the worker (as for a long run), so nothing here needs to listen.
   */
  async function exploreScenario(request: ExploreRequest, notify?: (progress: Progress) => void): Promise<ExploreResult> {
    const scenario = findScenario(request.scenario);
    const ledger = usesSqlite(scenario) ? { sql: await sqlModule() } : undefined;
    const exploration = new Exploration(scenario, { transport: request.transport, seed: request.seed, settings: request.settings, bound: request.bound, ledger });
    let reportedAt = now();
    while (!exploration.advance(EXPLORE_SLICE_RUNS)) {
      const time = now();
      if (notify === undefined || time - reportedAt < PROGRESS_EVERY_MS) continue;
      reportedAt = time;
      notify({ type: 'explore-progress', requestId: request.requestId, ...exploration.progress() });
    }
    return exploration.result();
  }

  async function importLedger(bytes: Uint8Array): Promise<LedgerView> {
    if (bytes.length > LEDGER_BYTES_MAX) {
      throw new LabError('LAB010', `the file is ${bytes.length} bytes, more than a lab ledger's ${LEDGER_BYTES_MAX}; the current ledger is unchanged`);
    }
    // Read it first: bytes that are not a lab ledger throw LAB010 before anything is stored.
    const view = ledgerView(await sqlModule(), bytes);
    await storage.save(bytes);
    return view;
  }

  async function exportLedger(): Promise<Uint8Array> {
    const stored = await storage.load();
    if (stored !== null) return stored;
    const empty = LedgerFile.open(await sqlModule(), null);
    try {
      return empty.export();
    } finally {
      empty.close();
    }
  }

  async function handle(request: LabRequest, notify?: (progress: Progress) => void): Promise<LabAnswer> {
    const { requestId } = request;
    switch (request.type) {
      case 'list':
        return { type: 'scenarios', requestId, scenarios: scenarioInfo() };
      case 'run': {
        const transcript = await run(request, notify);
        // The engine words every event once; the page draws and never words events itself.
        return { type: 'transcript', requestId, transcript, facts: raceFactSteps(transcript), wording: wordEvents(transcript.events) };
      }
      case 'explore':
        return { type: 'exploration', requestId, result: await exploreScenario(request, notify) };
      case 'resolve': {
        const { problems, ...view } = resolveView(request.params);
        return { type: 'resolved', requestId, view, problems };
      }
      case 'ledger-snapshot':
        return { type: 'ledger', requestId, ledger: ledgerView(await sqlModule(), await storage.load()) };
      case 'ledger-import':
        return { type: 'ledger', requestId, ledger: await importLedger(request.bytes) };
      case 'ledger-export':
        return { type: 'ledger-file', requestId, bytes: await exportLedger() };
      case 'ledger-reset': {
        const sql = await sqlModule();
        await storage.clear();
        return { type: 'ledger', requestId, ledger: ledgerView(sql, null) };
      }
    }
  }

  async function answer(data: unknown, notify?: (progress: Progress) => void): Promise<LabAnswer> {
    try {
      if (!isLabRequest(data)) return malformed(salvageRequestId(data), explainBadRequest(data) ?? 'not a lab request');
      return await handle(data, notify);
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
