import type { Transcript } from '../../engine';
import type { StateCreator } from 'zustand/vanilla';
import type { ExploreProgress, LabClient, LabRun, RunProgress } from '../../worker/client';
import type {
  EventWording,
  ExploreResult,
  LedgerRows,
  LedgerTable,
  LedgerView,
  RaceFactSteps,
  RaceView,
  RunSelection,
  ScenarioInfo,
  SettingValue,
  Settings,
} from '../../worker/protocol';
import type { DiagramLayout, TimeScale } from '../../diagram/geometry/model';
import type { LinkView } from '../../worker/link';

/** What a shared link asks for, as its one reader (worker/link.ts) reads it. */
export type { LinkView };

/**
 * The page's state, one slice per feature, each in a file of its own beside this one: what the user
 * picked (selection.ts), what the worker answered (run.ts), the diagram's layout and its one time
 * scale (layout.ts), where the replay stands (playback.ts), which event the inspector shows and what
 * the page must tell the user (page.ts), the stored ledger (ledger.ts), the explorer, the what-ifs and
 * the faults (explore.ts, whatIf.ts). Everything a slice decides with lives in the state, the
 * bookkeeping of which answer is the latest included: no slice keeps state in a closure.
 */

export type RunStatus = 'idle' | 'running' | 'done' | 'error';

export interface LabFailure {
  code: string;
  message: string;
}

/**
 * A change of the selection: any of the run's dimensions but the scenario (its own action, which drops
 * the settings) and the ordering and faults (made on one run, so any change drops them), and the ledger
 * choice. Omit, not Pick: a new run dimension is one a control can set without a second edit here.
 */
export type SelectionChange = Partial<Omit<RunSelection, 'scenario' | 'schedule' | 'faults'>> & {
  keepLedger?: boolean;
};

export interface SelectionSlice {
  /** Scenario metadata as the worker listed it; empty until the first `list` answer. */
  scenarios: ScenarioInfo[];
  /**
   * Which run: the lab's one run description (scenario, implementation, transport, seed, settings,
   * and an explored ordering or faults when the run replays one). Settings are overrides over the
   * scenario's defaults as the user gave them; the engine judges them when the scenario runs (an
   * invalid one answers LAB005 and nothing runs). Any change but an ordering's or a fault's drops
   * `schedule` and `faults`.
   */
  spec: RunSelection;
  /** Ledger scenarios run on the stored ledger and save it back (on), or on a fresh one (off, the default). */
  keepLedger: boolean;
  /** Picks a scenario, switches to its default transport and settings, and runs. */
  selectScenario(id: string): void;
  /** Changes the run (transport, seed, implementation, settings, the ledger choice) and runs it. */
  select(change: SelectionChange): void;
  /** Overrides one setting (undefined: back to the scenario's default) and runs. */
  setSetting(name: string, value: SettingValue | undefined): void;
  /**
   * Opens a whole run written as text parameters (a link's, or a run spec's: `scenario`, `impl`,
   * `transport`, `seed`, settings): the worker judges them (a refused one is an error on screen and
   * nothing runs), then the run opens at its end. The known-bugs list opens its entries so.
   */
  openRun(params: Readonly<Record<string, string>>): Promise<void>;
}

/** Where the next run's replay opens: its end, where the replay stood, a link's step, or the last event of a virtual instant (a what-if opens where it acts). */
export type Landing =
  { kind: 'end' } | { kind: 'keep' } | { kind: 'link'; text: string } | { kind: 'time'; atMs: number };

export interface RunSlice {
  status: RunStatus;
  transcript: Transcript | null;
  /** For a request race: where the transcript reaches each recorded fact. */
  facts: RaceFactSteps | null;
  /** Predict mode's race in the run on screen (the worker locates it); null: none. */
  race: RaceView | null;
  /** The engine's wording of each event of `transcript`, by index (= seq): the page words nothing itself. */
  wording: EventWording[];
  error: LabFailure | null;
  /** What the worker reported of the run it is computing; null when none is running or none reported yet. */
  progress: RunProgress | null;
  /** False until init has listed the scenarios and applied the link: nothing should be written to the URL before. */
  ready: boolean;
  /** The latest run asked for (a count): an answer to an earlier one arrives late and is dropped. */
  runRequest: number;
  /** The worker's id of the run on screen (to ask for its layout on another scale); null: none. */
  runId: number | null;
  /** Where the next run's replay opens. */
  landing: Landing;
  /** Lists the scenarios, applies the link (if any), then runs the selection. Call once when the page starts. */
  init(link?: LinkView | null): Promise<void>;
  /** Runs the current selection in the worker; only the latest run's answer is kept. */
  run(): Promise<void>;
  /** Ends the run in flight (the Stop button): the worker is replaced, the stored ledger stays as it was. */
  stop(): void;
  /**
   * Shows what the worker answered for something that is not the selection (an opened recording:
   * src/store/recording.ts) as the run on screen, at its end. `open` asks the worker; if it refuses,
   * the error is thrown to the caller and nothing on the page changes.
   */
  show(open: (client: LabClient, scale: TimeScale) => Promise<LabRun>): Promise<void>;
}

export interface LayoutSlice {
  /** The diagram of `transcript`, laid out in the worker on `scale` (or on the previous scale until the worker answers). */
  layout: DiagramLayout | null;
  /**
   * The diagram's time axis, the page's one time scale (Linear time on: `linear`): runs are laid out
   * on it, the link writes it, and changing it asks the worker for the layout again (no re-run).
   */
  scale: TimeScale;
  /** The latest layout asked for (a count): only its answer is kept. */
  layoutRequest: number;
  setScale(scale: TimeScale): void;
  /** Asks the worker for the run on screen laid out on `scale`, unless its layout already is. */
  relayout(): void;
}

