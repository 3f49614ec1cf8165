import { useStore } from 'zustand';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import { createLabClient, LabClientError, type ExploreProgress, type LabClient, type LabRun, type RunProgress } from '../worker/client';
import { SETTINGS_NOT_APPLIED } from '../worker/sdkInfo';
import type { EventWording, ExploreResult, Implementation, LedgerRows, LedgerTable, LedgerView, RaceFactSteps, RaceView, ScenarioInfo, SettingValue, Settings, Transcript, Transport } from '../worker/protocol';
import type { DiagramLayout, TimeScale } from './diagramLayout';

/**
 * The page's state, in slices: what the user picked (selection), what the worker answered (run),
 * where the replay stands (playback), which event the inspector shows (inspector), what the page
 * must tell the user about the link it was opened with (notices), and the stored ledger (ledger).
 * Every protocol fact on screen comes from a transcript the worker produced, every ledger row from
 * the worker's read of the stored file; the store only asks and keeps the latest answer.
 * Changing the scenario, transport, seed, a setting or the ledger choice runs again.
 *
 * Stepping never asks the worker: the view at step k is the transcript's first k events, so a step
 * back or a jump on the time scrubber shows exactly what the run recorded, never an approximation.
 */

export type {
  EventWording,
  Implementation,
  InvariantCheck,
  SdkRunInfo,
  LabEvent,
  LabEventKind,
  LedgerOutcome,
  LedgerResponseRecord,
  LedgerRow,
  LedgerRows,
  LedgerTable,
  LedgerView,
  MarkerTone,
  MarkerWording,
  RaceFactSteps,
  RaceView,
  RequestOutcome,
  ScenarioInfo,
  SettingSpec,
  SettingsSpec,
  SettingValue,
  Settings,
  Transcript,
  Transport,
} from '../worker/protocol';
export type { RunProgress, ExploreProgress } from '../worker/client';
export type { ExploreResult, Ending, Violation } from '../worker/protocol';
export { SETTINGS_NOT_APPLIED, SETTINGS_NOT_APPLIED_V2, TS_SDK_PACKAGE, TS_SDK_PROTOCOL_VERSION, TS_SDK_VERSION, TS_SDK_V2_VERSION, TS_SDK_V2_PROTOCOL_VERSION, V2_SCHEMA_FINDINGS } from '../worker/sdkInfo';

export type RunStatus = 'idle' | 'running' | 'done' | 'error';

export interface LabFailure {
  code: string;
  message: string;
}

/** What a shared link asks for, as text: the view parameters and settings, and the step. */
export interface LinkView {
  /** `scenario`, `transport`, `seed` and setting names, exactly as written in the link. */
  params: Record<string, string>;
  /** The `step` parameter, or null when the link has none (the view opens at the end of the run). */
  step: string | null;
  /** The `schedule` parameter: the explored ordering the link replays (issue #11); absent: the seeded run. */
  schedule?: string;
  /** The `faults` parameter: faults injected on given messages (issue #11); absent: none. */
  faults?: string;
  /** How the page shows the run (tab, mode, Linear time, panel sliders): the page applies these, not the worker. */
  view?: Partial<Record<string, string>>;
}

export interface SelectionSlice {
  /** Scenario metadata as the worker listed it; empty until the first `list` answer. */
  scenarios: ScenarioInfo[];
  scenarioId: string;
  transport: Transport;
  seed: number;
  /**
   * Overrides over the scenario's default settings, as the user gave them; the engine judges them
   * when the scenario runs (an invalid one answers LAB005 and nothing runs).
   */
  settings: Settings;
  /** Ledger scenarios run on the stored ledger and save it back (on), or on a fresh one (off, the default). */
  keepLedger: boolean;
  /** A–D: the lab's spec model (the default) or the real MCP TypeScript SDK, run in the worker (issue #13). */
  impl: Implementation;
  /** Picks the implementation and runs (the page offers ts-sdk for the request races only). */
  setImpl(impl: Implementation): void;
  /**
   * The explored ordering the run replays (issue #11: a click on an ending or a violation, or the
   * link's `schedule=`); null: the seeded run. Any other change of the selection drops it.
   */
  schedule: string | null;
  /**
   * Faults injected on given messages (issue #11: the diagram's Drop, Delay, Duplicate), as the
   * engine writes them (`drop:12,delay:14:500`); null: none. Any other change of the selection drops them.
   */
  faults: string | null;
  /** Picks a scenario, switches to its default transport and settings, and runs. */
  selectScenario(id: string): void;
  setTransport(transport: Transport): void;
  setSeed(seed: number): void;
  /** Overrides one setting (undefined: back to the scenario's default) and runs. */
  setSetting(name: string, value: SettingValue | undefined): void;
  /** Drops every override and runs on the scenario's defaults. */
  resetSettings(): void;
  setKeepLedger(keep: boolean): void;
}