/** Playback speeds offered, in steps per second. */
export const SPEEDS = [1, 2, 4, 8, 16, 32] as const;
export const DEFAULT_SPEED = 2;

/**
 * Where a move forward from step `from` towards `to` may land, and whether the replay holds there
 * (playback pauses). Every way forward asks it — a step, a key, End, the time slider, a tick of Play —
 * so a hold cannot be skipped (Predict's race point before the room answers: ui/panels/predictGate.ts).
 */
export type StepGate = (state: RunState, from: number, to: number) => { step: number; hold: boolean };

export interface PlaybackSlice {
  /** How many of the transcript's events are shown: 0 (none yet) … events.length (the whole run). */
  step: number;
  /** Playback runs while this holds: the ticker follows it (see playback.ts). */
  playing: boolean;
  /** Steps per second while playing. */
  speed: number;
  /** The virtual time the scrubber was last moved to (it may fall between two events); null once the step moves otherwise. */
  scrubMs: number | null;
  /** What may hold a move forward; null: nothing does. */
  stepGate: StepGate | null;
  setStepGate(gate: StepGate | null): void;
  stepForward(): void;
  stepBack(): void;
  /**
   * Shows the first `step` events (clamped to the run), as far as the gate lets it; `pastGate`
   * skips the gate (Predict's Reveal, the one move meant to pass the race point without a guess).
   */
  setStep(step: number, options?: { pastGate?: boolean }): void;
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
  /** The id the next notice gets. */
  nextNoticeId: number;
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
  /** Ledger requests not yet answered: the section is busy while any is. */
  ledgerPending: number;
  /** The latest request that answers with the ledger's rows (a count): only its answer is shown. */
  ledgerRequest: number;
  /** Reads the stored ledger again (after a kept run, and when the page starts). */
  refreshLedger(): Promise<void>;
  /** Replaces the stored ledger with a file if it is a lab ledger; otherwise keeps it and sets ledgerError. */
  importLedger(file: Blob): Promise<void>;
  /** The stored ledger as a SQLite file (null, with ledgerError set, if the worker could not produce it). */
  exportLedger(): Promise<Uint8Array | null>;
  resetLedger(): Promise<void>;
  /**
   * One page of a table of the ledger on screen, read from the file the worker holds open; null, with
   * ledgerError set, when it could not be read. Reading changes nothing, so the section stays idle.
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
  /** The latest exploration asked for (a count): a late answer to an older one is dropped. */
  exploreRequest: number;
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

/** A "what if…" re-run: the user's cancel, or a dropped connection, at a chosen virtual time. */
export interface WhatIf {
  kind: 'cancel' | 'drop';
  atMs: number;
  /** What Back to the scenario restores: the run as it was, and the step it stood at. */
  previous: { spec: RunSelection; step: number };
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

export type RunState = SelectionSlice &
  RunSlice &
  LayoutSlice &
  PlaybackSlice &
  InspectorSlice &
  NoticeSlice &
  LedgerSlice &
  ExploreSlice &
  WhatIfSlice &
  FaultSlice;

/**
 * What drives playback: the page's wall-clock interval, or a test's hand (see driver.ts). `every`
 * calls `tick` every `ms` until the returned function is called.
 */
export interface Ticker {
  every(ms: number, tick: () => void): () => void;
}

/** What the slices are built over: the worker's client (created on first use) and the playback ticker. Neither is page state. */
export interface SliceDeps {
  client(): LabClient;
  ticker: Ticker;
}

export type Slice<T> = (deps: SliceDeps) => StateCreator<RunState, [], [], T>;

export const DEFAULT_SCENARIO_ID = 'A';
export const DEFAULT_SEED = 1;

/** The selection a page opens on before the worker lists its scenarios. */
export const DEFAULT_SPEC: RunSelection = {
  scenario: DEFAULT_SCENARIO_ID,
  impl: 'model',
  transport: 'stdio',
  seed: DEFAULT_SEED,
  settings: {},
};

/** How many events the run shows, 0 without a transcript. */
export const eventCount = (state: Pick<RunState, 'transcript'>): number => state.transcript?.events.length ?? 0;

/** The virtual time the replay stands at: the scrubber's, or the last shown event's. */
export const currentTimeMs = (state: Pick<RunState, 'transcript' | 'step' | 'scrubMs'>): number =>
  state.scrubMs ?? state.transcript?.events[state.step - 1]?.atMs ?? 0;

/** The scenario selected, as the worker listed it. */
export const selectedInfo = (state: Pick<RunState, 'scenarios' | 'spec'>): ScenarioInfo | undefined =>
  state.scenarios.find((scenario) => scenario.id === state.spec.scenario);

/** The selection without an explored ordering or faults: another run of the same description. */
export function seededSpec(spec: RunSelection): RunSelection {
  const { schedule: _schedule, faults: _faults, ...seeded } = spec;
  return seeded;
}

/** Settings with one override set (or dropped, with undefined). */
export function withSetting(settings: Readonly<Settings>, name: string, value: SettingValue | undefined): Settings {
  const next: Settings = { ...settings };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
}

/** Another selection is another run: an explored ordering, faults, an exploration and a what-if belong to the one they came from. */
export const OTHER_RUN = { exploration: null, exploreError: null, whatIf: null } as const;