export interface RunSlice {
  status: RunStatus;
  transcript: Transcript | null;
  /** For a request race: where the transcript reaches each recorded fact. */
  facts: RaceFactSteps | null;
  /** Predict mode's race in the run on screen (the worker locates it); null: none. */
  race: RaceView | null;
  /** The engine's wording of each event of `transcript`, by index (= seq): the page words nothing itself. */
  wording: EventWording[];
  /** The diagram of `transcript`, laid out in the worker on `scale` (or on the previous scale until the worker answers). */
  layout: DiagramLayout | null;
  /** The diagram's time axis: runs are laid out on it, and changing it asks the worker for the layout again (no re-run). */
  scale: TimeScale;
  setScale(scale: TimeScale): void;
  error: LabFailure | null;
  /** What the worker reported of the run it is computing; null when none is running or none reported yet. */
  progress: RunProgress | null;
  /** False until init has listed the scenarios and applied the link: nothing should be written to the URL before. */
  ready: boolean;
  /** Lists the scenarios, applies the link (if any), then runs the selection. Call once when the page starts. */
  init(link?: LinkView | null): Promise<void>;
  /** Runs the current selection in the worker; only the latest run's answer is kept. */
  run(): Promise<void>;
  /** Ends the run in flight (the Stop button): the worker is replaced, the stored ledger stays as it was (issue #14). */
  stop(): void;
  /**
   * Shows what the worker answered for something that is not the selection (an opened recording:
   * src/store/recording.ts) as the run on screen, at its end. `open` asks the worker; if it refuses,
   * the error is thrown to the caller and nothing on the page changes.
   */
  show(open: (client: LabClient, scale: TimeScale) => Promise<LabRun>): Promise<void>;
}

/** Playback speeds offered, in steps per second. */
export const SPEEDS = [1, 2, 4, 8, 16, 32] as const;
export const DEFAULT_SPEED = 2;

export interface PlaybackSlice {
  /** How many of the transcript's events are shown: 0 (none yet) … events.length (the whole run). */
  step: number;
  playing: boolean;
  /** Steps per second while playing. */
  speed: number;
  /** The virtual time the scrubber was last moved to (it may fall between two events); null once the step moves otherwise. */
  scrubMs: number | null;
  stepForward(): void;
  stepBack(): void;
  /** Shows the first `step` events (clamped to the run). */
  setStep(step: number): void;
  /** Shows every event up to and including virtual time `atMs`. */
  seekTime(atMs: number): void;
  /** Back to step 0, paused (the Reset button). */
  rewind(): void;
  /** To the end of the run, paused. */
  toEnd(): void;
  /** Plays from here (from the start when at the end) one step at a time. */
  play(): void;
  pause(): void;
  togglePlay(): void;
  setSpeed(speed: number): void;
}

export interface InspectorSlice {
  /** The `seq` of the event the user picked; null: the inspector follows the current step. */
  selectedSeq: number | null;
  selectEvent(seq: number | null): void;
}

export interface Notice {
  id: number;
  text: string;
}

export interface NoticeSlice {
  /** What the page could not use from the link it was opened with, and what it shows instead. */
  notices: Notice[];
  /** Adds a notice (the page could not use a value of the link). */
  notify(text: string): void;
  dismissNotices(): void;
}

export type LedgerStatus = 'idle' | 'busy';

/** A ledger action that failed: which one (a sentence for the page), and the worker's error. */
export interface LedgerFailure extends LabFailure {
  action: string;
}

export interface LedgerSlice {
  /** The stored ledger as the worker last read it; null until the first read answers. */
  ledger: LedgerView | null;
  ledgerStatus: LedgerStatus;
  /** What went wrong with the last ledger action (an import of a foreign file: LAB010); the ledger above is unchanged. */
  ledgerError: LedgerFailure | null;
  /** Reads the stored ledger again (after a kept run, and when the page starts). */
  refreshLedger(): Promise<void>;
  /** Replaces the stored ledger with a file if it is a lab ledger; otherwise keeps it and sets ledgerError. */
  importLedger(file: Blob): Promise<void>;
  /** The stored ledger as a SQLite file (null, with ledgerError set, if the worker could not produce it). */
  exportLedger(): Promise<Uint8Array | null>;
  resetLedger(): Promise<void>;
  /**
   * One page of a table of the ledger on screen, read from the file the worker holds open (issue #14);
   * null, with ledgerError set, when it could not be read. Reading changes nothing, so the section stays idle.
   */
  readLedgerRows(table: LedgerTable, offset: number, limit: number): Promise<LedgerRows | null>;
}

export type ExploreStatus = 'idle' | 'running' | 'done' | 'error';

/** Most states the page's Explore visits before it says the exploration was cut (`complete: false`). */
export const PAGE_EXPLORE_BOUND = 20_000;

export interface ExploreSlice {
  /** The last exploration of the current selection; null before one, and after the selection changes. */
  exploration: ExploreResult | null;
  exploreStatus: ExploreStatus;
  /** How far the exploration in flight got (the worker's reports). */
  exploreProgress: ExploreProgress | null;
  exploreError: LabFailure | null;
  /** Explores every ordering of the current scenario, transport and settings in the worker. */
  explore(): Promise<void>;
  /**
   * Sets one setting (shown in Settings and kept in the link like any other), runs the seeded run
   * at it, then explores: the way from "one ordering" to a race the network can play either way.
   */
  exploreWith(name: string, value: SettingValue): Promise<void>;
  /** Ends the exploration in flight (the worker is replaced, as Stop does for a run). */
  stopExplore(): void;
  /** Opens one explored ordering in the diagram, at event `seq` (a violation's step) or at the end. */
  openOrdering(schedule: string, seq: number | null): Promise<void>;
  /** Back to the seeded run of the same selection. */
  leaveOrdering(): void;
}

/** A "what if…" re-run (issue #11): the user's cancel, or a dropped connection, at a chosen virtual time. */
export interface WhatIf {
  kind: 'cancel' | 'drop';
  atMs: number;
  /** What Back to the scenario restores. */
  previous: { settings: Settings; schedule: string | null; faults: string | null; step: number };
}

export interface WhatIfSlice {
  whatIf: WhatIf | null;
  /** Request races: re-runs with the user's cancel at the current virtual time (cancelAtMs). */
  cancelHere(): void;
  /** Reconnect and herd: re-runs with the connection dropping at the current virtual time (dropAtMs). */
  dropConnectionHere(): void;
  /** Back to the run before the what-if, at the step it was at. */
  backToScenario(): void;
}

/** The virtual time the replay stands at: the scrubber's, or the last shown event's. */
export const currentTimeMs = (state: Pick<LabState, 'transcript' | 'step' | 'scrubMs'>): number => state.scrubMs ?? state.transcript?.events[state.step - 1]?.atMs ?? 0;

export type FaultKind = 'drop' | 'delay' | 'duplicate' | 'crash';
/** How much later a message the user delays arrives. */
export const FAULT_DELAY_MS = 500;

export interface FaultSlice {
  /**
   * Re-runs from the same seed with `kind` injected on the message whose event is `seq` (replacing
   * any fault already on it); the replay opens at that message and the link carries the faults.
   */
  injectFault(kind: FaultKind, seq: number): void;
  /** Back to the run without faults. */
  clearFaults(): void;
}

export type LabState = SelectionSlice & RunSlice & PlaybackSlice & InspectorSlice & NoticeSlice & LedgerSlice & ExploreSlice & WhatIfSlice & FaultSlice;
export type LabStore = StoreApi<LabState>;

export const DEFAULT_SCENARIO_ID = 'A';
export const DEFAULT_SEED = 1;

/** How many events the run shows, 0 without a transcript. */
export const eventCount = (state: Pick<LabState, 'transcript'>): number => state.transcript?.events.length ?? 0;

function withoutSdkDecided(settings: Settings): Settings {
  return Object.fromEntries(Object.entries(settings).filter(([name]) => !Object.hasOwn(SETTINGS_NOT_APPLIED, name)));
}

function toFailure(error: unknown): LabFailure {
  if (error instanceof LabClientError) return { code: error.code, message: error.message };
  return { code: 'WORKER_FAILED', message: error instanceof Error ? error.message : String(error) };
}

/** Where the replay lands when a new transcript arrives. */
/** Where the next run's replay opens; `time`: at the last event of that virtual instant (a what-if opens where it acts). */
type StepIntent = { kind: 'end' } | { kind: 'keep' } | { kind: 'link'; text: string } | { kind: 'time'; atMs: number };

/** State the slices share that the page never reads. */
/**
 * What drives playback: the page's wall-clock interval, or a test's hand (see driver.ts). `every`
 * calls `tick` every `ms` until the returned function is called.
 */
export interface Ticker {
  every(ms: number, tick: () => void): () => void;
}

/** The page's ticker: setInterval. */
export const intervalTicker: Ticker = {
  every(ms, tick) {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

interface Shared {
  getClient(): LabClient;
  ticker: Ticker;
  stepIntent: StepIntent;
  nextNoticeId: number;
  stopTimer(): void;
}

type Slice<T> = (shared: Shared) => StateCreator<LabState, [], [], T>;

/** Another selection is another run: an explored ordering and an exploration belong to the one they came from. */
const OTHER_RUN = { schedule: null, faults: null, exploration: null, exploreError: null, whatIf: null } as const;

const createSelectionSlice: Slice<SelectionSlice> = (shared) => (set, get) => ({
  scenarios: [],
  scenarioId: DEFAULT_SCENARIO_ID,
  transport: 'stdio',
  seed: DEFAULT_SEED,
  settings: {},
  keepLedger: false,
  impl: 'model',
  schedule: null,
  faults: null,
  selectScenario(id) {
    const info = get().scenarios.find((scenario) => scenario.id === id);
    shared.stepIntent = { kind: 'end' };
    // The SDK stays chosen from one request race to the next; any other scenario runs on the model.
    const impl = info?.kind === 'request-race' ? get().impl : 'model';
    set(info === undefined ? { scenarioId: id, settings: {}, impl, ...OTHER_RUN } : { scenarioId: id, transport: info.defaultTransport, settings: {}, impl, ...OTHER_RUN });
    void get().run();
  },
  setImpl(impl) {
    // An explored ordering or a fault is the model's: the SDK orders its own work.
    set({ impl, ...OTHER_RUN });
    void get().run();
  },
  setTransport(transport) {
    set({ transport, ...OTHER_RUN });
    void get().run();
  },
  setSeed(seed) {
    set({ seed, ...OTHER_RUN });
    void get().run();
  },
  setSetting(name, value) {
    const settings = { ...get().settings };
    if (value === undefined) delete settings[name];
    else settings[name] = value;
    set({ settings, ...OTHER_RUN });
    void get().run();
  },
  resetSettings() {
    set({ settings: {}, ...OTHER_RUN });
    void get().run();
  },
  setKeepLedger(keepLedger) {
    set({ keepLedger, ...OTHER_RUN });
    void get().run();
  },
});

const createRunSlice: Slice<RunSlice> = (shared) => (set, get) => {
  /** Bumped by every run: an answer to an older run arrives late and is dropped. */
  let latestRun = 0;
  /** The worker's id of the run on screen, to ask for its layout on another scale. */
  let shownRunId: number | null = null;
  /** Bumped by every layout request: only the latest is kept. */
  let latestLayout = 0;

  const notice = (text: string) => set({ notices: [...get().notices, { id: shared.nextNoticeId++, text }] });

  /** The step a new transcript opens at: the link's, the end, or where the previous run's replay stood. */
  function landingStep(events: Transcript['events'], previous: { step: number; total: number } | null): number {
    const total = events.length;
    const intent = shared.stepIntent;
    shared.stepIntent = { kind: 'keep' };
    if (intent.kind === 'time') {
      const reached = events.filter((event) => event.atMs <= intent.atMs).length;
      return Math.max(0, Math.min(total, reached));
    }
    if (intent.kind === 'link') {
      const text = intent.text.trim();
      const step = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (Number.isSafeInteger(step) && step <= total) return step;
      notice(`The link's step=${intent.text} is not a step of this run (0 to ${total}). Showing the end of the run instead.`);
      return total;
    }
    if (intent.kind === 'end' || previous === null || previous.step >= previous.total) return total;
    return Math.min(previous.step, total);
  }

  return {
    status: 'idle',
    transcript: null,
    facts: null,
    race: null,
    wording: [],
    layout: null,
    scale: 'ordinal',
    setScale(scale) {
      if (scale === get().scale) return;
      set({ scale });
      const runId = shownRunId;
      const layoutId = ++latestLayout;
      if (runId === null || get().layout === null || get().layout?.scale === scale) return;
      shared
        .getClient()
        .layout(runId, scale)
        .then(
          (layout) => {
            if (layoutId === latestLayout && runId === shownRunId) set({ layout });
          },
          (error: unknown) => {
            if (layoutId === latestLayout && runId === shownRunId) set({ error: toFailure(error) });
          },
        );
    },
    error: null,
    progress: null,
    ready: false,
    async init(link = null) {
      set({ status: 'running', error: null });
      let scenarios: ScenarioInfo[];
      try {
        scenarios = await shared.getClient().list();
      } catch (error) {
        set({ status: 'error', error: toFailure(error), ready: true });
        return;
      }
      const hasParams = link !== null && Object.keys(link.params).length > 0;
      if (hasParams) {
        try {
          const { view, problems } = await shared.getClient().resolve(link.params);
          set({ scenarios, scenarioId: view.scenario, transport: view.transport, seed: view.seed, settings: view.settings, impl: view.impl ?? 'model' });
          for (const problem of problems) notice(`The link's ${problem.param}=${problem.value} was not used: ${problem.message}. Showing the default instead.`);
        } catch (error) {
          const failure = toFailure(error);
          set({ scenarios, scenarioId: DEFAULT_SCENARIO_ID, transport: 'stdio', seed: DEFAULT_SEED, settings: {} });
          notice(`The link could not be read (${failure.code}: ${failure.message}). Showing the default view instead.`);
        }
      } else {
        const selected = scenarios.find((scenario) => scenario.id === get().scenarioId) ?? scenarios[0];
        set(selected === undefined ? { scenarios } : { scenarios, scenarioId: selected.id, transport: selected.defaultTransport });
      }
      shared.stepIntent = link === null || link.step === null ? { kind: 'end' } : { kind: 'link', text: link.step };
      if (link?.schedule !== undefined) set({ schedule: link.schedule });
      if (link?.faults !== undefined) set({ faults: link.faults });
      // The run reads the stored ledger too when it is a ledger scenario: nothing else needs sql.js.
      await get().run();
      // The link's faults name no message of its run (LAB023), or its ordering does not fit it (LAB022): run without, say why.
      const failed = get().error;
      if (failed?.code === 'LAB023' && get().faults !== null) {
        notice(`The link's faults=${get().faults ?? ''} do not fit this run: ${failed.message}. Showing the run without faults instead.`);
        set({ faults: null });
        shared.stepIntent = { kind: 'end' };
        await get().run();
      }
      const misfit = get().error;
      if (misfit?.code === 'LAB022' && get().schedule !== null) {
        notice(`The link's schedule=${get().schedule ?? ''} is not an ordering of this run: ${misfit.message}. Showing the seeded run instead.`);
        set({ schedule: null });
        shared.stepIntent = { kind: 'end' };
        await get().run();
      }
      // Each value was valid alone, yet together they may not run (LAB007): open the defaults, say why.
      const { error, settings } = get();
      // A run the user stopped (or that outlived its budget) says nothing about the link's settings.
      const ended = error !== null && (error.code === 'STOPPED' || error.code === 'RUN_BUDGET');
      if (hasParams && error !== null && !ended && Object.keys(settings).length > 0) {
        notice(`The link's settings do not run together: ${error.message}. Showing this scenario's default settings instead.`);
        set({ settings: {} });
        shared.stepIntent = { kind: 'end' };
        await get().run();
      }
      set({ ready: true });
    },
    async run() {
      const runId = ++latestRun;
      const { scenarioId, transport, seed, settings, keepLedger, scenarios, scale, impl, schedule, faults } = get();
      const kept = keepLedger && scenarios.find((scenario) => scenario.id === scenarioId)?.kind === 'ledger';
      shared.stopTimer();
      set({ status: 'running', error: null, progress: null, playing: false });
      try {
        const answer = await shared
          .getClient()
          // The real SDK decides some settings itself: the user's values stay for the model and are not sent with ts-sdk.
          // An explored ordering and faults are the model's (setImpl drops them).
          .runLab(
            {
              scenario: scenarioId,
              transport,
              seed,
              settings: impl !== 'model' ? withoutSdkDecided(settings) : settings,
              ledger: kept ? 'kept' : 'fresh',
              scale,
              impl,
              ...(schedule === null || impl !== 'model' ? {} : { schedule }),
              ...(faults === null || impl !== 'model' ? {} : { faults }),
            },
            (progress) => {
              if (runId === latestRun) set({ progress });
            },
          );
        // The run saved the stored ledger: show its rows as they are now. A ledger scenario shown for the
        // first time reads the stored ledger once; other scenarios never touch it (sql.js stays unloaded).
        const isLedger = scenarios.find((scenario) => scenario.id === scenarioId)?.kind === 'ledger';
        const readLedger = kept || (isLedger && runId === latestRun && get().ledger === null && get().ledgerStatus === 'idle');
        if (runId === latestRun) {
          const { transcript: previous, step } = get();
          const landing = landingStep(answer.transcript.events, previous === null ? null : { step, total: previous.events.length });
          // When the ledger is read next, its rows read as busy from the same moment the run ends (never a finished run beside stale rows).
          shownRunId = answer.runId;
          set({ status: 'done', transcript: answer.transcript, facts: answer.facts, race: answer.race, wording: answer.wording, layout: answer.layout, error: null, progress: null, step: landing, scrubMs: null, selectedSeq: null, ...(readLedger ? { ledgerStatus: 'busy' as const } : {}) });
          // The scale changed while the run computed: lay it out again on the one asked for now.
          if (answer.layout.scale !== get().scale) {
            const wanted = get().scale;
            set({ scale: answer.layout.scale });
            get().setScale(wanted);
          }
        }
        if (readLedger) await get().refreshLedger();
      } catch (error) {
        // The transcript on screen would no longer match the inputs above it: clear it.
        if (runId === latestRun) {
          shownRunId = null;
          set({ status: 'error', transcript: null, facts: null, race: null, wording: [], layout: null, error: toFailure(error), progress: null, step: 0, selectedSeq: null });
        }
      }
    },
    stop() {
      if (get().status !== 'running') return;
      shared.getClient().stop();
    },
    async show(open) {
      const answer = await open(shared.getClient(), get().scale);
      // A run still in flight would replace it when it answers: it is dropped instead.
      latestRun += 1;
      shared.stopTimer();
      shownRunId = answer.runId;
      set({ status: 'done', transcript: answer.transcript, facts: answer.facts, race: answer.race, wording: answer.wording, layout: answer.layout, error: null, progress: null, step: answer.transcript.events.length, scrubMs: null, selectedSeq: null, playing: false });
      if (answer.layout.scale !== get().scale) {
        const wanted = get().scale;
        set({ scale: answer.layout.scale });
        get().setScale(wanted);
      }
    },
  };
};

const createPlaybackSlice: Slice<PlaybackSlice> = (shared) => (set, get) => {
  let stopTicking: (() => void) | null = null;
  shared.stopTimer = () => {
    stopTicking?.();
    stopTicking = null;
  };

  const clamp = (step: number) => Math.max(0, Math.min(eventCount(get()), Math.trunc(step)));
  /** Moves the replay by hand: playback stops first, as a presenter expects. */
  const moveTo = (step: number, scrubMs: number | null = null) => {
    shared.stopTimer();
    set({ step: clamp(step), playing: false, scrubMs });
  };

  function startTimer(): void {
    shared.stopTimer();
    stopTicking = shared.ticker.every(1000 / get().speed, () => {
      const total = eventCount(get());
      const next = Math.min(get().step + 1, total);
      set({ step: next, scrubMs: null });
      if (next >= total) get().pause();
    });
  }

  return {
    step: 0,
    playing: false,
    speed: DEFAULT_SPEED,
    scrubMs: null,
    stepForward: () => moveTo(get().step + 1),
    stepBack: () => moveTo(get().step - 1),
    setStep: (step) => moveTo(step),
    seekTime(atMs) {
      const events = get().transcript?.events ?? [];
      // Events are in time order: show every one at or before atMs.
      let shown = 0;
      while (shown < events.length && (events[shown]?.atMs ?? Infinity) <= atMs) shown += 1;
      moveTo(shown, atMs);
    },
    rewind: () => moveTo(0),
    toEnd: () => moveTo(eventCount(get())),
    play() {
      const total = eventCount(get());
      if (total === 0 || get().status !== 'done') return;
      if (get().step >= total) set({ step: 0 });
      set({ playing: true, scrubMs: null });
      startTimer();
    },
    pause() {
      shared.stopTimer();
      set({ playing: false });
    },
    togglePlay() {
      if (get().playing) get().pause();
      else get().play();
    },
    setSpeed(speed) {
      if (!Number.isFinite(speed) || speed <= 0) return;
      set({ speed });
      if (get().playing) startTimer();
    },
  };
};

const createInspectorSlice: Slice<InspectorSlice> = () => (set) => ({
  selectedSeq: null,
  selectEvent: (selectedSeq) => set({ selectedSeq }),
});

const createNoticeSlice: Slice<NoticeSlice> = (shared) => (set, get) => ({
  notices: [],
  notify: (text) => set({ notices: [...get().notices, { id: shared.nextNoticeId++, text }] }),
  dismissNotices: () => set({ notices: [] }),
});

/** The tables as the Ledger section names them. */
const LEDGER_TABLE_NAMES: Record<LedgerTable, string> = { idempotencyKeys: 'Idempotency keys', effects: 'Effects', executions: 'Executions' };

const createLedgerSlice: Slice<LedgerSlice> = (shared) => (set) => {
  /** Ledger requests not yet answered: the slice is busy while any is. */
  let pending = 0;
  /** Bumped by every request that answers with the ledger's rows: only the latest answer is shown. */
  let latestView = 0;

  /** Runs one ledger request; a failure sets ledgerError and leaves the rows on screen (the worker changed nothing). */
  async function request<T>(what: string, action: () => Promise<T>, onAnswer: (answer: T) => void): Promise<T | null> {
    pending += 1;
    set({ ledgerStatus: 'busy' });
    try {
      const answer = await action();
      onAnswer(answer);
      set({ ledgerError: null });
      return answer;
    } catch (error) {
      set({ ledgerError: { action: what, ...toFailure(error) } });
      return null;
    } finally {
      pending -= 1;
      if (pending === 0) set({ ledgerStatus: 'idle' });
    }
  }

  async function view(what: string, action: () => Promise<LedgerView>): Promise<void> {
    const viewId = ++latestView;
    await request(what, action, (ledger) => {
      if (viewId === latestView) set({ ledger });
    });
  }

  const client = () => shared.getClient();
  return {
    ledger: null,
    ledgerStatus: 'idle',
    ledgerError: null,
    refreshLedger: () => view('Could not read the stored ledger.', () => client().ledgerSnapshot()),
    importLedger(file) {
      const name = (file as Partial<File>).name;
      const what = name === undefined || name === '' ? 'Could not import the file.' : `Could not import “${name}”.`;
      return view(what, async () => client().importLedger(new Uint8Array(await file.arrayBuffer())));
    },
    exportLedger: () => request('Could not export the ledger.', () => client().exportLedger(), () => undefined),
    resetLedger: () => view('Could not reset the ledger.', () => client().resetLedger()),
    async readLedgerRows(table, offset, limit) {
      try {
        return await client().ledgerRows(table, offset, limit);
      } catch (error) {
        const what = `Could not read rows ${(offset + 1).toLocaleString('en')}–${(offset + limit).toLocaleString('en')} of ${LEDGER_TABLE_NAMES[table]}.`;
        set({ ledgerError: { action: what, ...toFailure(error) } });
        return null;
      }
    },
  };
};

const createExploreSlice: Slice<ExploreSlice> = (shared) => (set, get) => {
  /** Bumped by every exploration: a late answer to an older one is dropped. */
  let latest = 0;
  return {
    exploration: null,
    exploreStatus: 'idle',
    exploreProgress: null,
    exploreError: null,
    async explore() {
      const id = ++latest;
      const { scenarioId, transport, seed, settings } = get();
      const selection = JSON.stringify([scenarioId, transport, seed, settings]);
      /** Still the exploration of what is selected: the answer to another selection is not shown. */
      const current = () => id === latest && JSON.stringify([get().scenarioId, get().transport, get().seed, get().settings]) === selection;
      set({ exploreStatus: 'running', exploreProgress: null, exploreError: null, exploration: null });
      try {
        const result = await shared.getClient().explore({ scenario: scenarioId, transport, seed, settings, bound: PAGE_EXPLORE_BOUND }, (progress) => {
          if (id === latest) set({ exploreProgress: progress });
        });
        if (current()) set({ exploreStatus: 'done', exploration: result, exploreProgress: null });
        else if (id === latest) set({ exploreStatus: 'idle', exploreProgress: null });
      } catch (error) {
        if (current()) set({ exploreStatus: 'error', exploreError: toFailure(error), exploreProgress: null });
        else if (id === latest) set({ exploreStatus: 'idle', exploreProgress: null });
      }
    },
    async exploreWith(name, value) {
      set({ settings: { ...get().settings, [name]: value }, ...OTHER_RUN });
      await get().run();
      await get().explore();
    },
    stopExplore() {
      if (get().exploreStatus !== 'running') return;
      shared.getClient().stop();
    },
    async openOrdering(schedule, seq) {
      shared.stepIntent = seq === null ? { kind: 'end' } : { kind: 'link', text: String(seq + 1) };
      set({ schedule });
      await get().run();
      // The violating event is the one the inspector shows.
      if (seq !== null && get().schedule === schedule && get().status === 'done') set({ selectedSeq: seq });
    },
    leaveOrdering() {
      if (get().schedule === null) return;
      shared.stepIntent = { kind: 'end' };
      set({ schedule: null });
      void get().run();
    },
  };
};

const createWhatIfSlice: Slice<WhatIfSlice> = (shared) => (set, get) => {
  function rerun(kind: WhatIf['kind'], setting: string, atMs: number): void {
    const { settings, schedule, faults, step, whatIf } = get();
    // A what-if of a what-if still returns to the scenario as it was first.
    const previous = whatIf?.previous ?? { settings, schedule, faults, step };
    shared.stepIntent = { kind: 'end' };
    set({ whatIf: { kind, atMs, previous }, settings: { ...previous.settings, [setting]: atMs }, schedule: null, faults: null, exploration: null });
    void get().run();
  }
  return {
    whatIf: null,
    cancelHere() {
      if (selectedKindOf(get()) !== 'request-race' || get().status !== 'done') return;
      const atMs = currentTimeMs(get());
      rerun('cancel', 'cancelAtMs', atMs);
      // The new run opens where the user cancels, not at its end: what follows is the lesson.
      shared.stepIntent = { kind: 'time', atMs };
    },
    dropConnectionHere() {
      const kind = selectedKindOf(get());
      if ((kind !== 'reconnect' && kind !== 'herd') || get().status !== 'done') return;
      const spec = get().scenarios.find((scenario) => scenario.id === get().scenarioId)?.settingsSpec.dropAtMs;
      const min = spec?.kind === 'integer' ? spec.min : 0;
      const atMs = currentTimeMs(get());
      if (atMs < min) {
        const why = kind === 'reconnect' ? 'the reconnect scenario sets up its streams first' : 'at 0 ms every client has just lost its stream';
        get().notify(`The connection can drop from ${min} ms on (${why}); the replay stands at ${atMs} ms.`);
        return;
      }
      rerun('drop', 'dropAtMs', atMs);
    },
    backToScenario() {
      const whatIf = get().whatIf;
      if (whatIf === null) return;
      shared.stepIntent = { kind: 'link', text: String(whatIf.previous.step) };
      set({ whatIf: null, settings: whatIf.previous.settings, schedule: whatIf.previous.schedule, faults: whatIf.previous.faults });
      void get().run();
    },
  };
};

const createFaultSlice: Slice<FaultSlice> = (shared) => (set, get) => ({
  injectFault(kind, seq) {
    const kept = (get().faults ?? '').split(',').filter((fault) => fault !== '' && Number(fault.split(':')[1]) !== seq);
    const fault = kind === 'delay' ? `delay:${seq}:${FAULT_DELAY_MS}` : `${kind}:${seq}`;
    const faults = [...kept, fault].sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1])).join(',');
    shared.stepIntent = { kind: 'link', text: String(seq + 1) };
    set({ faults, exploration: null, whatIf: null });
    void get().run().then(() => {
      if (get().faults === faults && get().status === 'done') set({ selectedSeq: seq });
    });
  },
  clearFaults() {
    if (get().faults === null) return;
    shared.stepIntent = { kind: 'keep' };
    set({ faults: null, exploration: null });
    void get().run();
  },
});

const selectedKindOf = (state: LabState) => state.scenarios.find((scenario) => scenario.id === state.scenarioId)?.kind;

/**
 * The store's core: zustand's vanilla store (no React), around a lab client created on first use,
 * with playback driven by `ticker`. The page wraps it in a hook; tests drive it headless (driver.ts).
 */
export function createLabStoreCore(makeClient: () => LabClient = createLabClient, ticker: Ticker = intervalTicker): LabStore {
  let client: LabClient | null = null;
  const shared: Shared = {
    getClient: () => (client ??= makeClient()),
    ticker,
    stepIntent: { kind: 'end' },
    nextNoticeId: 1,
    stopTimer: () => undefined,
  };
  return createStore<LabState>()((...args) => ({
    ...createSelectionSlice(shared)(...args),
    ...createRunSlice(shared)(...args),
    ...createPlaybackSlice(shared)(...args),
    ...createInspectorSlice(shared)(...args),
    ...createNoticeSlice(shared)(...args),
    ...createLedgerSlice(shared)(...args),
    ...createExploreSlice(shared)(...args),
    ...createWhatIfSlice(shared)(...args),
    ...createFaultSlice(shared)(...args),
  }));
}

/** A React hook over a vanilla store, with the store's own methods (getState, setState, subscribe) on it. */
export type BoundLabStore = LabStore & (<T>(selector: (state: LabState) => T) => T);

/** The store as the page uses it: a hook over the vanilla core, playback on the wall clock. */
export function createLabStore(makeClient: () => LabClient = createLabClient, ticker: Ticker = intervalTicker): BoundLabStore {
  const api = createLabStoreCore(makeClient, ticker);
  const useBoundStore = <T,>(selector: (state: LabState) => T): T => useStore(api, selector);
  return Object.assign(useBoundStore, api);
}

/** The page's store. */
export const useLabStore = createLabStore();
